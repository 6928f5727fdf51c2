import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { requestFingerprint } from '../server/http/idempotency.ts';

/**
 * An Idempotency-Key is bound to the whole request: operation, path, body, `Merchant-Id`, query
 * and API version. The same key and body under another merchant used to replay the first
 * merchant's payment (201, Idempotent-Replayed: true): a partner's retry logic keyed by order id
 * would then hand merchant B's buyer a link that pays merchant A.
 */
const backends = await storageBackends();

const USDT = 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7';
const USDT_DEST = 'eip155:1:0x1234567890abcdef1234567890abcdef12345678';

describe.each(backends)('idempotency bound to the whole request on $name', (backend) => {
  let t: TestApp;
  let dispose: () => Promise<void>;
  let m1: string;
  let m2: string;
  beforeAll(async () => {
    const storage = await backend.open();
    dispose = storage.dispose;
    t = await startTestApp(storage);
    m1 = await payableMerchant(t, t.a.key, 'One');
    m2 = await payableMerchant(t, t.a.key, 'Two');
  });
  afterAll(async () => {
    await t?.close();
    await dispose?.();
  });

  const body = () => ({ amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'order-77', expiresAt: null });

  it('answers 409 idempotency_conflict for the same key and body under another Merchant-Id, and creates nothing', async () => {
    const key = `x-${Math.random()}`;
    const first = await createPayment(t, t.a.key, m1, body(), { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    const other = await createPayment(t, t.a.key, m2, body(), { 'Idempotency-Key': key });
    expect(other.status, JSON.stringify(other.body)).toBe(409);
    expect(other.body).toMatchObject({ code: 'idempotency_conflict', message: expect.any(String) });
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    const listed = await t.call('GET', '/v1/merchants/payments', { key: t.a.key, headers: { 'Merchant-Id': m2 } });
    expect(listed.body.data.map((p: { referenceId: string }) => p.referenceId)).not.toContain('order-77');
    // The original request still replays, fields in any order.
    const { referenceId, expiresAt, amount } = body();
    const again = await createPayment(t, t.a.key, m1, { referenceId, expiresAt, amount }, { 'Idempotency-Key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.paymentId).toBe(first.body.paymentId);
  });

  it('answers 409 for the same key and body under another API version', async () => {
    const key = `v-${Math.random()}`;
    expect((await createPayment(t, t.a.key, m1, body(), { 'Idempotency-Key': key })).status).toBe(201);
    const preview = await createPayment(t, t.a.key, m1, body(), { 'Idempotency-Key': key, 'Svc-Version': '2026-02-19.preview' });
    expect(preview.status, JSON.stringify(preview.body)).toBe(409);
    expect(preview.body.code).toBe('idempotency_conflict');
    // Naming the pinned version explicitly is the same request as leaving it implicit.
    const explicit = await createPayment(t, t.a.key, m1, body(), { 'Idempotency-Key': key, 'Svc-Version': '2026-02-18' });
    expect(explicit.status).toBe(201);
    expect(explicit.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers 409 for the same key and body on another path (another merchant in the path)', async () => {
    const key = `p-${Math.random()}`;
    const settle = (merchant: string) =>
      t.call('POST', `/v1/merchants/${merchant}/settlements/crypto`, {
        key: t.a.key,
        headers: { 'Idempotency-Key': key },
        body: { settlements: [{ asset: USDT, destination: USDT_DEST }] },
      });
    expect((await settle(m1)).status).toBe(201);
    const other = await settle(m2);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_conflict');
  });

  it('fingerprints every declared header and the query, not the headers that only pick the version', () => {
    const base = { operationId: 'createPayment', pathParams: {}, apiVersion: '2026-02-18', query: {}, headers: { 'merchant-id': 'mrch_a' }, body: { a: 1, b: 2 } };
    const same = requestFingerprint({ ...base, body: { b: 2, a: 1 }, headers: { 'merchant-id': 'mrch_a', 'idempotency-key': 'k', 'svc-version': '2026-02-18' } });
    expect(same).toBe(requestFingerprint(base));
    for (const changed of [
      { ...base, operationId: 'createMerchant' },
      { ...base, pathParams: { id: 'pay_1' } },
      { ...base, apiVersion: '2026-02-19.preview' },
      { ...base, query: { includePaymentInfo: true } },
      { ...base, headers: { 'merchant-id': 'mrch_b' } },
      { ...base, headers: {} },
      { ...base, body: { a: 1, b: 3 } },
    ]) {
      expect(requestFingerprint(changed)).not.toBe(requestFingerprint(base));
    }
  });
});
