import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { payableMerchant, USDC_BASE } from './helpers/payments.ts';
import { newPayment } from '../server/domain/payments/create-payment.ts';
import { newId } from '../server/domain/ids.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { transitionPayment } from '../server/domain/payments/transition.ts';
import { TEST_ASSETS } from './helpers/test-app.ts';

const backends = await storageBackends();
const COUNT = 2500;

describe.each(backends)('payment lists over thousands of payments on $name', (backend) => {
  let t: TestApp;
  let dispose: () => Promise<void>;
  let m1: string;
  let m2: string;
  const ids: string[] = [];
  const amounts = new Map<string, bigint>();
  const succeeded = new Set<string>();
  let startOfSecondHalf: string;

  beforeAll(async () => {
    const storage = await backend.open();
    dispose = storage.dispose;
    t = await startTestApp(storage);
    m1 = await payableMerchant(t, t.a.key, 'First');
    m2 = await payableMerchant(t, t.a.key, 'Second');
    const deps = { storage, clock: t.clock, assets: createAssetRegistry(TEST_ASSETS) };
    for (let i = 0; i < COUNT; i++) {
      t.clock.advance(7);
      if (i === COUNT / 2) startOfSecondHalf = new Date(t.clock.now()).toISOString();
      const merchantId = i % 3 === 0 ? m2 : m1;
      // Many equal amounts, so sorting by amount must break ties by id to page without gaps.
      const p = newPayment(
        { partnerId: t.a.id, merchantId, amount: { unit: i % 10 === 0 ? 'iso4217/EUR' : 'iso4217/USD', value: String(100 + (i % 17) * 25) }, referenceId: `ref-${i % 50}` },
        t.clock.now(),
        { defaultTtlS: 86_400, maxTtlS: 86_400 * 30 },
      );
      const r = await storage.payments.create(p, { event: { id: newId('event'), type: 'payment.created', snapshot: () => ({}) }, jobs: [] });
      expect(r.ok).toBe(true);
      ids.push(p.id);
      amounts.set(p.id, p.price.value);
      if (i % 7 === 0) {
        const done = await transitionPayment(deps, p, 'succeeded', {
          asset: USDC_BASE,
          tokenValue: p.price.value * 10_000n,
          network: 'eip155:8453',
          txId: `0x${i.toString(16).padStart(64, '0')}`,
          buyerAccount: `eip155:8453:0x${(i % 40).toString(16).padStart(40, '0')}`,
          succeededAt: new Date(t.clock.now()),
        });
        expect(done.ok).toBe(true);
        succeeded.add(p.id);
      }
    }
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await dispose?.();
  });

  async function all(query: string, key = t.a.key, headers: Record<string, string> = {}) {
    const seen: Array<{ paymentId: string; fiatAmount: { value: string } }> = [];
    let cursor: string | null = null;
    const stats = new Set<string>();
    let pages = 0;
    do {
      const r: { status: number; body: any } = await t.call('GET', `/v1/payments?${query}${cursor ? `&cursor=${cursor}` : ''}`, { key, headers });
      expect(r.status).toBe(200);
      seen.push(...r.body.data);
      stats.add(JSON.stringify(r.body.stats));
      cursor = r.body.nextCursor;
      pages++;
    } while (cursor);
    expect(stats.size).toBe(1);
    return { items: seen, pages, stats: JSON.parse([...stats][0]!) };
  }

  it('pages newest first with no duplicates or gaps', async () => {
    const { items, pages } = await all('limit=200');
    expect(pages).toBe(Math.ceil(COUNT / 200));
    expect(items.map((p) => p.paymentId)).toEqual([...ids].reverse());
  });

  it('pages by amount ascending, each currency apart (EUR before USD), ties broken by id, with no duplicates or gaps', async () => {
    const { items } = await all('limit=137&sortBy=amount&sortDir=asc');
    // Minor units of two currencies do not compare: the order groups by currency (issue 30 item 9).
    const currency = (id: string) => (ids.indexOf(id) % 10 === 0 ? 'EUR' : 'USD');
    const expected = [...ids].sort((a, b) =>
      currency(a) !== currency(b) ? (currency(a) < currency(b) ? -1 : 1) : amounts.get(a)! < amounts.get(b)! ? -1 : amounts.get(a)! > amounts.get(b)! ? 1 : a < b ? -1 : 1,
    );
    expect(items.map((p) => p.paymentId)).toEqual(expected);
  });

  it('filters by merchant, status, reference and creation time, and reports stats over all pages', async () => {
    const byMerchant = await all(`limit=200&merchantId=${m2}`);
    expect(byMerchant.items).toHaveLength(ids.filter((_, i) => i % 3 === 0).length);
    const paid = await all('limit=200&status=succeeded');
    expect(new Set(paid.items.map((p) => p.paymentId))).toEqual(succeeded);
    expect(paid.stats.totalTransactions).toBe(succeeded.size);
    expect(paid.stats.totalCustomers).toBe(40);
    const usd = [...succeeded].filter((id) => ids.indexOf(id) % 10 !== 0).reduce((s, id) => s + amounts.get(id)!, 0n);
    expect(paid.stats.totalRevenue).toContainEqual({ currency: 'USD', amount: Number(usd) / 100 });
    const twoStatuses = await all('limit=200&status=succeeded&status=requires_action');
    expect(twoStatuses.items).toHaveLength(COUNT);
    const ref = await all('limit=200&referenceId=ref-7');
    expect(ref.items).toHaveLength(COUNT / 50);
    const later = await all(`limit=200&startTs=${encodeURIComponent(startOfSecondHalf)}`);
    expect(later.items).toHaveLength(COUNT / 2);
  });

  it('lists one merchant through Merchant-Id, and through the deprecated path with a Deprecation header', async () => {
    const r = await t.call('GET', '/v1/merchants/payments?limit=5', { key: t.a.key, headers: { 'Merchant-Id': m2 } });
    expect(r.body.data.every((p: { merchant: { id: string; name: string } }) => p.merchant.id === m2 && p.merchant.name === 'Second')).toBe(true);
    const old = await t.call('GET', `/v1/merchants/${m2}/payments?limit=5`, { headers: { 'X-Api-Key': t.a.key } });
    expect(old.headers.get('deprecation')).toBe('true');
    expect(old.body.data.map((p: { payment_id: string }) => p.payment_id)).toEqual(r.body.data.map((p: { paymentId: string }) => p.paymentId));
    expect((await t.call('GET', '/v1/merchants/payments', { key: t.b.key, headers: { 'Merchant-Id': m2 } })).status).toBe(403);
    expect((await t.call('GET', `/v1/merchants/${m2}/payments`, { key: t.b.key })).body.code).toBe('forbidden');
    expect((await t.call('GET', '/v1/payments?limit=5', { key: t.b.key })).body.data).toEqual([]);
  });

  it('rejects a cursor used with another sort, and bad filters', async () => {
    const first = await t.call('GET', '/v1/payments?limit=5', { key: t.a.key });
    const misuse = await t.call('GET', `/v1/payments?limit=5&sortBy=amount&cursor=${first.body.nextCursor}`, { key: t.a.key });
    expect(misuse.body.code).toBe('params_validation');
    for (const q of ['limit=201', 'status=refunded', 'sortBy=name', 'startTs=yesterday']) {
      expect((await t.call('GET', `/v1/payments?${q}`, { key: t.a.key })).status, q).toBe(400);
    }
  });

  it('accepts cancelled in the status filter only from the preview version on', async () => {
    expect((await t.call('GET', '/v1/payments?status=cancelled', { key: t.a.key })).status).toBe(400);
    expect((await t.call('GET', '/v1/payments?status=cancelled', { key: t.a.key, headers: { 'Svc-Version': '2026-02-19.preview' } })).status).toBe(200);
  });
});
