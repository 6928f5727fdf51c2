// Long because: one app per storage backend is started once and every payment operation (create, status, cancel, refunds, races) runs against it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant, USDC_BASE } from './helpers/payments.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { createPriceTable } from '../server/domain/prices.ts';
import { MAX_PAYMENT_ATTEMPTS, releasePayment, transitionPayment } from '../server/domain/payments/transition.ts';
import { TEST_ASSETS } from './helpers/test-app.ts';

const backends = await storageBackends();

describe.each(backends)('payments on $name', (backend) => {
  let t: TestApp;
  let dispose: () => Promise<void>;
  let merchant: string;
  beforeAll(async () => {
    const storage = await backend.open();
    dispose = storage.dispose;
    // A yen rate, so the JPY case below is a payment wallets can be offered (else currency_not_priceable).
    t = await startTestApp(storage, { payBaseUrl: 'https://pay.example.test', prices: createPriceTable({ 'USD/JPY': '150' }) });
    merchant = await payableMerchant(t, t.a.key);
  });
  afterAll(async () => {
    await t?.close();
    await dispose?.();
  });
  const deps = () => ({ storage: t.storage, clock: t.clock, assets: createAssetRegistry(TEST_ASSETS) });
  const succeed = async (paymentId: string) => {
    const p = (await t.storage.payments.get(paymentId))!;
    const r = await transitionPayment(deps(), p, 'succeeded', {
      optionId: 'opt_1',
      buyerAccount: 'eip155:8453:0x00000000000000000000000000000000000000b1',
      asset: USDC_BASE,
      tokenValue: 10_500_000n,
      network: 'eip155:8453',
      txId: `0x${paymentId.slice(-8).padStart(64, 'a')}`,
      succeededAt: new Date(t.clock.now()),
    });
    expect(r.ok).toBe(true);
  };

  describe('create', () => {
    it('answers 201 with the payment id, link, status, polling hint and expiry (default 5 minutes)', async () => {
      const r = await createPayment(t, t.a.key, merchant);
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        paymentId: expect.stringMatching(/^pay_[0-9A-Z]{26}$/),
        gatewayUrl: `https://pay.example.test/${r.body.paymentId}`,
        status: 'requires_action',
        isFinal: false,
        pollInMs: 2000,
        expiresAt: Math.floor(t.clock.now() / 1000) + 300,
      });
    });

    it('takes an explicit expiry in Unix seconds, in the future and at most 30 days ahead', async () => {
      const now = Math.floor(t.clock.now() / 1000);
      expect((await createPayment(t, t.a.key, merchant, { expiresAt: now + 3600 })).body.expiresAt).toBe(now + 3600);
      for (const expiresAt of [now - 1, now, now + 31 * 86_400]) {
        const r = await createPayment(t, t.a.key, merchant, { expiresAt });
        expect(r.status, String(expiresAt)).toBe(400);
        expect(r.body.issues[0].field).toBe('expiresAt');
      }
    });

    it.each([
      ['zero', { amount: { unit: 'iso4217/USD', value: '0' } }, 'amount.value'],
      ['negative', { amount: { unit: 'iso4217/USD', value: '-5' } }, 'amount.value'],
      ['decimal', { amount: { unit: 'iso4217/USD', value: '10.50' } }, 'amount.value'],
      ['a number instead of a string', { amount: { unit: 'iso4217/USD', value: 1050 } }, 'amount.value'],
      ['an unsupported currency', { amount: { unit: 'iso4217/XYZ', value: '100' } }, 'amount.unit'],
      ['a token unit', { amount: { unit: 'caip19/eip155:1/erc20:0x0', value: '100' } }, 'amount.unit'],
      ['an empty reference', { referenceId: '' }, 'referenceId'],
      ['a reference over 255 characters', { referenceId: 'r'.repeat(256) }, 'referenceId'],
    ])('rejects %s with params_validation on the field', async (_label, body, field) => {
      const r = await createPayment(t, t.a.key, merchant, body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('params_validation');
      expect(r.body.issues.map((i: { field: string }) => i.field)).toContain(field);
    });

    it('accepts JPY (no minor unit) and keeps very large amounts exact', async () => {
      const jpy = await createPayment(t, t.a.key, merchant, { amount: { unit: 'iso4217/JPY', value: '1500' } });
      expect(jpy.status).toBe(201);
      const big = await createPayment(t, t.a.key, merchant, { amount: { unit: 'iso4217/USD', value: '123456789012345678' } });
      const details = await t.call('GET', `/v1/payments/${big.body.paymentId}`, { key: t.a.key, headers: { 'Merchant-Id': merchant } });
      expect(details.body.fiatAmount).toEqual({ unit: 'iso4217/USD', value: '123456789012345678', display: { assetSymbol: 'USD', assetName: 'US Dollar', decimals: 2 } });
    });

    it('needs a merchant that is the partner’s, live and settled', async () => {
      const missing = await t.call('POST', '/v1/payments', { key: t.a.key, body: { amount: { unit: 'iso4217/USD', value: '1' }, referenceId: 'x' } });
      expect(missing).toMatchObject({ status: 401, body: { code: 'missing_merchant_id' } });
      const others = await payableMerchant(t, t.b.key);
      expect((await createPayment(t, t.a.key, others)).body.code).toBe('forbidden');
      expect((await createPayment(t, t.a.key, 'mrch_01ZZZZZZZZZZZZZZZZZZZZZZZZ')).status).toBe(403);
      const bare = await t.call('POST', '/v1/merchants', {
        key: t.a.key,
        headers: { 'Idempotency-Key': `bare-${Math.random()}` },
        body: { merchantName: 'Bare', merchantEmail: 'a@bare.co' },
      });
      const unsettled = await createPayment(t, t.a.key, bare.body.merchant.id);
      expect(unsettled).toMatchObject({ status: 400, body: { code: 'merchant_not_payable' } });
      const doomed = await payableMerchant(t, t.a.key);
      await t.call('DELETE', `/v1/merchants/${doomed}`, { key: t.a.key });
      expect(await createPayment(t, t.a.key, doomed)).toMatchObject({ status: 400, body: { code: 'merchant_not_found' } });
    });

    it('honours an optional Idempotency-Key', async () => {
      const body = { referenceId: 'idem-order' };
      const a = await createPayment(t, t.a.key, merchant, body, { 'Idempotency-Key': 'pay-once' });
      const b = await createPayment(t, t.a.key, merchant, body, { 'Idempotency-Key': 'pay-once' });
      expect(b.body).toEqual(a.body);
      const c = await createPayment(t, t.a.key, merchant, { referenceId: 'other' }, { 'Idempotency-Key': 'pay-once' });
      expect(c.body.code).toBe('idempotency_conflict');
      const list = await t.call('GET', '/v1/payments?referenceId=idem-order', { key: t.a.key });
      expect(list.body.data).toHaveLength(1);
    });

    it('records the created event with a full snapshot in the same unit, and no expiry job', async () => {
      const r = await createPayment(t, t.a.key, merchant);
      const events = await t.storage.payments.events(r.body.paymentId);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'payment.created', stateVersion: 1 });
      expect(events[0]!.data).toMatchObject({ paymentId: r.body.paymentId, status: 'requires_action', payment_state_version: 1, merchant: { id: merchant, name: 'Shop' } });
      // No job: the expiry sweep (server/jobs/expiry-sweep.ts) reads the deadline from the payment.
      const jobs = (await t.storage.jobs.claimUnrelayed(1000, new Date(t.clock.now()))).filter((j) => j.payload.paymentId === r.body.paymentId);
      expect(jobs).toEqual([]);
    });
  });

  describe('status and details', () => {
    it('polls to expiry under a controllable clock', async () => {
      const r = await createPayment(t, t.a.key, merchant, { expiresAt: Math.floor(t.clock.now() / 1000) + 60 });
      const status = () => t.call('GET', `/v1/payments/${r.body.paymentId}/status`, { key: t.a.key, headers: { 'Merchant-Id': merchant } });
      expect((await status()).body).toEqual({ status: 'requires_action', isFinal: false, pollInMs: 2000 });
      t.clock.advance(59_000);
      expect((await status()).body.status).toBe('requires_action');
      t.clock.advance(1_000);
      expect((await status()).body).toEqual({ status: 'expired', isFinal: true, pollInMs: null });
      expect((await t.storage.payments.get(r.body.paymentId))?.status).toBe('expired');
      const gw = await t.call('GET', `/v1/gateway/payment/${r.body.paymentId}/status`, { key: t.a.walletKey });
      expect(gw.body).toEqual({ status: 'expired', isFinal: true, pollInMs: null });
    });

    it('reports info {txId, optionAmount} on a succeeded payment, and the full record', async () => {
      const r = await createPayment(t, t.a.key, merchant, { referenceId: 'details-1' });
      await succeed(r.body.paymentId);
      const status = await t.call('GET', `/v1/payments/${r.body.paymentId}/status`, { key: t.a.key, headers: { 'Merchant-Id': merchant } });
      expect(status.body).toEqual({
        status: 'succeeded',
        isFinal: true,
        pollInMs: null,
        info: {
          txId: expect.stringMatching(/^0x/),
          optionAmount: { unit: `caip19/${USDC_BASE}`, value: '10500000', display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6, networkName: 'Base' } },
        },
      });
      const details = await t.call('GET', `/v1/payments/${r.body.paymentId}`, { key: t.a.key, headers: { 'Merchant-Id': merchant } });
      expect(details.body).toMatchObject({
        paymentId: r.body.paymentId,
        referenceId: 'details-1',
        merchant: { id: merchant, name: 'Shop', iconUrl: null },
        status: 'succeeded',
        buyer: { accountCaip10: 'eip155:8453:0x00000000000000000000000000000000000000b1' },
        transaction: { networkId: '8453', network: 'eip155:8453' },
        isFinal: true,
        isTerminal: true,
        // Funds go straight to the merchant: the payment's own transfer is its settlement.
        settlement: { successful: { txId: status.body.info.txId, amount: { unit: `caip19/${USDC_BASE}`, value: '10500000' } } },
        refund: { refunded: false, refundedAt: null },
        stateVersion: 2,
      });
      const unpaid = await createPayment(t, t.a.key, merchant, { referenceId: 'details-2' });
      const pending = await t.call('GET', `/v1/payments/${unpaid.body.paymentId}`, { key: t.a.key, headers: { 'Merchant-Id': merchant } });
      expect(pending.body).toMatchObject({ status: 'requires_action', isTerminal: false, settlement: null });
    });

    it('hides payments across merchants and partners', async () => {
      const r = await createPayment(t, t.a.key, merchant);
      const other = await payableMerchant(t, t.a.key, 'Other');
      const wrongMerchant = await t.call('GET', `/v1/payments/${r.body.paymentId}`, { key: t.a.key, headers: { 'Merchant-Id': other } });
      expect(wrongMerchant).toMatchObject({ status: 404, body: { code: 'payment_not_found' } });
      const bMerchant = await payableMerchant(t, t.b.key);
      const asB = await t.call('GET', `/v1/payments/${r.body.paymentId}/status`, { key: t.b.key, headers: { 'Merchant-Id': bMerchant } });
      expect(asB).toMatchObject({ status: 404, body: { code: 'payment_not_found' } });
      const bNamingA = await t.call('GET', `/v1/payments/${r.body.paymentId}/status`, { key: t.b.key, headers: { 'Merchant-Id': merchant } });
      expect(bNamingA).toMatchObject({ status: 403, body: { code: 'forbidden' } });
      expect((await t.call('GET', '/v1/gateway/payment/pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ/status', { key: t.a.walletKey })).body.code).toBe('payment_not_found');
      expect((await t.call('GET', `/v1/gateway/payment/${r.body.paymentId}/status`, { key: t.a.key })).status).toBe(403);
    });
  });

  describe('cancel', () => {
    it('cancels only from requires_action, from the partner or the gateway side', async () => {
      const r = await createPayment(t, t.a.key, merchant);
      const cancel = () => t.call('POST', `/v1/payments/${r.body.paymentId}/cancel`, { key: t.a.key, headers: { 'Merchant-Id': merchant } });
      const first = await cancel();
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        paymentId: r.body.paymentId,
        status: 'cancelled',
        cancelledReason: 'cancelled_by_merchant',
        cancelledAt: new Date(t.clock.now()).toISOString(),
      });
      expect(await cancel()).toMatchObject({ status: 400, body: { code: 'invalid_state' } });
      const g = await createPayment(t, t.a.key, merchant);
      const byWallet = await t.call('POST', `/v1/gateway/payment/${g.body.paymentId}/cancel`, { key: t.a.walletKey });
      expect(byWallet.body).toMatchObject({ status: 'cancelled', cancelledReason: 'cancelled_by_user' });
      const paid = await createPayment(t, t.a.key, merchant);
      await succeed(paid.body.paymentId);
      expect((await t.call('POST', `/v1/payments/${paid.body.paymentId}/cancel`, { key: t.a.key, headers: { 'Merchant-Id': merchant } })).body.code).toBe('invalid_state');
    });

    it('answers an expired payment with invalid_state (partner) and 410 payment_expired (gateway)', async () => {
      const r = await createPayment(t, t.a.key, merchant, { expiresAt: Math.floor(t.clock.now() / 1000) + 10 });
      t.clock.advance(11_000);
      expect((await t.call('POST', `/v1/payments/${r.body.paymentId}/cancel`, { key: t.a.key, headers: { 'Merchant-Id': merchant } })).body.code).toBe('invalid_state');
      expect(await t.call('POST', `/v1/gateway/payment/${r.body.paymentId}/cancel`, { key: t.a.walletKey })).toMatchObject({ status: 410, body: { code: 'payment_expired' } });
    });
  });

  describe('errors the reference names', () => {
    it('every merchant-scoped operation without Merchant-Id answers 401 missing_merchant_id, after the key is checked', async () => {
      const r = await createPayment(t, t.a.key, merchant);
      const id = r.body.paymentId as string;
      const calls: Array<[string, string, unknown?]> = [
        ['POST', '/v1/payments', { amount: { unit: 'iso4217/USD', value: '1' }, referenceId: 'x' }],
        ['GET', `/v1/payments/${id}`],
        ['GET', `/v1/payments/${id}/status`],
        ['POST', `/v1/payments/${id}/cancel`],
        ['GET', '/v1/merchants/payments'],
        ['POST', '/v1/refunds', { paymentId: id }],
      ];
      for (const [method, path, body] of calls) {
        const without = await t.call(method, path, { key: t.a.key, ...(body ? { body } : {}) });
        expect(without, `${method} ${path}`).toMatchObject({ status: 401, body: { code: 'missing_merchant_id' } });
        const empty = await t.call(method, path, { key: t.a.key, headers: { 'Merchant-Id': '' }, ...(body ? { body } : {}) });
        expect(empty.body.code, `${method} ${path} with an empty header`).toBe('missing_merchant_id');
        const noKey = await t.call(method, path, { ...(body ? { body } : {}) });
        expect(noKey.body.code, `${method} ${path} without a key`).toBe('missing_api_key');
      }
      expect((await t.storage.payments.get(id))!.status).toBe('requires_action');
    });

    it('a merchant of another partner, or none, is 403 on the merchant list as on every merchant-scoped call', async () => {
      const others = await payableMerchant(t, t.b.key);
      for (const m of [others, 'mrch_01ZZZZZZZZZZZZZZZZZZZZZZZZ']) {
        expect(await t.call('GET', '/v1/merchants/payments', { key: t.a.key, headers: { 'Merchant-Id': m } })).toMatchObject({ status: 403, body: { code: 'forbidden' } });
        expect(await t.call('POST', '/v1/refunds', { key: t.a.key, headers: { 'Merchant-Id': m }, body: { paymentId: 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ' } })).toMatchObject({
          status: 403,
        });
      }
    });
  });

  describe('refunds', () => {
    it('refunds a succeeded payment once; not before it succeeded', async () => {
      const r = await createPayment(t, t.a.key, merchant);
      const refund = () => t.call('POST', '/v1/refunds', { key: t.a.key, headers: { 'Merchant-Id': merchant }, body: { paymentId: r.body.paymentId } });
      expect(await refund()).toMatchObject({ status: 400, body: { code: 'payment_not_succeeded' } });
      await succeed(r.body.paymentId);
      const ok = await refund();
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ paymentId: r.body.paymentId, refunded: true, refundedAt: new Date(t.clock.now()).toISOString() });
      expect(await refund()).toMatchObject({ status: 409, body: { code: 'already_refunded' } });
      const events = await t.storage.payments.events(r.body.paymentId);
      expect(events.map((e) => e.type)).toEqual(['payment.created', 'payment.succeeded', 'payment.refunded']);
      expect(events.map((e) => e.stateVersion)).toEqual([1, 2, 3]);
      const details = await t.call('GET', `/v1/payments/${r.body.paymentId}`, { key: t.a.key, headers: { 'Merchant-Id': merchant } });
      expect(details.body.refund.refunded).toBe(true);
      const unknown = await t.call('POST', '/v1/refunds', { key: t.a.key, headers: { 'Merchant-Id': merchant }, body: { paymentId: 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ' } });
      expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found' } });
      const noMerchant = await t.call('POST', '/v1/refunds', { key: t.a.key, body: { paymentId: r.body.paymentId } });
      expect(noMerchant).toMatchObject({ status: 401, body: { code: 'missing_merchant_id' } });
    });
  });

  describe('races', () => {
    it('cancel racing a confirm: exactly one wins, the loser gets invalid_state', async () => {
      for (let round = 0; round < 5; round++) {
        const r = await createPayment(t, t.a.key, merchant);
        const p = (await t.storage.payments.get(r.body.paymentId))!;
        const [cancel, confirm] = await Promise.all([
          t.call('POST', `/v1/payments/${p.id}/cancel`, { key: t.a.key, headers: { 'Merchant-Id': merchant } }),
          transitionPayment(deps(), p, 'processing', { optionId: 'o', network: 'eip155:8453' }),
        ]);
        const final = (await t.storage.payments.get(p.id))!;
        if (confirm.ok) {
          // 409 when the cancel lost inside the write; 400 when it already saw the new state.
          expect([400, 409]).toContain(cancel.status);
          expect(cancel.body.code).toBe('invalid_state');
          expect(final.status).toBe('processing');
        } else {
          expect(cancel.status).toBe(200);
          expect(final.status).toBe('cancelled');
        }
        expect((await t.storage.payments.events(p.id)).map((e) => e.stateVersion)).toEqual([1, 2]);
      }
    });

    it('a released attempt gives the payment back, forgotten; the last allowed attempt fails it; past expiry it expires', async () => {
      const attempt = (p: Awaited<ReturnType<typeof t.storage.payments.get>>) =>
        transitionPayment(deps(), p!, 'processing', {
          optionId: 'opt_r',
          buyerAccount: 'eip155:8453:0x00000000000000000000000000000000000000b1',
          network: 'eip155:8453',
          txId: `0x${Math.random().toString(16).slice(2).padEnd(64, '0')}`,
        });
      const { body } = await createPayment(t, t.a.key, merchant);
      let p = (await t.storage.payments.get(body.paymentId))!;
      for (let n = 1; n < MAX_PAYMENT_ATTEMPTS; n++) {
        const moved = await attempt(p);
        expect(moved.ok).toBe(true);
        p = await releasePayment(deps(), (moved as { payment: typeof p }).payment, 'reverted');
        expect(p).toMatchObject({ status: 'requires_action', optionId: null, buyerAccount: null, network: null, txId: null });
      }
      const last = await attempt(p);
      const failed = await releasePayment(deps(), (last as { payment: typeof p }).payment, 'reverted');
      expect(failed).toMatchObject({ status: 'failed', failureCode: 'transfer_failed' });
      expect((await t.storage.payments.events(p.id)).map((e) => e.type)).toEqual([
        'payment.created',
        ...Array.from({ length: MAX_PAYMENT_ATTEMPTS - 1 }, () => ['payment.processing', 'payment.requires_action']).flat(),
        'payment.processing',
        'payment.failed',
      ]);

      const late = (await t.storage.payments.get((await createPayment(t, t.a.key, merchant)).body.paymentId))!;
      const moved = await attempt(late);
      t.clock.advance(late.expiresAt.getTime() - t.clock.now() + 1);
      expect(await releasePayment(deps(), (moved as { payment: typeof late }).payment, 'never seen')).toMatchObject({ status: 'expired' });
    });

    it('expiry racing success: one winner, one event each time', async () => {
      for (let round = 0; round < 5; round++) {
        const r = await createPayment(t, t.a.key, merchant);
        const p = (await t.storage.payments.get(r.body.paymentId))!;
        const results = await Promise.all([
          transitionPayment(deps(), p, 'expired'),
          transitionPayment(deps(), p, 'succeeded', { txId: `0x${round}${Math.random()}`, network: 'eip155:8453' }),
        ]);
        expect(results.filter((x) => x.ok)).toHaveLength(1);
        expect(await t.storage.payments.events(p.id)).toHaveLength(2);
      }
    });
  });
});
