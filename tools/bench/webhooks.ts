/**
 * `npm run bench -- webhooks` (alias `npm run bench:webhooks`): webhook deliveries per second from
 * PostgreSQL + Redis (BullMQ) to a local receiver that answers 200 at once. Payments are created
 * first (not timed); then the dispatcher and a worker start, and the clock runs until the receiver
 * has seen every delivery. Then, side by side in the same run, the baseline: a bare loop that POSTs
 * the same bodies, signed the same way, to the same receiver at the same concurrency (keep-alive,
 * as a plain client does), and the ratio. The statements the service sent to PostgreSQL during
 * its timed part are counted (a wrapper on pg's client) and printed per delivery. Settings from
 * the environment: BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/test),
 * BENCH_REDIS_URL (redis://127.0.0.1:6379), BENCH_QUEUE=inline (compare without Redis),
 * BENCH_EVENTS (2000), BENCH_ENDPOINTS (4), BENCH_CONCURRENCY (32).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { pino } from 'pino';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { createPostgresPaymentChanges } from '../../adapters/payment-changes/postgres/index.ts';
import { PAYMENT_CHANGES_CHANNEL } from '../../adapters/storage/postgres/change-channel.ts';
import { createBullmqQueue } from '../../adapters/queue/bullmq/index.ts';
import { createInlineQueue } from '../../adapters/queue/inline/index.ts';
import { createApp } from '../../server/app.ts';
import { webhookSettings } from '../../server/composition/webhooks.ts';
import { createAssetRegistry } from '../../server/domain/assets.ts';
import { createPartner } from '../../server/auth/provisioning.ts';
import { buildJobHandlers } from '../../server/jobs/handlers.ts';
import { startJobs } from '../../server/jobs/start-jobs.ts';
import { systemClock } from '../../server/ports/clock.ts';
import { createWebhookDispatcher } from '../../server/jobs/webhook-dispatcher.ts';
import { signedHeaders } from '../../server/domain/webhooks/signing.ts';
import { countStatements, postAll, type SignedPost } from './webhook-baseline.ts';

const dbUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const events = Number(process.env.BENCH_EVENTS ?? 2000);
const endpoints = Number(process.env.BENCH_ENDPOINTS ?? 4);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const schema = `bench_wh_${Date.now().toString(36)}`;
const USDC = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** Runs the webhook bench and prints its figures; see the header. */
export async function runWebhookBench(): Promise<void> {
  const logger = pino({ level: 'warn' });
  const storage = await createPostgresStorage({ url: dbUrl, schema, poolSize: 20 });
  const paymentChanges = await createPostgresPaymentChanges({ channel: PAYMENT_CHANGES_CHANNEL, db: storage.db });
  const assets = createAssetRegistry([{ id: USDC, symbol: 'USDC', name: 'USD Coin', decimals: 6, pegCurrency: 'USD', flows: ['transfer'], networkName: 'Base' }]);
  // Distinct (endpoint, webhook-id) pairs the receiver saw in the current phase.
  let seen = new Set<string>();
  let done: () => void = () => {};
  let finished = new Promise<void>((resolve) => (done = resolve));
  const total = events * endpoints;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.add(`${req.url} ${String(req.headers['webhook-id'])}`);
      res.writeHead(200).end();
      if (seen.size >= total) done();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const rxPort = (receiver.address() as AddressInfo).port;

  const app = createApp({ storage, paymentChanges, clock: systemClock, logger, assets, webhookEndpoints: webhookSettings({ allowLoopback: true }).endpoints });
  const server = await new Promise<http.Server>((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { apiKey } = await createPartner(storage, { name: 'bench', version: '2026-02-18', live: false });
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(base + path, { method, headers: { 'Api-Key': apiKey, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as { merchant?: { id: string } };
  };
  for (let i = 0; i < endpoints; i++) await call('POST', '/v1/webhook-endpoints', { url: `http://127.0.0.1:${rxPort}/ep${i}`, enabledEvents: ['payment.created'] });
  const merchant = (await call('POST', '/v1/merchants', { merchantName: 'Bench', merchantEmail: 'b@bench.co' }, { 'Idempotency-Key': 'bench-m' })).merchant!.id;
  await call(
    'POST',
    `/v1/merchants/${merchant}/settlements/crypto`,
    { settlements: [{ asset: USDC, destination: 'eip155:8453:0x1234567890abcdef1234567890abcdef12345678' }] },
    { 'Idempotency-Key': 'bench-s' },
  );
  process.stdout.write(`creating ${events} payments (not timed)… `);
  for (let i = 0; i < events; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, events - i) }, (_, k) =>
        call('POST', '/v1/payments', { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `b-${i + k}`, expiresAt: null }, { 'Merchant-Id': merchant }),
      ),
    );
  }
  console.log('done');

  const inline = process.env.BENCH_QUEUE === 'inline';
  const queue = inline ? createInlineQueue({ logger }) : createBullmqQueue({ redisUrl, queueName: `bench-webhooks-${Date.now()}`, logger });
  const handlers = buildJobHandlers({
    storage,
    clock: systemClock,
    logger,
    assets,
    webhooks: webhookSettings({ allowLoopback: true, delivery: process.env.BENCH_CAP ? { maxInFlightPerEndpoint: Number(process.env.BENCH_CAP) } : {} }).delivery,
  });
  const counter = countStatements();
  const started = performance.now();
  const jobs = await startJobs({ storage, queue, handlers, clock: systemClock, logger, concurrency, relayIntervalMs: 50 });
  const dispatcher = createWebhookDispatcher({ storage, clock: systemClock, logger, intervalMs: 50, onJobsWritten: () => jobs.relay.notify() });
  dispatcher.start();
  await finished;
  const seconds = (performance.now() - started) / 1000;
  const counts = counter.stop();
  const rate = total / seconds;
  console.log(
    `service:  ${total} deliveries (${events} events × ${endpoints} endpoints) in ${seconds.toFixed(2)} s: ${Math.round(rate)} deliveries/s (PostgreSQL + ${inline ? 'inline queue' : 'BullMQ'}, worker concurrency ${concurrency})`,
  );
  const per = (n: number) => (n / total).toFixed(2);
  console.log(
    `          PostgreSQL per delivery: ${per(counts.statements)} statements, ${per(counts.transactions)} explicit transactions (${Object.entries(counts.byKind)
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${per(n)}`)
      .join(', ')})`,
  );
  await dispatcher.stop();
  await jobs.stop();

  // The baseline's input, read untimed: every delivery's body and its endpoint's URL and secret.
  const { rows } = await storage.db.query<{ url: string; secret: string; event_id: string; body: string }>(
    'SELECT e.url, e.secret, d.event_id, d.body FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id ORDER BY d.id',
  );
  const posts: SignedPost[] = rows.map((r) => ({ url: r.url, body: r.body, headers: () => signedHeaders(r.event_id, Date.now(), r.body, [r.secret]) }));
  seen = new Set();
  finished = new Promise<void>((resolve) => (done = resolve));
  const baseStarted = performance.now();
  await postAll(posts, concurrency);
  await finished;
  const baseSeconds = (performance.now() - baseStarted) / 1000;
  const baseRate = posts.length / baseSeconds;
  console.log(`baseline: ${posts.length} signed POSTs in ${baseSeconds.toFixed(2)} s: ${Math.round(baseRate)} deliveries/s (bare loop, keep-alive, concurrency ${concurrency})`);
  // Diagnostic, not the baseline: the same loop with a connection per POST, as the guarded fetch did before its pool.
  seen = new Set();
  finished = new Promise<void>((resolve) => (done = resolve));
  const freshStarted = performance.now();
  await postAll(posts, concurrency, false);
  await finished;
  const freshRate = posts.length / ((performance.now() - freshStarted) / 1000);
  console.log(`          the same loop with a new connection per POST (the guarded fetch before it kept sockets alive): ${Math.round(freshRate)} deliveries/s`);
  console.log(`ratio service / baseline: ${(rate / baseRate).toFixed(2)}   goal: service ≥ 2,000 deliveries/s (${rate >= 2000 ? 'met' : 'not met'})`);

  server.close();
  receiver.close();
  await paymentChanges.close();
  await storage.close();
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}
