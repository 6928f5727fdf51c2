import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import { transitionPayment } from '../../../server/domain/payments/transition.ts';
import { TEST_ASSETS } from '../../../test/helpers/test-app.ts';
import { ApiError, WaitTimeoutError, type PartnerClient, type PaymentStatusResponse } from './index.ts';
import { payableMerchant, startService, USDC_BASE, type SentRequest, type Service } from './test-support/service.ts';

const usd = (value: string) => ({ amount: { unit: 'iso4217/USD', value }, referenceId: `order-${Math.random().toString(36).slice(2, 10)}`, expiresAt: null });

describe('payments against the real service', () => {
  let s: Service;
  let client: PartnerClient;
  let sent: SentRequest[];
  let merchant: string;
  beforeAll(async () => {
    s = await startService();
    ({ client, sent } = s.client());
    merchant = await payableMerchant(client);
  });
  afterAll(() => s?.stop());
  const nowS = () => Math.floor(s.t.clock.now() / 1000);

  /** Stands in for a buyer paying: the transition the gateway's confirm would make. */
  const succeed = async (paymentId: string) => {
    const p = (await s.t.storage.payments.get(paymentId))!;
    const deps = { storage: s.t.storage, clock: s.t.clock, assets: createAssetRegistry(TEST_ASSETS) };
    const r = await transitionPayment(deps, p, 'succeeded', {
      optionId: 'opt_1',
      buyerAccount: 'eip155:8453:0x00000000000000000000000000000000000000b1',
      asset: USDC_BASE,
      tokenValue: 10_500_000n,
      network: 'eip155:8453',
      txId: `0x${paymentId.slice(-8).padStart(64, 'a')}`,
      succeededAt: new Date(s.t.clock.now()),
    });
    expect(r.ok).toBe(true);
  };

  it('creates a payment with the merchant header and a generated Idempotency-Key', async () => {
    const created = await client.payments.create(merchant, usd('1050'));
    expect(created).toEqual({
      paymentId: expect.stringMatching(/^pay_/),
      gatewayUrl: `https://pay.example.test/${created.paymentId}`,
      status: 'requires_action',
      isFinal: false,
      pollInMs: 2000,
      expiresAt: nowS() + 300,
    });
    expect(sent.at(-1)!.headers.get('Merchant-Id')).toBe(merchant);
    expect(sent.at(-1)!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('replays a create with an explicit key instead of making a second payment', async () => {
    const body = usd('200');
    const a = await client.payments.create(merchant, body, { idempotencyKey: 'order-77' });
    expect(await client.payments.create(merchant, body, { idempotencyKey: 'order-77' })).toEqual(a);
    expect((await client.payments.list({ referenceId: body.referenceId })).data).toHaveLength(1);
  });

  it('rejects a bad amount with params_validation on amount.value', async () => {
    const error = await client.payments.create(merchant, usd('10.50')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).issues?.map((i) => i.field)).toContainEqual(expect.stringMatching(/amount\.value/));
  });

  it('reads status and the full record', async () => {
    const { paymentId } = await client.payments.create(merchant, usd('1050'));
    expect(await client.payments.status(merchant, paymentId)).toEqual({ status: 'requires_action', isFinal: false, pollInMs: 2000 });
    expect(await client.payments.get(merchant, paymentId)).toMatchObject({
      paymentId,
      merchant: { id: merchant },
      status: 'requires_action',
      fiatAmount: { unit: 'iso4217/USD', value: '1050' },
      refund: { refunded: false },
    });
    await expect(client.payments.status(merchant, 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ')).rejects.toMatchObject({ status: 404, code: 'payment_not_found' });
  });

  it('long-polls status with maxPollMs: answered when the payment changes', async () => {
    const { paymentId } = await client.payments.create(merchant, usd('1050'));
    const started = Date.now();
    const waiting = client.payments.status(merchant, paymentId, { maxPollMs: 20_000 });
    await new Promise((r) => setTimeout(r, 300));
    await client.payments.cancel(merchant, paymentId);
    expect(await waiting).toEqual({ status: 'cancelled', isFinal: true, pollInMs: null });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('iterates a merchant’s payments across pages', async () => {
    const other = await payableMerchant(client, 'Paged');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await client.payments.create(other, usd(String(100 + i)))).paymentId);
    const seen: string[] = [];
    for await (const p of client.payments.listAll({ merchantId: [other], limit: 2 })) seen.push(p.paymentId);
    expect(seen.sort()).toEqual([...ids].sort());
    const page = await client.payments.listForMerchant(other, { limit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.nextCursor).toEqual(expect.any(String));
    expect(page.data.every((p) => p.merchant.id === other)).toBe(true);
  });

  it('cancels an unpaid payment; a second cancel answers invalid_state', async () => {
    const { paymentId } = await client.payments.create(merchant, usd('1050'));
    expect(await client.payments.cancel(merchant, paymentId)).toMatchObject({ paymentId, status: 'cancelled' });
    expect(await client.payments.status(merchant, paymentId)).toEqual({ status: 'cancelled', isFinal: true, pollInMs: null });
    await expect(client.payments.cancel(merchant, paymentId)).rejects.toMatchObject({ status: 400, code: 'invalid_state' });
  });

  it('refuses a refund before success (400 payment_not_succeeded), then refunds once', async () => {
    const { paymentId } = await client.payments.create(merchant, usd('1050'));
    await expect(client.refunds.create(merchant, paymentId)).rejects.toMatchObject({ status: 400, code: 'payment_not_succeeded' });
    await succeed(paymentId);
    expect(await client.refunds.create(merchant, paymentId)).toEqual({ paymentId, refunded: true, refundedAt: expect.any(String) });
    await expect(client.refunds.create(merchant, paymentId)).rejects.toMatchObject({ status: 409, code: 'already_refunded' });
  });

  describe('waitForFinal', () => {
    it('polls at pollInMs until the status read expires the payment', async () => {
      const { paymentId } = await client.payments.create(merchant, { ...usd('1050'), expiresAt: nowS() + 60 });
      const seen: PaymentStatusResponse[] = [];
      const sleeps: number[] = [];
      const final = await client.payments.waitForFinal(merchant, paymentId, {
        maxPollMs: 0,
        onStatus: (st) => seen.push(st),
        // Each wait moves the service's clock instead of the test's: 2 s polls, 60 s to expiry.
        sleep: async (ms) => {
          sleeps.push(ms);
          s.t.clock.advance(sleeps.length === 2 ? 60_000 : ms);
        },
      });
      expect(final).toEqual({ status: 'expired', isFinal: true, pollInMs: null });
      expect(seen.map((st) => st.status)).toEqual(['requires_action', 'requires_action', 'expired']);
      expect(sleeps).toEqual([2000, 2000]);
    });

    it('returns a succeeded payment with its transaction', async () => {
      const { paymentId } = await client.payments.create(merchant, usd('1050'));
      const final = await client.payments.waitForFinal(merchant, paymentId, { maxPollMs: 0, sleep: () => succeed(paymentId) });
      expect(final).toMatchObject({
        status: 'succeeded',
        isFinal: true,
        pollInMs: null,
        info: { txId: expect.stringMatching(/^0x/), optionAmount: { unit: `caip19/${USDC_BASE}` } },
      });
    });

    it('long-polls by default: after a first read, one request waits on the service and is answered when the payment changes', async () => {
      const { paymentId } = await client.payments.create(merchant, usd('1050'));
      const seen: PaymentStatusResponse[] = [];
      const started = performance.now();
      setTimeout(() => void succeed(paymentId), 300);
      const final = await client.payments.waitForFinal(merchant, paymentId, {
        onStatus: (st) => seen.push(st),
        sleep: () => Promise.reject(new Error('a long-poll needs no sleep')),
      });
      expect(final).toMatchObject({ status: 'succeeded', isFinal: true });
      // The first read answers at once; the second is held by the service until the change.
      expect(seen.map((st) => st.status)).toEqual(['requires_action', 'succeeded']);
      expect(performance.now() - started).toBeLessThan(5_000);
    });

    it('gives up with WaitTimeoutError after timeoutMs, naming the last status', async () => {
      const { paymentId } = await client.payments.create(merchant, usd('1050'));
      const error = await client.payments.waitForFinal(merchant, paymentId, { timeoutMs: 50 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WaitTimeoutError);
      expect(error).toMatchObject({ lastStatus: 'requires_action' });
    });

    it('stops when the caller aborts, with the abort reason', async () => {
      const { paymentId } = await client.payments.create(merchant, usd('1050'));
      const controller = new AbortController();
      const waiting = client.payments.waitForFinal(merchant, paymentId, { signal: controller.signal, onStatus: () => controller.abort(new Error('user left')) });
      await expect(waiting).rejects.toThrow('user left');
    });
  });
});
