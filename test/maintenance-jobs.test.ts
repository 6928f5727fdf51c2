import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { redisAvailable, redisUrl } from './helpers/services.ts';
import { createInlineQueue } from '../adapters/queue/inline/index.ts';
import { createBullmqQueue } from '../adapters/queue/bullmq/index.ts';
import { deleteKeysWithPrefix } from './helpers/redis-cleanup.ts';
import { startJobs, type RunningJobs } from '../server/jobs/start-jobs.ts';
import { IDEMPOTENCY_WINDOW_MS, MAINTENANCE_JOB_ID, QUOTE_PURGE_GRACE_MS, maintenanceJob } from '../server/jobs/maintenance.ts';
import { silentLogger } from '../server/ports/logger.ts';
import { newId } from '../server/domain/ids.ts';
import { newPayment } from '../server/domain/payments/create-payment.ts';
import { createManualClock, systemClock } from '../server/ports/clock.ts';
import type { QueuePort } from '../server/ports/queue.ts';
import type { StoragePort } from '../server/ports/storage/index.ts';
import { endpointOf } from '../adapters/storage/conformance/payment-fixtures.ts';
import { deliveryJob, newDeliveryId } from '../server/domain/webhooks/events.ts';

const backends = await storageBackends();
const bullmq = await redisAvailable();
const queues: Array<{ name: string; make: (prefix: string) => QueuePort }> = [{ name: 'inline', make: () => createInlineQueue({ clock: systemClock }) }];
if (bullmq) queues.push({ name: 'bullmq', make: (prefix) => createBullmqQueue({ redisUrl, prefix }) });
// BullMQ runs against PostgreSQL only: PGlite is one process's database, the embedded mode's.
const cases = backends.flatMap((b) => queues.filter((q) => q.name === 'inline' || b.name === 'postgresql').map((q) => ({ backend: b, queue: q, label: `${b.name} + ${q.name}` })));

/**
 * An old idempotency key, an expired unchosen quote, a settled webhook delivery past the 30-day
 * retention, and a fresh key, live quote and recent delivery, at `now`.
 */
async function seed(storage: StoragePort, now: number) {
  const partner = { id: newId('partner'), name: 'P', defaultVersion: '2026-02-18', createdAt: new Date(now) };
  await storage.partners.create(partner);
  const m = { id: newId('merchant'), partnerId: partner.id, name: 'M', email: null, iconUrl: null, status: 'active' as const, createdAt: new Date(now), deletedAt: null };
  await storage.merchants.create(m);
  await storage.settlements.createMany(partner.id, m.id, [
    { id: newId('cryptoSettlement'), partnerId: partner.id, merchantId: m.id, asset: 'eip155:1/erc20:0xa', destination: 'eip155:1:0x1', createdAt: new Date(now) },
  ]);
  const pay = newPayment({ partnerId: partner.id, merchantId: m.id, amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'r', expiresAt: null }, now, {
    defaultTtlS: 86_400,
    maxTtlS: 86_400,
  });
  await storage.payments.create(pay, { event: { id: newId('event'), type: 'payment.created', snapshot: () => ({}) }, jobs: [] });
  const quote = (deadline: number) => ({
    optionId: newId('option'),
    paymentId: pay.id,
    account: 'eip155:1:0xb',
    asset: 'eip155:1/erc20:0xa',
    amount: 1n,
    destination: 'eip155:1:0x1',
    deadline: new Date(deadline),
    // A Permit2 quote: nothing moves without a confirm, so nothing is kept past the grace for late funds
    // (a direct transfer of an unpaid payment is, for LATE_FUNDS_REACH_DAYS: test/late-funds-evm.test.ts).
    state: { flow: 'permit2' as const, typedData: { types: {}, primaryType: 'P', domain: {}, message: {} }, approve: false },
    createdAt: new Date(now),
  });
  const expired = quote(now - QUOTE_PURGE_GRACE_MS - 60_000);
  const live = quote(now + 300_000);
  await storage.quotes.save([expired, live]);
  await storage.idempotency.claim(partner.id, 'old', 'h', new Date(now - IDEMPOTENCY_WINDOW_MS - 60_000), 60_000);
  await storage.idempotency.claim(partner.id, 'fresh', 'h', new Date(now - IDEMPOTENCY_WINDOW_MS + 60_000), 60_000);
  const endpoint = endpointOf(partner.id, {}, now);
  await storage.webhooks.createEndpoint(endpoint);
  const event = (await storage.payments.events(pay.id))[0]!;
  const delivery = (at: number) => {
    const d = {
      id: newDeliveryId(at),
      endpointId: endpoint.id,
      partnerId: partner.id,
      eventId: event.id,
      eventType: event.type,
      body: '{}',
      createdAt: new Date(at),
      traceId: null,
    };
    return d;
  };
  const [oldDelivery, freshDelivery] = [delivery(now - 31 * 86_400_000), delivery(now - 60_000)];
  for (const d of [oldDelivery, freshDelivery]) {
    await storage.webhooks.createDelivery(d, deliveryJob(d));
    await storage.webhooks.recordAttempt(d.id, { attempt: 1, at: d.createdAt, statusCode: 200, durationMs: 1, error: null }, { status: 'delivered', nextAttemptAt: null });
  }
  return {
    /** What is left: [old key, fresh key, expired quote, live quote, old delivery, fresh delivery]; a purged key claims anew. */
    async left() {
      const key = async (k: string) => (await storage.idempotency.claim(partner.id, k, 'h', new Date(now), 60_000)).kind !== 'claimed';
      const [oldKey, freshKey] = [await key('old'), await key('fresh')];
      if (!oldKey) await storage.idempotency.release(partner.id, 'old');
      return [
        oldKey,
        freshKey,
        (await storage.quotes.get(pay.id, expired.optionId)) !== null,
        (await storage.quotes.get(pay.id, live.optionId)) !== null,
        (await storage.webhooks.getDelivery(oldDelivery.id)) !== null,
        (await storage.webhooks.getDelivery(freshDelivery.id)) !== null,
      ];
    },
  };
}

async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

/**
 * The purges run by themselves: every process that starts jobs writes the one maintenance job, any
 * worker runs it, and it comes back on its own. Before, `purgeCreatedBefore` had no caller and
 * quotes were never deleted.
 */
describe.each(cases)('maintenance job on $label', ({ backend, queue }) => {
  let storage: StoragePort & { dispose(): Promise<void> };
  const running: RunningJobs[] = [];
  const prefix = `maint-${process.pid}-${Date.now()}`;
  beforeAll(async () => {
    storage = await backend.open();
  });
  afterAll(async () => {
    for (const j of running) await j.stop();
    await storage?.dispose();
    if (queue.name === 'bullmq') await deleteKeysWithPrefix(redisUrl, prefix);
  });

  it('purges expired quotes, idempotency keys past 24 h and settled webhook deliveries past 30 days without being asked, and again later', async () => {
    const first = await seed(storage, Date.now());
    // Two processes with workers, as in production (only one copy of the job exists).
    const processes = queue.name === 'bullmq' ? 2 : 1;
    for (let i = 0; i < processes; i++) {
      running.push(
        await startJobs({
          storage,
          queue: queue.make(prefix),
          handlers: {},
          clock: systemClock,
          logger: silentLogger,
          relayIntervalMs: 100,
          maintenance: { storage, intervalMs: 300 },
        }),
      );
    }
    expect(await eventually(async () => (await first.left()).join() === [false, true, false, true, false, true].join())).toBe(true);
    const job = await storage.jobs.get(MAINTENANCE_JOB_ID);
    expect(job).toMatchObject({ type: 'maintenance.purge', completedAt: null, attempts: 0 });
    // Nobody calls anything: the next run finds what expired since.
    const second = await seed(storage, Date.now());
    expect(await eventually(async () => (await second.left()).join() === [false, true, false, true, false, true].join())).toBe(true);
  }, 40_000);
});

describe.each(backends)('maintenance handler on $name', (backend) => {
  let storage: StoragePort & { dispose(): Promise<void> };
  beforeAll(async () => {
    storage = await backend.open();
  });
  afterAll(async () => {
    await storage?.dispose();
  });

  it('deletes a bounded batch per run and comes back soon while rows are left, at the interval once done', async () => {
    const clock = createManualClock(Date.parse('2026-11-24T12:00:00.000Z'));
    const partner = { id: newId('partner'), name: 'P', defaultVersion: '2026-02-18', createdAt: new Date(clock.now()) };
    await storage.partners.create(partner);
    const old = new Date(clock.now() - IDEMPOTENCY_WINDOW_MS - 1000);
    for (let i = 0; i < 7; i++) await storage.idempotency.claim(partner.id, `k${i}`, 'h', old, 60_000);
    const run = maintenanceJob({ storage, clock, logger: silentLogger }, { batch: 2, maxBatches: 2, intervalMs: 600_000, catchUpMs: 1000 });
    const job = { id: MAINTENANCE_JOB_ID, type: 'maintenance.purge', payload: {}, runAt: new Date(clock.now()) };
    const left = async () => {
      let n = 0;
      for (let i = 0; i < 7; i++)
        if ((await storage.idempotency.claim(partner.id, `k${i}`, 'h', old, 60_000)).kind !== 'claimed') n++;
        else await storage.idempotency.release(partner.id, `k${i}`);
      return n;
    };
    expect(await run(job)).toEqual({ retryAt: new Date(clock.now() + 1000) });
    expect(await left()).toBe(3);
    expect(await run(job)).toEqual({ retryAt: new Date(clock.now() + 600_000) });
    expect(await left()).toBe(0);
  });

  it('never throws: a failing purge is logged and the next run scheduled', async () => {
    const clock = createManualClock();
    const warnings: string[] = [];
    const broken = { ...storage, idempotency: { ...storage.idempotency, purgeCreatedBeforeBatch: () => Promise.reject(new Error('db down')) } };
    const run = maintenanceJob({ storage: broken, clock, logger: { ...silentLogger, warn: (_o, msg) => warnings.push(msg) } }, { intervalMs: 5000 });
    expect(await run({ id: MAINTENANCE_JOB_ID, type: 'maintenance.purge', payload: {}, runAt: new Date() })).toEqual({ retryAt: new Date(clock.now() + 5000) });
    expect(warnings).toHaveLength(1);
  });
});
