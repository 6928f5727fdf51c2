/**
 * An open-loop load at a fixed rate: one request every 1000/rate ms whatever the answers do, so
 * latency is measured at a steady arrival rate (autocannon's rate limit sends each second's
 * requests in a burst, which measures queueing instead).
 */
import { Agent, request } from 'node:http';

export interface SteadyResult {
  sent: number;
  failed: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** One request on a keep-alive agent; resolves with whether it answered 2xx. */
function send(agent: Agent, url: URL, method: string, headers: Record<string, string>, body: string | undefined): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `path`: the i-th request's path instead of `url`'s (requests spread over many payments). */
export async function steadyLoad(opts: {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  rate: number;
  seconds: number;
  path?: (i: number) => string;
}): Promise<SteadyResult> {
  // node:http on a keep-alive agent rather than fetch: the generator's own work and garbage
  // land in the latency it measures, and fetch's are several times larger.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL(opts.url);
  const latencies: number[] = [];
  let failed = 0;
  const inflight: Promise<void>[] = [];
  const total = opts.rate * opts.seconds;
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / opts.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    inflight.push(
      send(agent, opts.path ? new URL(opts.path(i), url) : url, opts.method, opts.headers, opts.body)
        .then((ok) => {
          if (!ok) failed++;
          latencies.push(performance.now() - t0);
        })
        .catch(() => {
          failed++;
        }),
    );
  }
  await Promise.all(inflight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { sent: total, failed, p50: r(pct(latencies, 50)), p90: r(pct(latencies, 90)), p99: r(pct(latencies, 99)), max: r(latencies[latencies.length - 1] ?? 0) };
}
