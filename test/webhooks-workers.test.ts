import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { storageBackends } from './helpers/backends.ts';
import { redisAvailable, redisUrl } from './helpers/services.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { TEST_ASSETS } from './helpers/test-app.ts';
import { eventually, startReceiver, startWebhookStack } from './webhooks-support.ts';
import { createBullmqQueue } from '../adapters/queue/bullmq/index.ts';
import { webhookSettings } from '../server/composition/webhooks.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { buildJobHandlers } from '../server/jobs/handlers.ts';
import { startJobs, type RunningJobs } from '../server/jobs/start-jobs.ts';
import { systemClock } from '../server/ports/clock.ts';
import type { JobHandler } from '../server/ports/queue.ts';
import type { StoragePort } from '../server/ports/storage/index.ts';

const backends = await storageBackends();
const postgres = backends[1];
const withRedis = await redisAvailable();

/**
 * Two workers on one BullMQ queue share the batch jobs the dispatcher writes, and in the normal
 * path no delivery is sent twice: each batch is one job, and one worker runs a job at a time.
 */
describe.runIf(postgres && withRedis)('webhook batches shared by two workers on postgresql + bullmq', () => {
  const queueName = `webhooks-workers-${process.pid}-${Date.now()}`;
  let storage: StoragePort;
  let dispose: () => Promise<void>;
  let stack: Awaited<ReturnType<typeof startWebhookStack>>;
  let second: RunningJobs;
  let secondRuns = 0;
  beforeAll(async () => {
    const s = await postgres!.open();
    storage = s;
    dispose = s.dispose;
    stack = await startWebhookStack(storage, { queue: createBullmqQueue({ redisUrl, queueName }), schedule: [0, 1000, 1000], concurrency: 4 });
    const logger = pino({ level: 'silent' });
    const handlers = buildJobHandlers({
      storage,
      clock: systemClock,
      logger,
      assets: createAssetRegistry(TEST_ASSETS),
      webhooks: webhookSettings({ allowLoopback: true, delivery: { timeoutMs: 2000, schedule: [0, 1000, 1000] } }).delivery,
    });
    const deliver = handlers['webhook.deliver']!;
    const counted: JobHandler = (job) => {
      secondRuns++;
      return deliver(job);
    };
    second = await startJobs({
      storage,
      queue: createBullmqQueue({ redisUrl, queueName }),
      handlers: { ...handlers, 'webhook.deliver': counted },
      clock: systemClock,
      logger,
      concurrency: 4,
    });
  });
  afterAll(async () => {
    await second?.stop();
    await stack?.close();
    await dispose?.();
  });

  it('delivers every event to every endpoint exactly once, with both workers taking batches', async () => {
    const rx = await startReceiver();
    const { t } = stack;
    const partner = await t.newPartner();
    for (const path of ['/a', '/b']) {
      const ep = await t.call('POST', '/v1/webhook-endpoints', { key: partner.key, body: { url: rx.url(path), enabledEvents: ['payment.created'] } });
      expect(ep.status).toBe(201);
    }
    const merchant = await payableMerchant(t, partner.key);
    const N = 60;
    for (let i = 0; i < N; i += 10) await Promise.all(Array.from({ length: 10 }, () => createPayment(t, partner.key, merchant)));
    const key = (r: (typeof rx.received)[number]) => `${r.path} ${r.headers['webhook-id']}`;
    expect(await eventually(() => new Set(rx.received.map(key)).size === 2 * N, 30_000)).toBe(true);
    // Anything sent twice would arrive within this.
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.received).toHaveLength(2 * N);
    expect(secondRuns).toBeGreaterThan(0);
    await rx.stop();
  }, 60_000);
});
