/**
 * `npm run bench -- webhooks` (alias `npm run bench:webhooks`): webhook deliveries per second to
 * one endpoint (most partners have one), from the service as `npm start` and `npm run worker` run
 * it (tools/bench/api-process.ts: PostgreSQL + Redis, the shipped flags, the job pools, the
 * SSRF-guarded fetch, Standard Webhooks signatures, the per-endpoint and per-partner caps, every
 * outcome recorded before a delivery counts) to a local receiver that answers 200 at once.
 *
 * BENCH_EVENTS (20,000) payments are created through the API first, untimed, with no worker
 * running: the API dispatches their events and queues the delivery jobs. Then BENCH_WORKERS (1)
 * workers start; the clock runs from the first delivery the receiver sees to the last (a worker's
 * own start-up is not the delivery path). Then, side by side, the baseline: a bare loop POSTing
 * the same bodies, signed the same way, to the same receiver over keep-alive connections, at
 * BENCH_CONCURRENCY (8: the endpoint's in-flight cap) at once. BENCH_ENDPOINTS (1) endpoints.
 * Goal: ≥ 2,000 deliveries/s to one endpoint.
 */
import pg from 'pg';
import { signedHeaders } from '../../server/domain/webhooks/signing.ts';
import { startApiProcess } from './api-process.ts';
import { metricValue, startBenchReceiver } from './receiver.ts';
import { postAll, type SignedPost } from './webhook-baseline.ts';

const events = Number(process.env.BENCH_EVENTS ?? 20_000);
const endpoints = Number(process.env.BENCH_ENDPOINTS ?? 1);
const workers = Number(process.env.BENCH_WORKERS ?? 1);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the webhook bench and prints its figures; see the header. */
export async function runWebhookBench(): Promise<void> {
  const total = events * endpoints;
  let done: () => void = () => {};
  let finished = new Promise<void>((resolve) => (done = resolve));
  let expected = total;
  const rx = await startBenchReceiver({ onArrival: () => rx.distinct() >= expected && done() });
  const api = await startApiProcess('webhooks', 'production', { WEBHOOK_ALLOW_LOOPBACK: 'on', LOG_LEVEL: 'warn' });
  const started: { close(): Promise<void> }[] = [];
  try {
    for (let i = 0; i < endpoints; i++) {
      const ep = await api.call('POST', '/v1/webhook-endpoints', { url: rx.url(`/ep${i}`), enabledEvents: ['payment.created'] });
      if (ep.status !== 201) throw new Error(`endpoint: ${JSON.stringify(ep.body)}`);
    }
    process.stdout.write(`creating ${events} payments (not timed; no worker yet)… `);
    for (let i = 0; i < events; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, events - i) }, async (_, k) => {
          const r = await api.call(
            'POST',
            '/v1/payments',
            { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `b-${i + k}`, expiresAt: null },
            { 'Merchant-Id': api.merchantId },
          );
          if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
        }),
      );
    }
    // Every event dispatched and every job handed to the queue before the clock can start.
    for (let i = 0; i < 120; i++) {
      const text = await api.metrics();
      if ((metricValue(text, 'jobs_outbox_lag_seconds') ?? 1) === 0) break;
      await sleep(500);
    }
    console.log('done');

    for (let i = 0; i < workers; i++) started.push(await api.startWorker());
    await finished;
    const at = rx.arrivals.map((a) => a.at);
    const seconds = (Math.max(...at) - Math.min(...at)) / 1000;
    const rate = (total - 1) / seconds;
    console.log(
      `service:  ${total} deliveries (${events} events × ${endpoints} endpoint${endpoints > 1 ? 's' : ''}) in ${seconds.toFixed(2)} s: ${Math.round(rate)} deliveries/s (npm start + ${workers} npm run worker, PostgreSQL + BullMQ)`,
    );
    for (const w of started) await w.close();
    started.length = 0;

    // The baseline's input, read untimed: every delivery's body and its endpoint's URL and secret.
    const db = new pg.Client({ connectionString: api.databaseUrl });
    await db.connect();
    const { rows } = await db.query<{ url: string; secret: string; event_id: string; body: string }>(
      'SELECT e.url, e.secret, d.event_id, d.body FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id ORDER BY d.id',
    );
    await db.end();
    // The same (path, webhook-id) pairs again: the receiver counts a second set.
    const posts: SignedPost[] = rows.map((r) => ({ url: `${r.url}?baseline`, body: r.body, headers: () => signedHeaders(r.event_id, Date.now(), r.body, [r.secret]) }));
    expected = rx.distinct() + posts.length;
    finished = new Promise<void>((resolve) => (done = resolve));
    const baseStarted = performance.now();
    await postAll(posts, concurrency);
    await finished;
    const baseRate = posts.length / ((performance.now() - baseStarted) / 1000);
    console.log(`baseline: ${posts.length} signed POSTs: ${Math.round(baseRate)} deliveries/s (bare loop, keep-alive, concurrency ${concurrency})`);
    console.log(`ratio service / baseline: ${(rate / baseRate).toFixed(2)}   goal: service ≥ 2,000 deliveries/s to one endpoint (${rate >= 2000 ? 'met' : 'not met'})`);
  } finally {
    for (const w of started) await w.close();
    await api.close();
    await rx.close();
  }
}
