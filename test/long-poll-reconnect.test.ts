import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../adapters/storage/postgres/index.ts';
import { createPostgresPaymentChanges } from '../adapters/payment-changes/postgres/index.ts';
import { PAYMENT_CHANGES_CHANNEL } from '../adapters/storage/postgres/change-channel.ts';
import { waitFor } from './helpers/wait-for.ts';
import { dropSchema, postgresAvailable, postgresUrl, uniqueSchema } from './helpers/services.ts';
import { startTestApp, TEST_ASSETS, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { countingWaiters } from './helpers/long-poll.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { transitionPayment } from '../server/domain/payments/transition.ts';
import type { PaymentRecord } from '../server/domain/payments/records.ts';

/**
 * A long-poll must not be stranded by a notification lost while the listener reconnects (a
 * PostgreSQL restart, a failover, an administrator ending its session): on reconnect every
 * waiter reads once, so a change made meanwhile is answered then, and an unchanged payment
 * keeps waiting to its bound.
 */
describe.runIf(await postgresAvailable())('long-poll across a reconnect of the PostgreSQL listener', () => {
  const schema = uniqueSchema('lp');
  const applicationName = `mps-lp-reconnect-${process.pid}-${Date.now().toString(36)}`;
  let storage: Awaited<ReturnType<typeof createPostgresStorage>>;
  let waiters: ReturnType<typeof countingWaiters>;
  let t: TestApp;
  let admin: pg.Client;
  beforeAll(async () => {
    storage = await createPostgresStorage({ url: postgresUrl, schema });
    waiters = countingWaiters(await createPostgresPaymentChanges({ channel: PAYMENT_CHANGES_CHANNEL, db: storage.db, applicationName, reconnect: { minMs: 500, maxMs: 1000 } }));
    t = await startTestApp(storage, { paymentChanges: waiters.port });
    admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await waiters?.port.close();
    await t?.close();
    await storage?.close();
    await dropSchema(schema);
  });
  const listeners = async () => (await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [applicationName])).rowCount;

  it('answers a payment changed while the listener was down once it is back, and an unchanged one at its bound', async () => {
    const merchantId = await payableMerchant(t, t.a.key);
    const [changed, unchanged] = [(await createPayment(t, t.a.key, merchantId)).body.paymentId as string, (await createPayment(t, t.a.key, merchantId)).body.paymentId as string];
    const started = Date.now();
    const status = (id: string, maxPollMs: number) =>
      t
        .call('GET', `/v1/payments/${id}/status?maxPollMs=${maxPollMs}`, { key: t.a.key, headers: { 'Merchant-Id': merchantId } })
        .then((r) => ({ body: r.body, at: Date.now() - started }));
    const changedAnswer = status(changed, 20_000);
    const unchangedAnswer = status(unchanged, 4000);
    await waitFor('both requests waiting', () => waiters.waiting === 2);

    expect(await listeners()).toBe(1);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
    await waitFor('the listener to be gone', async () => (await listeners()) === 0, 5000, 10);
    // Nobody listens now: this change's notification is lost.
    const record = (await storage.payments.get(changed)) as PaymentRecord;
    const moved = await transitionPayment({ storage, clock: t.clock, assets: createAssetRegistry(TEST_ASSETS) }, record, 'cancelled', {
      cancelledReason: 'test',
      cancelledAt: new Date(),
    });
    expect(moved.ok).toBe(true);
    const changedAt = Date.now() - started;

    const a = await changedAnswer;
    expect(a.body.status).toBe('cancelled');
    // Answered at the reconnect (its backoff starts at 500 ms), far before its 20 s bound.
    expect(a.at - changedAt).toBeLessThan(5000);
    expect(await listeners()).toBe(1);
    const b = await unchangedAnswer;
    expect(b.body.status).toBe('requires_action');
    expect(b.at).toBeGreaterThanOrEqual(3900);
  });
});
