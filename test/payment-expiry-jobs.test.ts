import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { storageBackends } from './helpers/backends.ts';
import { redisAvailable, redisUrl } from './helpers/services.ts';
import { startTestApp, type TestApp, TEST_ASSETS } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { createInlineQueue } from '../adapters/queue/inline/index.ts';
import { createBullmqQueue } from '../adapters/queue/bullmq/index.ts';
import { buildJobHandlers } from '../server/jobs/handlers.ts';
import { webhookSettings } from '../server/composition/webhooks.ts';
import { startJobs, type RunningJobs } from '../server/jobs/start-jobs.ts';
import { createExpirySweep } from '../server/jobs/expiry-sweep.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { systemClock } from '../server/ports/clock.ts';
import type { QueuePort } from '../server/ports/queue.ts';

const backends = await storageBackends();
const queues: Array<{ name: string; make: () => QueuePort }> = [{ name: 'inline', make: () => createInlineQueue({ clock: systemClock }) }];
if (await redisAvailable()) queues.push({ name: 'bullmq', make: () => createBullmqQueue({ redisUrl, queueName: `expiry-${process.pid}-${Date.now()}` }) });

const cases = backends.flatMap((b) => queues.map((q) => ({ backend: b, queue: q, label: `${b.name} + ${q.name}` })));

/**
 * Expiry as every process that runs jobs does it (the sweep `startJobs` runs beside the worker),
 * with a real queue, and no read to expire the payment lazily.
 */
describe.each(cases)('payment expiry on $label', ({ backend, queue }) => {
  let t: TestApp;
  let jobs: RunningJobs;
  let dispose: () => Promise<void>;
  let db: Awaited<ReturnType<typeof backend.open>>['db'];
  beforeAll(async () => {
    const storage = await backend.open();
    db = storage.db;
    dispose = storage.dispose;
    const logger = pino({ level: 'silent' });
    const assets = createAssetRegistry(TEST_ASSETS);
    let notify = () => {};
    jobs = await startJobs({
      storage,
      queue: queue.make(),
      handlers: buildJobHandlers({ storage, clock: systemClock, logger, assets, webhooks: webhookSettings({ allowLoopback: false }).delivery }),
      clock: systemClock,
      logger,
      relayIntervalMs: 200,
      loops: [createExpirySweep({ storage, clock: systemClock, logger, assets })],
    });
    notify = () => jobs.relay.notify();
    t = await startTestApp(storage, { clock: systemClock, onJobsWritten: () => notify() });
  });
  afterAll(async () => {
    await jobs?.stop();
    await t?.close();
    await dispose?.();
  });

  it('expires an unpaid payment at its deadline and records the event once', async () => {
    const merchant = await payableMerchant(t, t.a.key);
    const now = Math.floor(Date.now() / 1000);
    const due = await createPayment(t, t.a.key, merchant, { expiresAt: now + 2 });
    const later = await createPayment(t, t.a.key, merchant, { expiresAt: now + 3600 });
    const deadline = Date.now() + 20_000;
    while ((await t.storage.payments.get(due.body.paymentId))?.status !== 'expired' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const expired = (await t.storage.payments.get(due.body.paymentId))!;
    expect(expired.status).toBe('expired');
    expect(expired.updatedAt.getTime()).toBeGreaterThanOrEqual((now + 2) * 1000);
    expect((await t.storage.payments.events(due.body.paymentId)).map((e) => e.type)).toEqual(['payment.created', 'payment.expired']);
    expect((await t.storage.payments.get(later.body.paymentId))?.status).toBe('requires_action');
  }, 30_000);

  it('writes no job per payment: the deadline in its row is the schedule', async () => {
    const merchant = await payableMerchant(t, t.a.key);
    const created = await createPayment(t, t.a.key, merchant, { expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    const jobs = await db.query('SELECT type FROM outbox_jobs WHERE payload::text LIKE $1', [`%${created.body.paymentId}%`]);
    expect(jobs.rows).toEqual([]);
  });
});
