// Long because: each reference shape (details, list items, filters, versions, the legacy snake_case list) is checked on one seeded app per backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, TEST_ASSETS, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { newPayment } from '../server/domain/payments/create-payment.ts';
import { newId } from '../server/domain/ids.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { transitionPayment } from '../server/domain/payments/transition.ts';
import type { PaymentRecord } from '../server/domain/payments/records.ts';

/**
 * Shapes the reference defines where the interface is silent (issue 16, items 3 and 4): list
 * items with `isTerminal`, the `token_symbol` and `asset` filters, settlement per operation,
 * failure codes per version, the version and SDK headers, and the deprecated per-merchant list
 * with its own legacy contract, called as a client written from the reference would call it.
 */
const backends = await storageBackends();
const [USDC_BASE, USDT_ETH, USDC_SOL] = TEST_ASSETS.map((a) => a.id) as [string, string, string];
const PREVIEW = { 'Svc-Version': '2026-02-19.preview' };

/** The properties the reference's legacy list item declares (MerchantLegacyPaymentsResponse), all of them required or nullable. */
const LEGACY_ITEM_KEYS = [
  'payment_id',
  'merchant_id',
  'reference_id',
  'status',
  'is_terminal',
  'wallet_name',
  'chain_id',
  'buyer_caip10',
  'token_caip19',
  'tx_hash',
  'nonce',
  'token_amount',
  'fiat_amount',
  'fiat_currency',
  'created_at',
  'last_updated_at',
  'settled_at',
  'settlement_status',
  'settlement_tx_hash',
  'token_symbol',
  'token_decimals',
  'token_logo',
  'chain_logo',
  'wallet_logo',
].sort();

describe.each(backends)('reference shapes of payments on $name', (backend) => {
  let t: TestApp;
  let dispose: () => Promise<void>;
  let merchant: string;
  let other: string;
  /** Seeded payments of `merchant`, oldest first, with what each became. */
  const seeded: Array<{ id: string; kind: 'usdc-base' | 'usdt' | 'usdc-sol' | 'unpaid' | 'cancelled' | 'transfer_failed' | 'declined_user' }> = [];
  const idsOf = (...kinds: Array<(typeof seeded)[number]['kind']>) => seeded.filter((s) => kinds.includes(s.kind)).map((s) => s.id);

  beforeAll(async () => {
    const storage = await backend.open();
    dispose = storage.dispose;
    t = await startTestApp(storage);
    merchant = await payableMerchant(t, t.a.key, 'Shapes');
    other = await payableMerchant(t, t.a.key, 'Other');
    const deps = { storage, clock: t.clock, assets: createAssetRegistry(TEST_ASSETS) };
    const kinds = ['usdc-base', 'usdt', 'usdc-sol', 'unpaid', 'cancelled', 'transfer_failed', 'declined_user'] as const;
    for (let i = 0; i < 42; i++) {
      t.clock.advance(11);
      const kind = kinds[i % kinds.length]!;
      const forOther = i % 6 === 5;
      const p = newPayment(
        { partnerId: t.a.id, merchantId: forOther ? other : merchant, amount: { unit: 'iso4217/USD', value: String(100 + i) }, referenceId: `shape-${i}` },
        t.clock.now(),
        { defaultTtlS: 86_400, maxTtlS: 86_400 },
      );
      expect((await storage.payments.create(p, { event: { id: newId('event'), type: 'payment.created', snapshot: () => ({}) }, jobs: [] })).ok).toBe(true);
      if (!forOther) seeded.push({ id: p.id, kind });
      const buyer = `eip155:8453:0x${i.toString(16).padStart(40, '0')}`;
      const paid = (asset: string, network: string) =>
        transitionPayment(deps, p, 'succeeded', {
          optionId: `opt_${i}`,
          buyerAccount: buyer,
          buyerProviderName: 'Acme Wallet',
          buyerProviderIcon: 'https://wallet.example/icon.png',
          asset,
          tokenValue: p.price.value * 10_000n,
          network,
          txId: `0x${i.toString(16).padStart(64, '0')}`,
          succeededAt: new Date(t.clock.now()),
        });
      let moved: { ok: boolean } = { ok: true };
      if (kind === 'usdc-base') moved = await paid(USDC_BASE, 'eip155:8453');
      if (kind === 'usdt') moved = await paid(USDT_ETH, 'eip155:1');
      if (kind === 'usdc-sol') moved = await paid(USDC_SOL, 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp');
      if (kind === 'cancelled') moved = await transitionPayment(deps, p, 'cancelled', { cancelledReason: 'cancelled_by_merchant', cancelledAt: new Date(t.clock.now()) });
      if (kind === 'transfer_failed' || kind === 'declined_user') moved = await transitionPayment(deps, p, 'failed', { failureCode: kind });
      expect(moved.ok).toBe(true);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await dispose?.();
  });

  /** Every page of a list, following `cursorField`; checks no id comes twice. */
  async function pages(path: string, opts: { key?: string; headers?: Record<string, string>; cursorField?: string; idField?: string } = {}) {
    const cursorField = opts.cursorField ?? 'nextCursor';
    const idField = opts.idField ?? 'paymentId';
    const items: any[] = [];
    let cursor: string | null = null;
    let count = 0;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const r: { status: number; body: any } = await t.call('GET', `${path}${cursor ? `${sep}cursor=${cursor}` : ''}`, {
        key: opts.key ?? t.a.key,
        ...(opts.headers ? { headers: opts.headers } : {}),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      items.push(...r.body.data);
      cursor = r.body[cursorField];
      count++;
    } while (cursor && count < 100);
    expect(new Set(items.map((x) => x[idField])).size).toBe(items.length);
    return items;
  }
  const newestFirst = (ids: string[]) => [...ids].reverse();
  const merchantList = (query: string, headers: Record<string, string> = {}) => pages(`/v1/merchants/payments?${query}`, { headers: { 'Merchant-Id': merchant, ...headers } });

  it('list items carry isTerminal and list settlement; details carry settlement as the settling transfer, or null', async () => {
    const items = await merchantList('limit=10');
    expect(items).toHaveLength(seeded.length);
    for (const item of items) {
      expect(item.isTerminal).toBe(item.isFinal);
      expect(item.isTerminal).toBe(item.status !== 'requires_action');
    }
    const paid = items.find((x) => x.paymentId === idsOf('usdt')[0])!;
    expect(paid.settlement).toEqual({ settled: true, txHash: paid.transaction.hash, amount: paid.tokenAmount });
    expect(paid.settledAt).toBeDefined();
    // networkId as the reference describes it (the chain's id in its namespace), the CAIP-2 id beside it.
    expect(paid.transaction).toEqual({ networkId: '1', network: 'eip155:1', hash: expect.stringMatching(/^0x/) });
    expect(items.find((x) => x.paymentId === idsOf('unpaid')[0])!.settlement).toEqual({ settled: false });
    const details = await t.call('GET', `/v1/payments/${paid.paymentId}`, { key: t.a.key, headers: { 'Merchant-Id': merchant } });
    expect(details.body.settlement).toEqual({ successful: { txId: paid.transaction.hash, amount: paid.tokenAmount } });
    expect(details.body.buyer).toEqual({ accountCaip10: paid.buyer.accountCaip10, accountProviderName: 'Acme Wallet', accountProviderIcon: 'https://wallet.example/icon.png' });
    expect(paid.buyer).toEqual(details.body.buyer);
    for (const kind of ['unpaid', 'cancelled', 'transfer_failed'] as const) {
      const d = await t.call('GET', `/v1/payments/${idsOf(kind)[0]}`, { key: t.a.key, headers: { 'Merchant-Id': merchant } });
      expect(d.body.settlement, kind).toBeNull();
    }
  });

  it('token_symbol and asset filter in the query, and paging under them has no gaps or duplicates', async () => {
    const usdc = newestFirst(idsOf('usdc-base', 'usdc-sol'));
    expect((await merchantList('limit=2&token_symbol=USDC')).map((x) => x.paymentId)).toEqual(usdc);
    expect((await merchantList('limit=3&token_symbol=usdc')).map((x) => x.paymentId)).toEqual(usdc);
    expect((await merchantList('limit=4&token_symbol=USDC&token_symbol=USDT')).map((x) => x.paymentId)).toEqual(newestFirst(idsOf('usdc-base', 'usdt', 'usdc-sol')));
    expect((await merchantList(`limit=2&asset=${encodeURIComponent(USDC_SOL)}`)).map((x) => x.paymentId)).toEqual(newestFirst(idsOf('usdc-sol')));
    expect((await merchantList('limit=2&asset=USDT')).map((x) => x.paymentId)).toEqual(newestFirst(idsOf('usdt')));
    // Both: a payment must match both.
    expect((await merchantList(`limit=2&token_symbol=USDC&asset=${encodeURIComponent(USDC_BASE)}`)).map((x) => x.paymentId)).toEqual(newestFirst(idsOf('usdc-base')));
    expect(await merchantList(`token_symbol=USDC&asset=${encodeURIComponent(USDT_ETH)}`)).toEqual([]);
    // referenceId finds a part of the reference, in any letter case (the seeded ones are shape-<i>).
    // (shape-41 matches too, but belongs to the other merchant.)
    expect((await merchantList('referenceId=APE-4')).map((x) => x.referenceId).sort()).toEqual(['shape-4', 'shape-40']);
    expect((await t.call('GET', '/v1/payments?referenceId=APE-4', { key: t.a.key })).body.data.map((x: any) => x.referenceId).sort()).toEqual(['shape-4', 'shape-40', 'shape-41']);
    expect(await merchantList('referenceId=shape_4')).toEqual([]);
    // network takes one CAIP-2 id or several, comma-separated.
    expect((await merchantList(`limit=2&network=${encodeURIComponent('eip155:1,solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')}`)).map((x) => x.paymentId)).toEqual(
      newestFirst(idsOf('usdt', 'usdc-sol')),
    );
    expect((await merchantList(`network=${encodeURIComponent('eip155:8453')}&token_symbol=USDC`)).map((x) => x.paymentId)).toEqual(newestFirst(idsOf('usdc-base')));
    // Amount order under a filter pages through the same set.
    const byAmount = await merchantList('limit=2&sortBy=amount&sortDir=asc&token_symbol=USDC');
    expect(byAmount.map((x) => x.paymentId).sort()).toEqual([...usdc].sort());
    expect(byAmount.map((x) => BigInt(x.fiatAmount.value))).toEqual(byAmount.map((x) => BigInt(x.fiatAmount.value)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    // The partner-wide list takes the same filters; stats count what matches.
    const wide = await t.call('GET', '/v1/payments?token_symbol=USDT&limit=200', { key: t.a.key });
    expect(wide.body.data.every((x: any) => x.tokenAmount.unit === `caip19/${USDT_ETH}`)).toBe(true);
    expect(wide.body.stats.totalTransactions).toBe(wide.body.data.length);
    const none = await t.call('GET', '/v1/payments?token_symbol=DAI', { key: t.a.key });
    expect(none.body).toEqual({ data: [], nextCursor: null, stats: { totalRevenue: [], totalTransactions: 0, totalCustomers: 0 } });
  });

  it('answers 400 in the error shape for filter values the reference does not define', async () => {
    const bad: Array<[string, string]> = [
      [`token_symbol=${encodeURIComponent(USDC_BASE)}`, 'query.token_symbol'],
      ['token_symbol=', 'query.token_symbol[0]'],
      ['asset=eip155%3A1%2Fnot-an-asset', 'query.asset'],
    ];
    for (const path of ['/v1/payments', '/v1/merchants/payments']) {
      for (const [q, field] of bad) {
        const r = await t.call('GET', `${path}?${q}`, { key: t.a.key, headers: { 'Merchant-Id': merchant } });
        expect(r.status, `${path}?${q}`).toBe(400);
        expect(r.body).toMatchObject({ code: 'params_validation', message: expect.any(String) });
        expect(
          r.body.issues.map((i: { field: string }) => i.field),
          `${path}?${q}`,
        ).toContain(field);
      }
      // What the reference accepts, we accept: an empty or very long name is no asset's, so it matches nothing.
      for (const q of ['asset=', `token_symbol=${'X'.repeat(300)}`, `asset=${'Y'.repeat(300)}`]) {
        const r = await t.call('GET', `${path}?${q}`, { key: t.a.key, headers: { 'Merchant-Id': merchant } });
        expect(r.status, `${path}?${q}`).toBe(200);
        expect(r.body.data).toEqual([]);
      }
    }
  });

  it('failureCode carries only codes the version declares; internal ones are left out', async () => {
    const [internal] = idsOf('transfer_failed');
    const [declined] = idsOf('declined_user');
    for (const headers of [{}, PREVIEW]) {
      const h = { 'Merchant-Id': merchant, ...headers };
      const status = await t.call('GET', `/v1/payments/${internal}/status`, { key: t.a.key, headers: h });
      expect(status.body).toEqual({ status: 'failed', isFinal: true, pollInMs: null });
      expect((await t.call('GET', `/v1/payments/${internal}`, { key: t.a.key, headers: h })).body).not.toHaveProperty('failureCode');
      expect((await t.call('GET', `/v1/gateway/payment/${internal}/status`, { key: t.a.walletKey, headers })).body).toEqual({ status: 'failed', isFinal: true, pollInMs: null });
      expect((await t.call('GET', `/v1/payments/${declined}/status`, { key: t.a.key, headers: h })).body.failureCode).toBe('declined_user');
      const listed = await merchantList('limit=200&status=failed', headers);
      const expected = newestFirst(idsOf('transfer_failed', 'declined_user')).map((id) => [id, idsOf('transfer_failed').includes(id) ? null : 'declined_user']);
      expect(listed.map((x) => [x.paymentId, x.failureCode ?? null])).toEqual(expected);
    }
  });

  it('lists a cancelled payment as expired before the preview (the 2026-02-18 lists do not know cancelled) and as cancelled from it', async () => {
    const cancelled = idsOf('cancelled');
    const old = await merchantList('limit=200&status=expired');
    expect(old.map((x) => x.paymentId)).toEqual(newestFirst(cancelled));
    expect(old.every((x) => x.status === 'expired' && x.cancelledReason === 'cancelled_by_merchant')).toBe(true);
    const preview = await merchantList('limit=200&status=cancelled', PREVIEW);
    expect(preview.map((x) => [x.paymentId, x.status])).toEqual(newestFirst(cancelled).map((id) => [id, 'cancelled']));
    expect(await merchantList('limit=200&status=expired', PREVIEW)).toEqual([]);
    // The details speak the full status vocabulary in every version.
    expect((await t.call('GET', `/v1/payments/${cancelled[0]}`, { key: t.a.key, headers: { 'Merchant-Id': merchant } })).body.status).toBe('cancelled');
  });

  it('echoes the version in WCP-Version and Svc-Version, and takes WCP-Version as the pin', async () => {
    const plain = await t.call('GET', '/v1/payments?limit=1', { key: t.a.key });
    expect([plain.headers.get('svc-version'), plain.headers.get('wcp-version')]).toEqual(['2026-02-18', '2026-02-18']);
    const pinned = await t.call('GET', '/v1/payments?limit=1', { key: t.a.key, headers: { 'WCP-Version': '2026-02-19.preview' } });
    expect([pinned.headers.get('svc-version'), pinned.headers.get('wcp-version')]).toEqual(['2026-02-19.preview', '2026-02-19.preview']);
    const gw = await t.call('GET', `/v1/gateway/payment/${idsOf('unpaid')[0]}`, { key: t.a.walletKey, headers: { 'WCP-Version': '2026-02-19.preview' } });
    expect(gw.headers.get('wcp-version')).toBe('2026-02-19.preview');
  });

  it('accepts the SDK headers, and an Idempotency-Key on reads without storing it', async () => {
    const sdk = { 'Sdk-Name': 'pay-sdk-js', 'Sdk-Version': '1.2.3', 'Sdk-Platform': 'react-native' };
    const h = { 'Merchant-Id': merchant, ...sdk, 'Idempotency-Key': 'same-key-for-reads' };
    const [a, b] = idsOf('unpaid');
    const details = await t.call('GET', `/v1/payments/${a}`, { key: t.a.key, headers: h });
    const status = await t.call('GET', `/v1/payments/${b}/status`, { key: t.a.key, headers: h });
    const again = await t.call('GET', `/v1/payments/${b}`, { key: t.a.key, headers: h });
    for (const r of [details, status, again]) {
      expect(r.status).toBe(200);
      expect(r.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(again.body.paymentId).toBe(b);
    expect((await t.call('GET', `/v1/gateway/payment/${a}`, { key: t.a.walletKey, headers: sdk })).status).toBe(200);
    // Had a read claimed the key, a write with it would now be a conflict. (Payments of the
    // other merchant, so the seeded merchant's lists stay as seeded.)
    const created = await createPayment(t, t.a.key, other, {}, { ...sdk, 'Idempotency-Key': 'same-key-for-reads' });
    expect(created.status).toBe(201);
    // A retry from an upgraded SDK is still the same request.
    const retried = await createPayment(t, t.a.key, other, { referenceId: 'sdk-retry' }, { ...sdk, 'Idempotency-Key': 'sdk-retry-key' });
    const upgraded = await createPayment(t, t.a.key, other, { referenceId: 'sdk-retry' }, { ...sdk, 'Sdk-Version': '1.2.4', 'Idempotency-Key': 'sdk-retry-key' });
    expect(upgraded.headers.get('idempotent-replayed')).toBe('true');
    expect(upgraded.body.paymentId).toBe(retried.body.paymentId);
    // Cancel is a write: with a key, a retry replays the first answer instead of a 400.
    const cancel = () => t.call('POST', `/v1/payments/${retried.body.paymentId}/cancel`, { key: t.a.key, headers: { 'Merchant-Id': other, 'Idempotency-Key': 'cancel-once' } });
    const first = await cancel();
    const second = await cancel();
    expect(first).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  describe('the deprecated GET /v1/merchants/{merchant_id}/payments, as a client written from the reference calls it', () => {
    const legacy = (query: string, headers: Record<string, string> = { 'X-Api-Key': t.a.key }) => t.call('GET', `/v1/merchants/${merchant}/payments${query}`, { headers });

    it('takes the key in X-Api-Key and answers the legacy snake_case body with its amount formats', async () => {
      const r = await legacy('?limit=200');
      expect(r.status).toBe(200);
      expect(r.headers.get('deprecation')).toBe('true');
      expect(Object.keys(r.body).sort()).toEqual(['data', 'next_cursor', 'stats']);
      expect(r.body.next_cursor).toBeNull();
      expect(r.body.data.map((x: any) => x.payment_id)).toEqual(newestFirst(seeded.map((s) => s.id)));
      for (const item of r.body.data) expect(Object.keys(item).sort()).toEqual(LEGACY_ITEM_KEYS);
      const paid = r.body.data.find((x: any) => x.payment_id === idsOf('usdc-sol')[0]);
      const record = (await t.storage.payments.get(paid.payment_id)) as PaymentRecord;
      expect(paid).toEqual({
        payment_id: record.id,
        merchant_id: merchant,
        reference_id: record.referenceId,
        status: 'succeeded',
        is_terminal: true,
        wallet_name: 'Acme Wallet',
        chain_id: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
        buyer_caip10: record.buyerAccount,
        token_caip19: USDC_SOL,
        tx_hash: record.txId,
        nonce: null,
        // Base units beside their decimals; fiat as integer minor units.
        token_amount: (record.price.value * 10_000n).toString(),
        fiat_amount: Number(record.price.value),
        fiat_currency: 'USD',
        created_at: record.createdAt.toISOString(),
        last_updated_at: record.updatedAt.toISOString(),
        settled_at: record.succeededAt!.toISOString(),
        settlement_status: 'settled',
        settlement_tx_hash: record.txId,
        token_symbol: 'USDC',
        token_decimals: 6,
        token_logo: null,
        chain_logo: null,
        wallet_logo: 'https://wallet.example/icon.png',
      });
      const unpaid = r.body.data.find((x: any) => x.payment_id === idsOf('unpaid')[0]);
      expect(unpaid).toMatchObject({
        status: 'requires_action',
        is_terminal: false,
        wallet_name: '',
        chain_id: null,
        token_caip19: null,
        token_amount: null,
        settlement_status: null,
        token_symbol: null,
      });
      expect(r.body.data.find((x: any) => x.payment_id === idsOf('cancelled')[0]).status).toBe('expired');
      const paidIds = idsOf('usdc-base', 'usdt', 'usdc-sol');
      const revenue = (await Promise.all(paidIds.map((id) => t.storage.payments.get(id)))).reduce((s, p) => s + p!.price.value, 0n);
      expect(r.body.stats).toEqual({ total_customers: paidIds.length, total_revenue: { amount: Number(revenue) / 100, currency: 'USD' }, total_transactions: paidIds.length });
      // Api-Key is accepted too, as the reference's scheme says.
      expect((await legacy('?limit=200', { 'Api-Key': t.a.key })).body).toEqual(r.body);
    });

    it('pages with next_cursor under snake_case filters and sorting', async () => {
      const all: any[] = [];
      let cursor: string | null = null;
      do {
        const r: { status: number; body: any } = await legacy(`?limit=3&sort_by=amount&sort_dir=asc&status=succeeded&status=expired${cursor ? `&cursor=${cursor}` : ''}`);
        expect(r.status).toBe(200);
        expect(r.body.data.length).toBeLessThanOrEqual(3);
        all.push(...r.body.data);
        cursor = r.body.next_cursor;
      } while (cursor);
      expect(all.map((x) => x.payment_id).sort()).toEqual(idsOf('usdc-base', 'usdt', 'usdc-sol', 'cancelled').sort());
      expect(all.map((x) => x.fiat_amount)).toEqual(all.map((x) => x.fiat_amount).sort((a, b) => a - b));
      const single = await legacy('?status=succeeded&asset=USDC&limit=200');
      expect(single.body.data.map((x: any) => x.payment_id)).toEqual(newestFirst(idsOf('usdc-base', 'usdc-sol')));
      const byChain = await legacy(`?network=${encodeURIComponent('eip155:1')}&asset=${encodeURIComponent(USDT_ETH)}`);
      expect(byChain.body.data.map((x: any) => [x.payment_id, x.chain_id])).toEqual(newestFirst(idsOf('usdt')).map((id) => [id, '1']));
      const cut = (await t.storage.payments.get(seeded[20]!.id))!.createdAt.toISOString();
      const later = await legacy(`?start_ts=${encodeURIComponent(cut)}&limit=200`);
      expect(later.body.data.map((x: any) => x.payment_id)).toEqual(newestFirst(seeded.slice(20).map((s) => s.id)));
      const earlier = await legacy(`?end_ts=${encodeURIComponent(cut)}&limit=200`);
      expect(earlier.body.data.map((x: any) => x.payment_id)).toEqual(newestFirst(seeded.slice(0, 20).map((s) => s.id)));
    });

    it('refuses what its contract does not define, and never shows another partner’s merchant', async () => {
      for (const q of ['?start_ts=yesterday', '?startTs=2026-01-01T00:00:00Z', '?sort_by=name', '?limit=0', '?status=cancelled', '?asset=eip155%3A1%2Fbad']) {
        const r = await legacy(q);
        expect(r.status, q).toBe(400);
        expect(r.body).toMatchObject({ code: 'params_validation', message: expect.any(String), issues: expect.any(Array) });
      }
      expect(await legacy('?limit=1', {})).toMatchObject({ status: 401, body: { code: 'missing_api_key' } });
      expect(await legacy('?limit=1', { 'X-Api-Key': 'sk_test_notakey' })).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
      expect(await legacy('?limit=1', { 'X-Api-Key': t.a.walletKey })).toMatchObject({ status: 403, body: { code: 'forbidden' } });
      // Another partner asking for this merchant learns nothing: 403, the same answer as for an
      // unknown id (as on GET /v1/merchants/payments).
      const foreign = await legacy('?limit=1', { 'X-Api-Key': t.b.key });
      expect(foreign).toMatchObject({ status: 403, body: { code: 'forbidden' } });
      expect((await t.call('GET', '/v1/merchants/mrch_01ZZZZZZZZZZZZZZZZZZZZZZZZ/payments', { headers: { 'X-Api-Key': t.b.key } })).body).toEqual(foreign.body);
    });
  });
});
