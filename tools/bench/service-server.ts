/**
 * The whole service on PostgreSQL, as the benchmark drives it: a child process so the load
 * generator does not share its event loop. Prints `ready <port> <json>` with the ids it seeded.
 */
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { pino } from 'pino';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { createPostgresPaymentChanges } from '../../adapters/payment-changes/postgres/index.ts';
import { PAYMENT_CHANGES_CHANNEL } from '../../adapters/storage/postgres/change-channel.ts';
import { createApp } from '../../server/app.ts';
import { webhookSettings } from '../../server/composition/webhooks.ts';
import { createAssetRegistry } from '../../server/domain/assets.ts';
import { systemClock } from '../../server/ports/clock.ts';
import { createPartner } from '../../server/auth/provisioning.ts';
import { loadConfig } from '../../server/config.ts';
import { createMemoryRateLimiter } from '../../adapters/rate-limit/memory/index.ts';

const [url, schema] = [process.argv[2]!, process.argv[3]!];
const storage = await createPostgresStorage({ url, schema, poolSize: 20 });
const paymentChanges = await createPostgresPaymentChanges({ channel: PAYMENT_CHANGES_CHANNEL, db: storage.db });
const assets = createAssetRegistry(loadConfig({ SERVICE_MODE: 'production' }).assets);
const { partner, apiKey } = await createPartner(storage, { name: 'bench', version: '2026-02-18', live: false });
// The rate limiter is part of every request's path, so it is measured too, set far above the
// rate the bench can reach so that it counts every request and refuses none.
const rateLimiter = createMemoryRateLimiter({ perSecond: 1_000_000, burst: 1_000_000 }, systemClock);
const app = createApp({
  storage,
  paymentChanges,
  clock: systemClock,
  logger: pino({ level: 'warn' }),
  assets,
  payBaseUrl: 'https://pay.bench.test',
  rateLimiter,
  webhookEndpoints: webhookSettings({ allowLoopback: false }).endpoints,
});
const server = app.listen(0, '127.0.0.1', () => {
  const port = (server.address() as AddressInfo).port;
  console.log(`ready ${port} ${JSON.stringify({ apiKey, partnerId: partner.id })}`);
});
server.keepAliveTimeout = 60_000;
// With BENCH_LOOP_STATS, SIGUSR2 prints the event-loop delay since the last SIGUSR2 (`stats <json>`,
// in ms) and starts over: pauses (GC, long synchronous work) show here, queueing does not.
if (process.env.BENCH_LOOP_STATS) {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  let elu = performance.eventLoopUtilization();
  // Garbage collections in the same window: pauses the loop delay shows that GC explains.
  const gc = { count: 0, total: 0, max: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.count++;
      gc.total += e.duration;
      gc.max = Math.max(gc.max, e.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  process.on('SIGUSR2', () => {
    // Utilization: the share of the time the loop was busy; near 1, every request queues behind others.
    const busy = Math.round(performance.eventLoopUtilization(elu).utilization * 100);
    console.log(
      `stats ${JSON.stringify({ p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max), busy, gcs: gc.count, gcMs: Math.round(gc.total), gcMax: Math.round(gc.max * 10) / 10 })}`,
    );
    Object.assign(gc, { count: 0, total: 0, max: 0 });
    loop.reset();
    elu = performance.eventLoopUtilization();
  });
}
process.on('SIGTERM', () =>
  server.close(
    () =>
      void paymentChanges
        .close()
        .then(() => storage.close())
        .then(() => process.exit(0)),
  ),
);
