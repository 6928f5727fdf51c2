import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { payableMerchant, USDC_BASE } from './helpers/payments.ts';

/**
 * Issue 30 item 9: every cursor a payment list issues is accepted back, whatever the sort and
 * amounts; the amount sort keeps fiat-priced and token-priced payments apart.
 */
const [backend] = await storageBackends();
const cursorOf = (position: unknown) => Buffer.from(JSON.stringify(position)).toString('base64url');

describe('payment list cursors', () => {
  let t: TestApp;
  let store: Awaited<ReturnType<NonNullable<typeof backend>['open']>>;
  const ids: string[] = [];
  beforeAll(async () => {
    store = await backend!.open();
    t = await startTestApp(store);
    const merchantId = await payableMerchant(t, t.a.key);
    // Fiat prices and token prices, one of 60 digits in base units (a uint256 token amount).
    for (const amount of [
      { unit: 'iso4217/USD', value: '500' },
      { unit: `caip19/${USDC_BASE}`, value: '1' + '0'.repeat(59) },
      { unit: `caip19/${USDC_BASE}`, value: '7' },
      { unit: 'iso4217/USD', value: '999999999999999999' },
    ]) {
      const r = await t.call('POST', '/v1/payments', { key: t.a.key, headers: { 'Merchant-Id': merchantId }, body: { amount, referenceId: `cur-${Math.random()}` } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.paymentId);
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await store?.dispose();
  });

  it.each(['', '&sortDir=asc', '&sortBy=amount', '&sortBy=amount&sortDir=asc'])('pages one by one with%s: every cursor accepted, every payment once', async (sort) => {
    // Before: a page ending at the 60-digit token price issued a cursor the next request refused (400).
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await t.call('GET', `/v1/payments?limit=1${sort}${cursor ? `&cursor=${cursor}` : ''}`, { key: t.a.key });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      seen.push(...r.body.data.map((p: { paymentId: string }) => p.paymentId));
      cursor = r.body.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it.each(['asc', 'desc'])('sorts fiat-priced and token-priced payments apart by amount (%s), on every page alike', async (dir) => {
    // Before: one order over raw values, the 7-base-unit token price between nothing and 500 US cents.
    const [usd500, token60, token7, usdBig] = ids;
    const asc = [usd500, usdBig, token7, token60];
    const want = dir === 'asc' ? asc : [...asc].reverse();
    const whole = await t.call('GET', `/v1/payments?sortBy=amount&sortDir=${dir}&limit=200`, { key: t.a.key });
    expect(whole.body.data.map((p: { paymentId: string }) => p.paymentId)).toEqual(want);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await t.call('GET', `/v1/payments?sortBy=amount&sortDir=${dir}&limit=1${cursor ? `&cursor=${cursor}` : ''}`, { key: t.a.key });
      paged.push(...r.body.data.map((p: { paymentId: string }) => p.paymentId));
      cursor = r.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(want);
  });

  it('refuses an amount cursor without its unit, or with a unit no price has', async () => {
    const stats = { totalRevenue: [], totalTransactions: 0, totalCustomers: 0 };
    for (const u of [undefined, 'iso4217/usd', 'caip19/not an asset', 'fiat:USD']) {
      const cursor = cursorOf({ id: 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ', v: '5', ...(u ? { u } : {}), sort: 'amount:desc', stats });
      const r = await t.call('GET', `/v1/payments?sortBy=amount&cursor=${cursor}`, { key: t.a.key });
      expect([u, r.status]).toEqual([u, 400]);
    }
  });

  it('refuses an over-long cursor value with 400 on query.cursor', async () => {
    const stats = { totalRevenue: [], totalTransactions: 0, totalCustomers: 0 };
    const r = await t.call(
      'GET',
      `/v1/payments?sortBy=amount&cursor=${cursorOf({ id: 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ', u: 'iso4217/USD', v: '9'.repeat(79), sort: 'amount:desc', stats })}`,
      {
        key: t.a.key,
      },
    );
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('query.cursor');
    const huge = await t.call('GET', `/v1/payments?cursor=${'A'.repeat(20_000)}`, { key: t.a.key });
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
  });
});
