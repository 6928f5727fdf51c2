/**
 * `npm run bench -- background`: does the background keep up with the front door? One API process
 * (`node server/main.ts`, production mode, PostgreSQL + Redis, its jobs left to workers) and
 * BACKGROUND_WORKERS (1) `npm run worker` processes, one webhook endpoint subscribed to
 * `payment.created`. Payments are created at a steady BACKGROUND_RATE (1,000/s) for
 * BACKGROUND_SECONDS (300; or `--rate`, `--seconds`, `--workers`), open loop (one every 1/rate s whatever the answers do), to a
 * receiver in a process of its own (receiver-process.ts: not behind the load generator). Every 10 s it
 * prints the creates answered, the deliveries received, the backlog (created, not yet delivered),
 * the p99 delay of the events delivered in that window (arrival − the event's `created_at`) and
 * the outbox lag (`jobs_outbox_lag_seconds` from the API's /metrics: how late the relay is,
 * expiry jobs included, one written per create). Goals: event delay p99 ≤ 5 s, outbox lag < 2 s.
 */
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { startApiProcess } from './api-process.ts';
import { metricValue, percentile } from './receiver.ts';
import { startReceiverProcess } from './receiver-process.ts';

// `npm run bench -- background --seconds 30 --rate 500 --workers 2` for shorter or other runs.
const { values: args } = parseArgs({ args: process.argv.slice(3), options: { seconds: { type: 'string' }, rate: { type: 'string' }, workers: { type: 'string' } }, strict: true });
const rate = Number(args.rate ?? process.env.BACKGROUND_RATE ?? 1000);
const seconds = Number(args.seconds ?? process.env.BACKGROUND_SECONDS ?? 300);
const workers = Number(args.workers ?? process.env.BACKGROUND_WORKERS ?? 1);
const WINDOW_MS = 10_000;
/** How long the deliveries may take to catch up after the last create before the run gives up. */
const DRAIN_MS = 120_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Mean duration of a delivered webhook attempt, ms, from a worker's histogram. */
function attemptMs(text: string): string {
  const sum = metricValue(text, 'webhook_delivery_duration_seconds_sum', 'outcome="delivered"');
  const count = metricValue(text, 'webhook_delivery_duration_seconds_count', 'outcome="delivered"');
  return sum !== null && count ? ((1000 * sum) / count).toFixed(1) : '?';
}

function failedText(failures: ReadonlyMap<string, number>): string {
  if (failures.size === 0) return '0 failed';
  let total = 0;
  for (const n of failures.values()) total += n;
  return `${total} failed: ${[...failures].map(([why, n]) => `${why} ×${n}`).join(', ')}`;
}

export async function backgroundBench(): Promise<void> {
  console.log(`background bench: ${rate} creates/s for ${seconds} s, 1 API process + ${workers} worker(s), one endpoint (PostgreSQL + Redis, as npm start / npm run worker run)`);
  const rx = await startReceiverProcess();
  const api = await startApiProcess('background', 'production', { WEBHOOK_ALLOW_LOOPBACK: 'on', LOG_LEVEL: 'warn' });
  const started: Awaited<ReturnType<typeof api.startWorker>>[] = [];
  try {
    const ep = await api.call('POST', '/v1/webhook-endpoints', { url: rx.url('/steady'), enabledEvents: ['payment.created'] });
    if (ep.status !== 201) throw new Error(`endpoint: ${JSON.stringify(ep.body)}`);
    for (let i = 0; i < workers; i++) started.push(await api.startWorker());

    const agent = new Agent({ keepAlive: true, maxSockets: 128 });
    const url = new URL(`${api.url}/v1/payments`);
    const headers = { 'content-type': 'application/json', 'api-key': api.partnerKey, 'merchant-id': api.merchantId };
    const body = JSON.stringify({ amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'steady', expiresAt: null });
    const createdAt: number[] = [];
    // Failed creates by what failed (a status code or a socket error's code): a count alone said
    // 7 of 300,000 failed and nothing of why.
    const failures = new Map<string, number>();
    const fail = (why: string) => failures.set(why, (failures.get(why) ?? 0) + 1);
    const send = () =>
      new Promise<void>((resolve) => {
        const req = request(url, { method: 'POST', headers, agent }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 201) createdAt.push(Date.now());
            else fail(`HTTP ${res.statusCode}`);
            resolve();
          });
        });
        req.on('error', (err: NodeJS.ErrnoException) => {
          fail(err.code ?? err.message);
          resolve();
        });
        req.end(body);
      });

    const rows: string[] = [];
    const lags: number[] = [];
    const t0 = Date.now();
    let window = 0;
    const sample = async () => {
      window++;
      const end = t0 + window * WINDOW_MS;
      const from = end - WINDOW_MS;
      const creates = createdAt.filter((t) => t >= from && t < end).length;
      const arrived = rx.arrivals.filter((a) => a.type === 'payment.created' && a.at >= from && a.at < end);
      const backlog = createdAt.length - rx.arrivals.filter((a) => a.type === 'payment.created').length;
      const lag = metricValue(await api.metrics(), 'jobs_outbox_lag_seconds') ?? NaN;
      lags.push(lag);
      const p99 = percentile(
        arrived.map((a) => a.at - a.eventAt),
        99,
      );
      rows.push(
        `  ${String(window * 10).padStart(5)} s   ${String(creates).padStart(7)}   ${String(arrived.length).padStart(10)}   ${String(backlog).padStart(7)}   ${(p99 / 1000).toFixed(2).padStart(8)} s   ${lag.toFixed(2).padStart(6)} s`,
      );
      console.log(rows.at(-1));
    };
    console.log('  window   creates   deliveries   backlog   p99 delay   outbox lag');
    const sampler = setInterval(() => void sample(), WINDOW_MS);
    const inflight: Promise<void>[] = [];
    const total = rate * seconds;
    for (let i = 0; i < total; i++) {
      const wait = t0 + (i * 1000) / rate - Date.now();
      if (wait > 0) await sleep(wait);
      inflight.push(send());
    }
    await Promise.all(inflight);
    const lastCreate = largest(createdAt);
    const deadline = Date.now() + DRAIN_MS;
    const created = () => rx.arrivals.filter((a) => a.type === 'payment.created').length;
    while (created() < createdAt.length && Date.now() < deadline) await sleep(250);
    clearInterval(sampler);
    await sample();
    agent.destroy();

    const delays = rx.arrivals.filter((a) => a.type === 'payment.created').map((a) => a.at - a.eventAt);
    const last = largest(rx.arrivals.map((a) => a.at));
    const p99 = percentile(delays, 99) / 1000;
    const maxLag = largest(lags.filter(Number.isFinite));
    console.log(
      `  creates: ${createdAt.length} answered 201 (${failedText(failures)}) at ${(createdAt.length / ((lastCreate - t0) / 1000)).toFixed(0)}/s; payment.created delivered: ${created()}; the last ${((last - lastCreate) / 1000).toFixed(1)} s after the last create`,
    );
    console.log(`  event delay p50 ${(percentile(delays, 50) / 1000).toFixed(2)} s, p99 ${p99.toFixed(2)} s (goal ≤ 5 s) ${p99 <= 5 ? 'met' : 'NOT met'}`);
    console.log(`  outbox lag max ${maxLag.toFixed(2)} s (goal < 2 s) ${maxLag < 2 ? 'met' : 'NOT met'}`);
    // What the workers did: job runs by type and outcome, and webhook attempts, from their /metrics.
    for (const [i, w] of started.entries()) {
      const text = await w.metrics();
      const runs = (type: string) => ['completed', 'retried', 'failed'].map((o) => `${o} ${metricValue(text, `jobs_${o}_total`, `job_type="${type}"`) ?? 0}`).join(', ');
      console.log(
        `  worker ${i + 1}: webhook.deliver jobs ${runs('webhook.deliver')} (payments expire by sweep: no job each); attempts delivered ${metricValue(text, 'webhook_deliveries_total', 'outcome="delivered"') ?? 0}, ${attemptMs(text)} ms each on average`,
      );
    }
    if (created() < createdAt.length) {
      console.log(
        `  ${createdAt.length - created()} events not delivered ${DRAIN_MS / 1000} s after the load; the workers' warnings:\n${started.map((w) => w.warnings().slice(-2000)).join('\n')}`,
      );
    }
  } finally {
    for (const w of started) await w.close();
    await api.close();
    await rx.close();
  }
}

/** The largest of `xs` (-Infinity for none): `Math.max(...xs)` passes each as an argument, and 300,000 of them (5 minutes at 1,000/s) overflow the stack. */
function largest(xs: readonly number[]): number {
  let max = -Infinity;
  for (const x of xs) if (x > max) max = x;
  return max;
}
