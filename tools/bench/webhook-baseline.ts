/**
 * The webhook bench's two instruments: the bare delivery loop it compares the service with, and a
 * count of the statements this process sends to PostgreSQL.
 */
import http from 'node:http';
import pg from 'pg';

/** One POST of the baseline: a body and the signed headers a plain sender computes per request. */
export interface SignedPost {
  url: string;
  body: string;
  headers(): Record<string, string>;
}

/**
 * What a plain implementation does with a list of signed deliveries: `concurrency` loops, each
 * POSTing the next body over a keep-alive connection (or, with `keepAlive` false, a new one per
 * POST, as the SSRF guard's fetch does: it connects to the address it checked) and reading the answer. No database, no
 * queue, no guard: the ceiling the service's delivery path is measured against.
 */
export async function postAll(posts: SignedPost[], concurrency: number, keepAlive = true): Promise<void> {
  const agent = new http.Agent({ keepAlive, maxSockets: concurrency });
  let next = 0;
  const one = (p: SignedPost) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(p.url, { method: 'POST', agent, headers: { ...p.headers(), 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`baseline POST answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(p.body);
    });
  const loop = async () => {
    while (next < posts.length) await one(posts[next++]!);
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, loop));
  } finally {
    agent.destroy();
  }
}

export interface StatementCounts {
  statements: number;
  /** BEGIN … COMMIT units; every other statement commits alone. */
  transactions: number;
  /** Statements by their first word (named ones by name). */
  byKind: Record<string, number>;
}

/**
 * Counts every statement this process's pg clients send from now until `stop()` (which puts pg
 * back as it was). A wrapper at the driver, so it sees what the adapter really sends, BEGIN and
 * COMMIT included, whichever repository sent it.
 */
export function countStatements(): { stop(): StatementCounts } {
  const counts: StatementCounts = { statements: 0, transactions: 0, byKind: {} };
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string; name?: string };
    const text = typeof q === 'string' ? q : (q.text ?? '');
    const kind = typeof q === 'object' && q.name ? q.name : (/^\s*(\w+)/.exec(text)?.[1] ?? '?').toUpperCase();
    counts.statements++;
    if (kind === 'BEGIN') counts.transactions++;
    counts.byKind[kind] = (counts.byKind[kind] ?? 0) + 1;
    return original.apply(this, args);
  };
  return {
    stop() {
      proto.query = original;
      return counts;
    },
  };
}
