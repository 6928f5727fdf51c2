import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import type { StoragePort } from '../../../server/ports/storage/index.ts';
import { newId } from '../../../server/domain/ids.ts';
import { newPayment } from '../../../server/domain/payments/create-payment.ts';
import { createAssetRegistry } from '../../../server/domain/assets.ts';

/** Tokens the conformance payments may be priced in (prices of up to 78 digits are base units). */
const TOKEN_A = 'eip155:1/erc20:0xa';
const TOKEN_B = 'eip155:1/erc20:0xb';
const assets = createAssetRegistry([TOKEN_A, TOKEN_B].map((id) => ({ id, symbol: 'T', name: 'Token', decimals: 18, flows: ['transfer' as const], networkName: 'Ethereum' })));

/**
 * The behaviour every storage adapter must have, whatever its engine. Each adapter's test file
 * calls this with a factory for a fresh, empty store.
 */
export function runStorageConformance(name: string, open: () => Promise<StoragePort & { dispose(): Promise<void> }>): void {
  describe(`storage conformance: ${name}`, () => {
    let s: StoragePort & { dispose(): Promise<void> };
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.dispose();
    });

    const t0 = new Date('2026-11-22T10:00:00.000Z');
    async function partner() {
      const p = { id: newId('partner'), name: 'P', defaultVersion: '2026-02-18', createdAt: t0 };
      await s.partners.create(p);
      return p;
    }
    // Ids of one millisecond sort at random among themselves; each merchant gets its own
    // millisecond so "newest first" is defined.
    let made = 0;
    function merchant(partnerId: string, name = 'M') {
      return { id: newId('merchant', t0.getTime() + ++made), partnerId, name, email: 'm@x.co', iconUrl: null, status: 'active' as const, createdAt: t0, deletedAt: null };
    }

    it('round-trips partners and finds active keys by hash only', async () => {
      const p = await partner();
      expect(await s.partners.get(p.id)).toEqual(p);
      const key = { id: newId('apiKey'), partnerId: p.id, scope: 'partner' as const, keyHash: 'a'.repeat(64), hint: 'abcd', createdAt: t0, revokedAt: null };
      await s.apiKeys.create(key);
      expect(await s.apiKeys.findActiveByHash(key.keyHash)).toEqual({ key, partner: p });
      expect(await s.apiKeys.revoke(key.id, t0)).toBe(true);
      expect(await s.apiKeys.revoke(key.id, t0)).toBe(false);
      expect(await s.apiKeys.findActiveByHash(key.keyHash)).toBeNull();
      expect((await s.apiKeys.listByPartner(p.id))[0]?.revokedAt).toEqual(t0);
    });

    it('scopes merchants to their partner in every read and write', async () => {
      const [a, b] = [await partner(), await partner()];
      const m = merchant(a.id);
      await s.merchants.create(m);
      expect(await s.merchants.get(a.id, m.id)).toEqual(m);
      expect(await s.merchants.get(b.id, m.id)).toBeNull();
      expect(await s.merchants.update(b.id, m.id, { name: 'X' })).toBeNull();
      expect(await s.merchants.softDelete(b.id, m.id, t0)).toBeNull();
      expect((await s.merchants.list(b.id, { limit: 10 })).totalCount).toBe(0);
      expect((await s.merchants.get(a.id, m.id))?.name).toBe('M');
    });

    it('updates only the fields given, and null clears the logo', async () => {
      const p = await partner();
      const m = { ...merchant(p.id), iconUrl: 'https://x/y.png' };
      await s.merchants.create(m);
      expect(await s.merchants.update(p.id, m.id, { email: 'n@x.co' })).toMatchObject({ name: 'M', email: 'n@x.co', iconUrl: 'https://x/y.png' });
      expect(await s.merchants.update(p.id, m.id, { iconUrl: null })).toMatchObject({ iconUrl: null, email: 'n@x.co' });
    });

    it('soft-deletes repeatably, keeping the first deletion time', async () => {
      const p = await partner();
      const m = merchant(p.id);
      await s.merchants.create(m);
      const later = new Date(t0.getTime() + 1000);
      expect(await s.merchants.softDelete(p.id, m.id, t0)).toMatchObject({ status: 'inactive', deletedAt: t0 });
      expect(await s.merchants.softDelete(p.id, m.id, later)).toMatchObject({ deletedAt: t0 });
      expect(await s.merchants.get(p.id, m.id)).toBeNull();
      expect(await s.merchants.get(p.id, m.id, { includeDeleted: true })).not.toBeNull();
    });

    it('lists newest first by keyset with a total count', async () => {
      const p = await partner();
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const m = merchant(p.id, `Shop ${i}`);
        await s.merchants.create(m);
        ids.push(m.id);
      }
      const first = await s.merchants.list(p.id, { limit: 3 });
      expect(first.items.map((m) => m.id)).toEqual(ids.slice(-3).reverse());
      expect(first.totalCount).toBe(7);
      const next = await s.merchants.list(p.id, { limit: 10, beforeId: first.items[2]!.id });
      expect(next.items.map((m) => m.id)).toEqual(ids.slice(0, 4).reverse());
      expect((await s.merchants.list(p.id, { limit: 10, search: 'shop 3' })).items).toHaveLength(1);
    });

    it('creates settlements all or nothing, one per (merchant, asset)', async () => {
      const p = await partner();
      const m = merchant(p.id);
      await s.merchants.create(m);
      const entry = (asset: string) => ({ id: newId('cryptoSettlement'), partnerId: p.id, merchantId: m.id, asset, destination: 'eip155:1:0x1', createdAt: t0 });
      expect(await s.settlements.createMany(p.id, m.id, [entry('a:1/b:1')])).toEqual({ ok: true });
      expect(await s.settlements.createMany(p.id, m.id, [entry('a:1/b:2'), entry('a:1/b:1')])).toEqual({ ok: false, reason: 'asset_conflict', asset: 'a:1/b:1' });
      expect((await s.settlements.listByMerchant(p.id, m.id)).map((x) => x.asset)).toEqual(['a:1/b:1']);
      const other = await partner();
      expect(await s.settlements.createMany(other.id, m.id, [entry('a:1/b:3')])).toEqual({ ok: false, reason: 'merchant_not_found' });
    });

    it('reads a payment with its merchant and settlements for the gateway, exact to the base unit', async () => {
      const p = await partner();
      const m = { ...merchant(p.id, 'Gateway shop'), iconUrl: 'https://shop.example/logo.png' };
      await s.merchants.create(m);
      const entry = (asset: string) => ({ id: newId('cryptoSettlement'), partnerId: p.id, merchantId: m.id, asset, destination: 'eip155:1:0x1', createdAt: t0 });
      const settlements = [entry('eip155:1/erc20:0xa'), entry('eip155:1/erc20:0xb')];
      expect(await s.settlements.createMany(p.id, m.id, settlements)).toEqual({ ok: true });
      const pay = newPayment({ partnerId: p.id, merchantId: m.id, amount: { unit: `caip19/${TOKEN_A}`, value: '123456789012345678901234567890' }, referenceId: 'r', expiresAt: null }, t0.getTime(), { defaultTtlS: 300, maxTtlS: 3600 }, { assets });
      const created = await s.payments.create(pay, { event: { id: newId('event'), paymentId: pay.id, partnerId: p.id, type: 'payment.created', stateVersion: 1, createdAt: t0, data: {} }, jobs: [] });
      expect(created).toEqual({ ok: true });
      const found = await s.payments.getForGateway(pay.id);
      expect(found?.payment).toEqual(pay);
      expect(found?.payment.price).toEqual({ kind: 'token', asset: TOKEN_A, value: 123456789012345678901234567890n });
      expect(found?.merchant).toEqual(m);
      // In id order (one millisecond's ids sort at random, so sort the expectation the same way).
      expect(found?.settlements).toEqual([...settlements].sort((x, y) => (x.id < y.id ? -1 : 1)));
      // A deleted merchant still names the payment's seller.
      await s.merchants.softDelete(p.id, m.id, t0);
      expect((await s.payments.getForGateway(pay.id))?.merchant?.deletedAt).toEqual(t0);
      expect(await s.payments.getForGateway('pay_missing')).toBeNull();
    });

    // Many creates at once share statements on a server (group commit); each must still be
    // judged on its own merchant, and one failing payment must not take the others with it.
    it('creates payments arriving together each on its own merits, with its own event and answer', async () => {
      const p = await partner();
      const other = await partner();
      const settle = async (partnerId: string, merchantId: string) =>
        s.settlements.createMany(partnerId, merchantId, [{ id: newId('cryptoSettlement'), partnerId, merchantId, asset: 'eip155:1/erc20:0xa', destination: 'eip155:1:0x1', createdAt: t0 }]);
      const [live, deleted, unsettled, foreign] = [merchant(p.id, 'Live'), merchant(p.id), merchant(p.id), merchant(other.id)];
      for (const m of [live, deleted, unsettled, foreign]) await s.merchants.create(m);
      await settle(p.id, live.id);
      await settle(p.id, deleted.id);
      await settle(other.id, foreign.id);
      await s.merchants.softDelete(p.id, deleted.id, t0);
      const pay = (merchantId: string, i: number) =>
        newPayment({ partnerId: p.id, merchantId, amount: { unit: `caip19/${TOKEN_A}`, value: `${i}000000000000000000000000001` }, referenceId: `r${i}`, expiresAt: null }, t0.getTime(), { defaultTtlS: 300, maxTtlS: 3600 }, { assets });
      const create = (pm: ReturnType<typeof pay>, key?: string) =>
        s.payments.create(pm, {
          event: { id: newId('event'), paymentId: pm.id, partnerId: p.id, type: 'payment.requires_action', stateVersion: 1, createdAt: t0, data: { ref: pm.referenceId } },
          jobs: [{ id: newId('job'), type: 'payment.expire', payload: { paymentId: pm.id }, runAt: pm.expiresAt }],
          ...(key ? { idempotency: { partnerId: p.id, key, statusCode: 201, body: { paymentId: pm.id } } } : {}),
        });
      const already = pay(live.id, 0);
      expect(await create(already)).toEqual({ ok: true });
      const cases = Array.from({ length: 40 }, (_, i) => {
        const target = [live, deleted, unsettled, foreign][i % 4]!;
        return { payment: pay(target.id, i + 1), expect: i % 4 === 0 ? { ok: true } : { ok: false, reason: ['', 'merchant_deleted', 'merchant_not_payable', 'merchant_not_found'][i % 4] } };
      });
      for (const i of cases.keys()) await s.idempotency.claim(p.id, `together-${i}`, 'h', t0, 60_000);
      // The same id again fails its whole shared statement; only that caller may see the error.
      const results = await Promise.allSettled([...cases.map((c, i) => create(c.payment, `together-${i}`)), create(already)]);
      expect(results.at(-1)!.status).toBe('rejected');
      expect(results.slice(0, -1).map((r) => (r.status === 'fulfilled' ? r.value : r.reason))).toEqual(cases.map((c) => c.expect));
      for (const [i, c] of cases.entries()) {
        const made = c.expect.ok;
        expect(await s.payments.getForPartner(p.id, c.payment.id)).toEqual(made ? c.payment : null);
        expect((await s.payments.events(c.payment.id)).map((e) => [e.type, (e.data as { ref: string; merchant: { name: string } }).merchant.name, (e.data as { ref: string }).ref])).toEqual(
          made ? [['payment.requires_action', 'Live', c.payment.referenceId]] : [],
        );
        expect(await s.idempotency.claim(p.id, `together-${i}`, 'h', t0, 60_000)).toEqual(made ? { kind: 'replay', statusCode: 201, body: { paymentId: c.payment.id } } : { kind: 'in_progress' });
      }
    });

    // A payment priced in a token is paid in that token only, so it needs a destination for it.
    it('creates a payment priced in a token only for a merchant settling in that token, fiat prices for any settled merchant', async () => {
      const p = await partner();
      const m = merchant(p.id);
      await s.merchants.create(m);
      await s.settlements.createMany(p.id, m.id, [{ id: newId('cryptoSettlement'), partnerId: p.id, merchantId: m.id, asset: TOKEN_A, destination: 'eip155:1:0x1', createdAt: t0 }]);
      const create = (unit: string) => {
        const pm = newPayment({ partnerId: p.id, merchantId: m.id, amount: { unit, value: '1000000' }, referenceId: unit, expiresAt: null }, t0.getTime(), { defaultTtlS: 300, maxTtlS: 3600 }, { assets });
        return { pm, result: s.payments.create(pm, { event: { id: newId('event'), paymentId: pm.id, partnerId: p.id, type: 'payment.created', stateVersion: 1, createdAt: t0, data: {} }, jobs: [] }) };
      };
      const inB = create(`caip19/${TOKEN_B}`);
      expect(await inB.result).toEqual({ ok: false, reason: 'merchant_not_payable' });
      expect(await s.payments.get(inB.pm.id)).toBeNull();
      const inA = create(`caip19/${TOKEN_A}`);
      expect(await inA.result).toEqual({ ok: true });
      expect((await s.payments.get(inA.pm.id))?.price).toEqual({ kind: 'token', asset: TOKEN_A, value: 1_000_000n });
      const fiat = create('iso4217/EUR');
      expect(await fiat.result).toEqual({ ok: true });
      expect((await s.payments.get(fiat.pm.id))?.price).toEqual({ kind: 'fiat', currency: 'EUR', value: 1_000_000n });
    });

    // The EVM relayer records its signed transaction before broadcasting it; a replacement must
    // name the transaction it replaces, so two workers can never both record (and send) one.
    it('records a relayer transaction before broadcast, replaces it only conditionally, and forgets it on release', async () => {
      const p = await partner();
      const m = merchant(p.id);
      await s.merchants.create(m);
      await s.settlements.createMany(p.id, m.id, [{ id: newId('cryptoSettlement'), partnerId: p.id, merchantId: m.id, asset: 'eip155:1/erc20:0xa', destination: 'eip155:1:0x1', createdAt: t0 }]);
      const pay = newPayment({ partnerId: p.id, merchantId: m.id, amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'relayer', expiresAt: null }, t0.getTime(), { defaultTtlS: 300, maxTtlS: 3600 });
      await s.payments.create(pay, { event: { id: newId('event'), paymentId: pay.id, partnerId: p.id, type: 'payment.created', stateVersion: 1, createdAt: t0, data: {} }, jobs: [] });
      const a = { txId: '0x' + 'a'.repeat(64), rawTx: '0x02aa' };
      const b = { txId: '0x' + 'b'.repeat(64), rawTx: '0x02bb' };
      // Only a processing payment takes one.
      expect(await s.payments.recordRelayerTx(pay.id, a, null, t0)).toBe(false);
      const move = (to: 'processing' | 'requires_action', patch: Record<string, unknown>) =>
        s.payments.transition(pay.id, { from: ['requires_action', 'processing'], to, patch, at: t0, event: { id: newId('event'), type: `payment.${to}`, snapshot: () => ({}) } });
      await move('processing', { optionId: 'opt_1', network: 'eip155:1' });
      expect(await s.payments.getRelayerTx(pay.id)).toBeNull();
      expect(await s.payments.recordRelayerTx(pay.id, a, 'tx_other', t0)).toBe(false);
      expect(await s.payments.recordRelayerTx(pay.id, a, null, t0)).toBe(true);
      expect(await s.payments.getRelayerTx(pay.id)).toEqual(a);
      expect((await s.payments.get(pay.id))?.txId).toBe(a.txId);
      // A second first record (another worker) loses; a replacement must name the current one.
      expect(await s.payments.recordRelayerTx(pay.id, b, null, t0)).toBe(false);
      expect(await s.payments.recordRelayerTx(pay.id, b, '0x' + 'c'.repeat(64), t0)).toBe(false);
      expect(await s.payments.recordRelayerTx(pay.id, b, a.txId, t0)).toBe(true);
      expect(await s.payments.getRelayerTx(pay.id)).toEqual(b);
      // Released: the tx id and its bytes are gone; the next attempt records afresh.
      await move('requires_action', { optionId: null, txId: null });
      expect(await s.payments.getRelayerTx(pay.id)).toBeNull();
      await move('processing', { optionId: 'opt_2', network: 'eip155:1' });
      expect(await s.payments.getRelayerTx(pay.id)).toBeNull();
      expect(await s.payments.recordRelayerTx(pay.id, a, null, t0)).toBe(true);
      expect(await s.payments.getRelayerTx(pay.id)).toEqual(a);
    });

    it('reads payments asked for together each within its own partner and merchant', async () => {
      const p = await partner();
      const other = await partner();
      const [m1, m2] = [merchant(p.id), merchant(p.id)];
      for (const m of [m1, m2]) {
        await s.merchants.create(m);
        await s.settlements.createMany(p.id, m.id, [{ id: newId('cryptoSettlement'), partnerId: p.id, merchantId: m.id, asset: 'eip155:1/erc20:0xa', destination: 'eip155:1:0x1', createdAt: t0 }]);
      }
      const made = [];
      for (const m of [m1, m2, m1]) {
        const pm = newPayment({ partnerId: p.id, merchantId: m.id, amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'r', expiresAt: null }, t0.getTime(), { defaultTtlS: 300, maxTtlS: 3600 });
        await s.payments.create(pm, { event: { id: newId('event'), paymentId: pm.id, partnerId: p.id, type: 'payment.requires_action', stateVersion: 1, createdAt: t0, data: {} }, jobs: [] });
        made.push(pm);
      }
      const [a, b, c] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];
      const asks: Array<[string, string, string | undefined, unknown]> = [
        [p.id, a.id, m1.id, a], [p.id, a.id, undefined, a], [p.id, a.id, m2.id, null], [other.id, a.id, undefined, null],
        [p.id, b.id, m2.id, b], [p.id, b.id, m1.id, null], [p.id, c.id, m1.id, c], [p.id, 'pay_missing', undefined, null],
      ];
      const rounds = await Promise.all(Array.from({ length: 5 }, () => Promise.all(asks.map(([partnerId, id, merchantId]) => s.payments.getForPartner(partnerId, id, merchantId)))));
      for (const got of rounds) expect(got).toEqual(asks.map((x) => x[3]));
    });

    it('keeps who paid (account and wallet app) with the payment, forgets it on release, and filters lists by asset with stats to match', async () => {
      const p = { id: newId('partner'), name: 'Wallet team', defaultVersion: '2026-02-18', createdAt: t0, iconUrl: 'https://wallet.example/i.png' };
      await s.partners.create(p);
      expect(await s.partners.get(p.id)).toEqual(p);
      const m = merchant(p.id);
      await s.merchants.create(m);
      await s.settlements.createMany(p.id, m.id, [{ id: newId('cryptoSettlement'), partnerId: p.id, merchantId: m.id, asset: 'eip155:1/erc20:0xa', destination: 'eip155:1:0x1', createdAt: t0 }]);
      const assets = ['eip155:1/erc20:0xa', 'eip155:1/erc20:0xb', 'eip155:1/erc20:0xa', null, 'eip155:10/erc20:0xa'];
      const made = [];
      for (const [i, asset] of assets.entries()) {
        const pay = newPayment({ partnerId: p.id, merchantId: m.id, amount: { unit: 'iso4217/USD', value: String(100 + i) }, referenceId: `a${i}`, expiresAt: null }, t0.getTime() + i, { defaultTtlS: 300, maxTtlS: 3600 });
        await s.payments.create(pay, { event: { id: newId('event'), paymentId: pay.id, partnerId: p.id, type: 'payment.created', stateVersion: 1, createdAt: t0, data: {} }, jobs: [] });
        made.push(pay);
        if (!asset) continue;
        const moved = await s.payments.transition(pay.id, {
          from: ['requires_action'], to: 'succeeded', at: t0,
          patch: { asset, tokenValue: 1n, network: asset.split('/')[0]!, txId: `0x${i}`, buyerAccount: `eip155:1:0x${i}`, buyerProviderName: 'W', buyerProviderIcon: 'https://wallet.example/i.png', succeededAt: t0 },
          event: { id: newId('event'), type: 'payment.succeeded', snapshot: () => ({}) },
        });
        expect(moved.ok).toBe(true);
      }
      expect(await s.payments.get(made[0]!.id)).toMatchObject({ buyerAccount: 'eip155:1:0x0', buyerProviderName: 'W', buyerProviderIcon: 'https://wallet.example/i.png' });
      expect(await s.payments.get(made[3]!.id)).not.toHaveProperty('buyerProviderName');
      const q = { sortBy: 'date' as const, sortDir: 'asc' as const, limit: 10 };
      const ids = async (assetsFilter?: string[]) => (await s.payments.list(p.id, { ...q, ...(assetsFilter ? { assets: assetsFilter } : {}) })).map((x) => x.id);
      expect(await ids(['eip155:1/erc20:0xa'])).toEqual([made[0]!.id, made[2]!.id]);
      expect(await ids(['eip155:1/erc20:0xa', 'eip155:10/erc20:0xa'])).toEqual([made[0]!.id, made[2]!.id, made[4]!.id]);
      expect(await ids([])).toEqual([]);
      expect(await ids()).toHaveLength(5);
      expect(await s.payments.stats(p.id, { ...q, assets: ['eip155:1/erc20:0xb'] })).toEqual({ revenue: [{ currency: 'USD', minor: 101n }], transactions: 1, customers: 1 });
      expect(await s.payments.stats(p.id, { ...q, assets: [] })).toEqual({ revenue: [], transactions: 0, customers: 0 });
      // Keyset paging under the filter.
      const first = await s.payments.list(p.id, { ...q, limit: 1, assets: ['eip155:1/erc20:0xa'] });
      expect((await s.payments.list(p.id, { ...q, limit: 5, assets: ['eip155:1/erc20:0xa'], after: { id: first[0]!.id } })).map((x) => x.id)).toEqual([made[2]!.id]);
      const released = await s.payments.transition(made[3]!.id, {
        from: ['requires_action'], to: 'processing', at: t0,
        patch: { buyerAccount: 'eip155:1:0x3', buyerProviderName: 'W', buyerProviderIcon: null },
        event: { id: newId('event'), type: 'payment.processing', snapshot: () => ({}) },
      });
      expect(released.ok && released.payment).toMatchObject({ buyerProviderName: 'W' });
      const back = await s.payments.transition(made[3]!.id, {
        from: ['processing'], to: 'requires_action', at: t0,
        patch: { buyerAccount: null, buyerProviderName: null, buyerProviderIcon: null },
        event: { id: newId('event'), type: 'payment.requires_action', snapshot: () => ({}) },
      });
      expect(back.ok && back.payment).not.toHaveProperty('buyerProviderName');
    });

    it('claims idempotency keys: claim, in progress, replay, conflict, release, stale takeover', async () => {
      const p = await partner();
      const claim = (key: string, hash: string, at = t0) => s.idempotency.claim(p.id, key, hash, at, 60_000);
      expect(await claim('k1', 'h1')).toEqual({ kind: 'claimed' });
      expect(await claim('k1', 'h1')).toEqual({ kind: 'in_progress' });
      expect(await claim('k1', 'h2')).toEqual({ kind: 'conflict' });
      await s.idempotency.complete({ partnerId: p.id, key: 'k1', statusCode: 201, body: { big: '12345678901234567890' } });
      expect(await claim('k1', 'h1')).toEqual({ kind: 'replay', statusCode: 201, body: { big: '12345678901234567890' } });
      expect(await claim('k2', 'h')).toEqual({ kind: 'claimed' });
      await s.idempotency.release(p.id, 'k2');
      expect(await claim('k2', 'h')).toEqual({ kind: 'claimed' });
      expect(await claim('k2', 'h', new Date(t0.getTime() + 61_000))).toEqual({ kind: 'claimed' });
      expect(await s.idempotency.purgeCreatedBefore(new Date(t0.getTime() + 1))).toBeGreaterThanOrEqual(2);
      expect(await claim('k1', 'h1')).toEqual({ kind: 'claimed' });
    });

    it('stores an idempotent answer atomically with the merchant it describes', async () => {
      const p = await partner();
      await s.idempotency.claim(p.id, 'atomic', 'h', t0, 60_000);
      const m = merchant(p.id);
      await s.merchants.create(m, { partnerId: p.id, key: 'atomic', statusCode: 201, body: { id: m.id } });
      expect(await s.idempotency.claim(p.id, 'atomic', 'h', t0, 60_000)).toEqual({ kind: 'replay', statusCode: 201, body: { id: m.id } });
      // A failing write leaves the claim unanswered: nothing half-stored.
      await s.idempotency.claim(p.id, 'atomic2', 'h', t0, 60_000);
      await expect(s.merchants.create(m, { partnerId: p.id, key: 'atomic2', statusCode: 201, body: {} })).rejects.toThrow();
      expect(await s.idempotency.claim(p.id, 'atomic2', 'h', t0, 60_000)).toEqual({ kind: 'in_progress' });
    });
  });
}
