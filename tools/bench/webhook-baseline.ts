/** The webhook bench's instrument: the bare delivery loop it compares the service with. */
import http from 'node:http';

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
