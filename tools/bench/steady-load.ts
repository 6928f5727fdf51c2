/**
 * An open-loop load at a fixed rate: one request every 1000/rate ms whatever the answers do, so
 * latency is measured at a steady arrival rate (autocannon's rate limit sends each second's
 * requests in a burst, which measures queueing instead).
 */
export interface SteadyResult {
  sent: number;
  failed: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

export async function steadyLoad(opts: { url: string; method: string; headers: Record<string, string>; body?: string; rate: number; seconds: number }): Promise<SteadyResult> {
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
      fetch(opts.url, { method: opts.method, headers: opts.headers, ...(opts.body ? { body: opts.body } : {}) })
        .then(async (res) => {
          await res.arrayBuffer();
          if (!res.ok) failed++;
          latencies.push(performance.now() - t0);
        })
        .catch(() => {
          failed++;
        }),
    );
  }
  await Promise.all(inflight);
  latencies.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { sent: total, failed, p50: r(pct(latencies, 50)), p90: r(pct(latencies, 90)), p99: r(pct(latencies, 99)), max: r(latencies[latencies.length - 1] ?? 0) };
}
