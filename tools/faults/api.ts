// HTTP to the API processes as a client behind a load balancer sees them: requests spread
// round-robin, and one that gets no answer (or a 5xx) goes to the other process after a short
// wait. Only requests safe to repeat come through here: creates carry an Idempotency-Key, and the
// gateway's confirm repeats the same option and results.

export interface Answer {
  status: number;
  /** The parsed JSON, or the text when it is not JSON. */
  body: unknown;
}

export interface Api {
  bases: string[];
  /** Requests sent again (to either process) after no answer or a 5xx. */
  retries(): number;
  /** A `fetch` with failover, for the wallet SDK's gateway client (its own URLs name bases[0]). */
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  call(method: string, path: string, key: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
}

/** How long one request keeps trying (across both processes) before the caller sees the failure. */
const GIVE_UP_MS = 60_000;

export function createApi(bases: string[]): Api {
  let next = 0;
  let retries = 0;
  async function send(path: string, init: RequestInit): Promise<Response> {
    const deadline = Date.now() + GIVE_UP_MS;
    let base = next++ % bases.length;
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(`${bases[base]}${path}`, init);
        if (res.status < 500 || Date.now() > deadline) return res;
        await res.body?.cancel();
      } catch (err) {
        if (Date.now() > deadline || init.signal?.aborted) throw err;
      }
      base = (base + 1) % bases.length;
      retries++;
      await new Promise((r) => setTimeout(r, Math.min(1000, 100 * 2 ** Math.min(attempt, 4))));
    }
  }
  return {
    bases,
    retries: () => retries,
    fetch: (input, init) => {
      const url = new URL(input);
      return send(`${url.pathname}${url.search}`, init);
    },
    async call(method, path, key, body, headers = {}) {
      const res = await send(path, {
        method,
        headers: { 'Api-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      try {
        return { status: res.status, body: JSON.parse(text) as unknown };
      } catch {
        return { status: res.status, body: text };
      }
    },
  };
}
