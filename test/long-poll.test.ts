import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends, type TestStorage } from './helpers/backends.ts';
import { startTestApp, TEST_ASSETS, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { buyerAccount, countingWaiters, passiveChain } from './helpers/long-poll.ts';
import { waitFor } from './helpers/wait-for.ts';
import { createPostgresPaymentChanges } from '../adapters/payment-changes/postgres/index.ts';
import { PAYMENT_CHANGES_CHANNEL } from '../adapters/storage/postgres/change-channel.ts';
import { createChainRegistry } from '../server/ports/chains.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { createPriceTable } from '../server/domain/prices.ts';
import { releasePayment, transitionPayment } from '../server/domain/payments/transition.ts';
import type { PaymentRecord } from '../server/domain/payments/records.ts';

const backends = await storageBackends();

/** Long-poll over HTTP, as partners and wallets use it, on every storage backend. */
describe.each(backends)('long-poll on $name', (backend) => {
  let storage: TestStorage & { dispose(): Promise<void> };
  let t: TestApp;
  let waiters: ReturnType<typeof countingWaiters>;
  let merchantId: string;
  const assets = createAssetRegistry(TEST_ASSETS);
  const deps = () => ({ storage, clock: t.clock, assets });

  beforeAll(async () => {
    storage = await backend.open();
    waiters = countingWaiters(await createPostgresPaymentChanges({ channel: PAYMENT_CHANGES_CHANNEL, db: storage.db }));
    t = await startTestApp(storage, {
      paymentChanges: waiters.port,
      chains: createChainRegistry([passiveChain]),
      prices: createPriceTable(),
      payBaseUrl: 'https://pay.example.test',
    });
    merchantId = await payableMerchant(t, t.a.key);
  });
  afterAll(async () => {
    await waiters?.port.close();
    await t?.close();
    await storage?.dispose();
  });

  const newPayment = async () => (await createPayment(t, t.a.key, merchantId)).body.paymentId as string;
  const stored = async (id: string) => (await storage.payments.get(id)) as PaymentRecord;
  const timed = async <T>(work: Promise<T>) => {
    const started = Date.now();
    const value = await work;
    return { value, ms: Date.now() - started };
  };
  const statusCalls = {
    partner: (id: string, maxPollMs: number | string) =>
      t.call('GET', `/v1/payments/${id}/status?maxPollMs=${maxPollMs}`, { key: t.a.key, headers: { 'Merchant-Id': merchantId } }),
    gateway: (id: string, maxPollMs: number | string) => t.call('GET', `/v1/gateway/payment/${id}/status?maxPollMs=${maxPollMs}`, { key: t.a.walletKey }),
  };

  describe.each(['partner', 'gateway'] as const)('%s status', (side) => {
    const status = (id: string, maxPollMs: number | string) => statusCalls[side](id, maxPollMs);

    it('answers at once for a final payment', async () => {
      const id = await newPayment();
      await transitionPayment(deps(), await stored(id), 'cancelled', { cancelledReason: 'test', cancelledAt: new Date() });
      const { value, ms } = await timed(status(id, 30_000));
      expect(value.body).toMatchObject({ status: 'cancelled', isFinal: true, pollInMs: null });
      expect(ms).toBeLessThan(1000);
      expect(waiters.waiting).toBe(0);
    });

    it('answers when a non-final payment changes, with the new status', async () => {
      const id = await newPayment();
      const answer = timed(status(id, 30_000));
      await waitFor('the request to wait', () => waiters.waiting === 1);
      await new Promise((r) => setTimeout(r, 300));
      const changedAt = Date.now();
      await transitionPayment(deps(), await stored(id), 'cancelled', { cancelledReason: 'test', cancelledAt: new Date() });
      const { value, ms } = await answer;
      expect(value.status).toBe(200);
      expect(value.body).toMatchObject({ status: 'cancelled', isFinal: true });
      expect(ms).toBeGreaterThanOrEqual(300);
      expect(Date.now() - changedAt).toBeLessThan(1000);
      expect(waiters.waiting).toBe(0);
    });

    it('answers at the bound when nothing changes; absent or 0 answers at once', async () => {
      const id = await newPayment();
      const { value, ms } = await timed(status(id, 700));
      expect(value.body).toMatchObject({ status: 'requires_action', isFinal: false, pollInMs: 2000 });
      expect(ms).toBeGreaterThanOrEqual(690);
      expect(ms).toBeLessThan(3000);
      for (const quick of [0, '']) {
        const at = await timed(status(id, quick));
        expect(at.value.body.status).toBe('requires_action');
        expect(at.ms).toBeLessThan(1000);
      }
    });

    it('accepts any non-negative maxPollMs, as the reference does, and refuses a negative one', async () => {
      const id = await newPayment();
      const a = status(id, 600_000); // capped at 30 s, not refused
      await waitFor('the request to wait', () => waiters.waiting === 1);
      await transitionPayment(deps(), await stored(id), 'cancelled', { cancelledReason: 'test', cancelledAt: new Date() });
      expect((await a).body.status).toBe('cancelled');
      const negative = await status(id, -1);
      expect(negative.status).toBe(400);
      expect(negative.body.code).toBe('params_validation');
    });
  });

  it('answers 404 for an unknown payment without waiting', async () => {
    const { value, ms } = await timed(statusCalls.partner('pay_01M81J7YP4A22T3XZPSKQV9K8D', 30_000));
    expect(value.status).toBe(404);
    expect(ms).toBeLessThan(1000);
    expect(waiters.waiting).toBe(0);
  });

  describe('confirm', () => {
    /** A payment with an option quoted for a fresh buyer. */
    const quoted = async () => {
      const id = await newPayment();
      const options = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [buyerAccount()] } });
      expect(options.status).toBe(200);
      return { id, optionId: options.body.options[0].id as string };
    };
    const confirm = (id: string, optionId: string, maxPollMs?: number) =>
      t.call('POST', `/v1/gateway/payment/${id}/confirm${maxPollMs === undefined ? '' : `?maxPollMs=${maxPollMs}`}`, {
        key: t.a.walletKey,
        body: { optionId, results: [{ type: 'walletRpc', data: ['0xsigned'] }] },
      });
    const processing = (id: string) => waitFor('confirm to move the payment to processing', async () => (await stored(id)).status === 'processing');

    it('answers processing at once without maxPollMs', async () => {
      const { id, optionId } = await quoted();
      expect((await confirm(id, optionId)).body).toMatchObject({ status: 'processing', isFinal: false, pollInMs: 1000 });
    });

    it('answers when processing becomes succeeded', async () => {
      const { id, optionId } = await quoted();
      const answer = confirm(id, optionId, 20_000);
      await processing(id);
      await waitFor('confirm to wait', () => waiters.waiting === 1);
      await new Promise((r) => setTimeout(r, 300));
      const changedAt = Date.now();
      await transitionPayment(deps(), await stored(id), 'succeeded', { txId: `0x${'ab'.repeat(32)}`, succeededAt: new Date() });
      const r = await answer;
      expect(r.body).toMatchObject({ status: 'succeeded', isFinal: true, pollInMs: null, info: { txId: `0x${'ab'.repeat(32)}` } });
      expect(Date.now() - changedAt).toBeLessThan(1000);
    });

    it('answers when processing goes back to requires_action (the attempt released)', async () => {
      const { id, optionId } = await quoted();
      const answer = confirm(id, optionId, 20_000);
      await processing(id);
      await waitFor('confirm to wait', () => waiters.waiting === 1);
      await new Promise((r) => setTimeout(r, 300));
      const changedAt = Date.now();
      await releasePayment(deps(), await stored(id), 'reverted');
      const r = await answer;
      expect(r.body).toMatchObject({ status: 'requires_action', isFinal: false, pollInMs: 2000 });
      expect(Date.now() - changedAt).toBeLessThan(1000);
    });

    it('answers processing at the bound when nothing changes', async () => {
      const { id, optionId } = await quoted();
      const { value, ms } = await timed(confirm(id, optionId, 600));
      expect(value.body.status).toBe('processing');
      expect(ms).toBeGreaterThanOrEqual(590);
      expect(ms).toBeLessThan(3000);
    });
  });

  it('answers every waiting request with the current state when the process shuts down', async () => {
    const ids = [await newPayment(), await newPayment(), await newPayment()];
    const own = countingWaiters(await createPostgresPaymentChanges({ channel: PAYMENT_CHANGES_CHANNEL, db: storage.db }));
    const app = await startTestApp(storage, { paymentChanges: own.port });
    try {
      const answers = ids.map((id) => timed(app.call('GET', `/v1/gateway/payment/${id}/status?maxPollMs=30000`, { key: t.a.walletKey })));
      await waitFor('three waiting requests', () => own.waiting === 3);
      await own.port.close(); // what server/main.ts does first on SIGTERM
      for (const a of await Promise.all(answers)) {
        expect(a.value.body.status).toBe('requires_action');
        expect(a.ms).toBeLessThan(5000);
      }
    } finally {
      await app.close();
    }
  });
});
