import { describe, expect, it } from 'vitest';
import { newId, newIds } from '../../../server/domain/ids.ts';
import type { CryptoSettlementRecord } from '../../../server/domain/merchants/records.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';

/**
 * What every storage adapter's settlement repository does: batches all or nothing, one
 * destination per (merchant, asset), every read and write within the partner and merchant.
 */
export function runSettlementsConformance(name: string, open: OpenStore): void {
  describe(`settlements conformance: ${name}`, () => {
    const f = useStore(open);
    const entry = (partnerId: string, merchantId: string, asset: string, id = newId('cryptoSettlement')): CryptoSettlementRecord => ({
      id,
      partnerId,
      merchantId,
      asset,
      destination: 'eip155:1:0x1',
      createdAt: t0,
    });
    async function merchantOf() {
      const p = await f.partner();
      const m = f.merchant(p.id);
      await f.s.merchants.create(m);
      return { p, m };
    }

    it('creates settlements all or nothing, one per (merchant, asset)', async () => {
      const { p, m } = await merchantOf();
      const first = entry(p.id, m.id, 'a:1/b:1');
      expect(await f.s.settlements.createMany(p.id, m.id, [first])).toEqual({ ok: true });
      expect(await f.s.settlements.createMany(p.id, m.id, [entry(p.id, m.id, 'a:1/b:2'), entry(p.id, m.id, 'a:1/b:1')])).toEqual({
        ok: false,
        reason: 'asset_conflict',
        asset: 'a:1/b:1',
      });
      // The same asset twice in one batch conflicts too, and writes nothing.
      expect(await f.s.settlements.createMany(p.id, m.id, [entry(p.id, m.id, 'a:1/b:3'), entry(p.id, m.id, 'a:1/b:3')])).toEqual({
        ok: false,
        reason: 'asset_conflict',
        asset: 'a:1/b:3',
      });
      expect(await f.s.settlements.listByMerchant(p.id, m.id)).toEqual([first]);
      // Another merchant may register the same asset.
      const other = f.merchant(p.id);
      await f.s.merchants.create(other);
      expect(await f.s.settlements.createMany(p.id, other.id, [entry(p.id, other.id, 'a:1/b:1')])).toEqual({ ok: true });
    });

    it('registers nothing for another partner’s, a deleted or an unknown merchant', async () => {
      const { p, m } = await merchantOf();
      const stranger = await f.partner();
      expect(await f.s.settlements.createMany(stranger.id, m.id, [entry(stranger.id, m.id, 'a:1/b:1')])).toEqual({ ok: false, reason: 'merchant_not_found' });
      expect(await f.s.settlements.createMany(p.id, newId('merchant'), [entry(p.id, m.id, 'a:1/b:1')])).toEqual({ ok: false, reason: 'merchant_not_found' });
      await f.s.merchants.softDelete(p.id, m.id, t0);
      expect(await f.s.settlements.createMany(p.id, m.id, [entry(p.id, m.id, 'a:1/b:1')])).toEqual({ ok: false, reason: 'merchant_not_found' });
      expect(await f.s.settlements.listByMerchant(p.id, m.id)).toEqual([]);
    });

    it('stores an idempotent answer with the batch it describes, and none when the batch fails', async () => {
      const { p, m } = await merchantOf();
      await f.s.idempotency.claim(p.id, 'batch', 'h', t0, 60_000);
      const ok = entry(p.id, m.id, 'a:1/b:1');
      expect(await f.s.settlements.createMany(p.id, m.id, [ok], { partnerId: p.id, key: 'batch', statusCode: 201, body: { settlements: [ok.id] } })).toEqual({ ok: true });
      expect(await f.s.idempotency.claim(p.id, 'batch', 'h', t0, 60_000)).toEqual({ kind: 'replay', statusCode: 201, body: { settlements: [ok.id] } });
      await f.s.idempotency.claim(p.id, 'batch2', 'h', t0, 60_000);
      expect(await f.s.settlements.createMany(p.id, m.id, [entry(p.id, m.id, 'a:1/b:1')], { partnerId: p.id, key: 'batch2', statusCode: 201, body: {} })).toMatchObject({
        ok: false,
      });
      expect(await f.s.idempotency.claim(p.id, 'batch2', 'h', t0, 60_000)).toEqual({ kind: 'in_progress' });
    });

    it('lists a merchant’s settlements in id order, and only within its partner and merchant', async () => {
      const { p, m } = await merchantOf();
      const ids = newIds('cryptoSettlement', 3, t0.getTime());
      const items = [entry(p.id, m.id, 'a:1/b:3', ids[2]), entry(p.id, m.id, 'a:1/b:1', ids[0]), entry(p.id, m.id, 'a:1/b:2', ids[1])];
      expect(await f.s.settlements.createMany(p.id, m.id, items)).toEqual({ ok: true });
      expect((await f.s.settlements.listByMerchant(p.id, m.id)).map((x) => x.id)).toEqual(ids);
      const stranger = await f.partner();
      expect(await f.s.settlements.listByMerchant(stranger.id, m.id)).toEqual([]);
      const sibling = f.merchant(p.id);
      await f.s.merchants.create(sibling);
      expect(await f.s.settlements.listByMerchant(p.id, sibling.id)).toEqual([]);
    });

    it('gets and re-points one settlement only through its own partner and merchant', async () => {
      const { p, m } = await merchantOf();
      const s1 = entry(p.id, m.id, 'a:1/b:1');
      await f.s.settlements.createMany(p.id, m.id, [s1]);
      const stranger = await f.partner();
      const sibling = f.merchant(p.id);
      await f.s.merchants.create(sibling);
      expect(await f.s.settlements.get(p.id, m.id, s1.id)).toEqual(s1);
      expect(await f.s.settlements.get(stranger.id, m.id, s1.id)).toBeNull();
      expect(await f.s.settlements.get(p.id, sibling.id, s1.id)).toBeNull();
      expect(await f.s.settlements.get(p.id, m.id, newId('cryptoSettlement'))).toBeNull();
      expect(await f.s.settlements.updateDestination(stranger.id, m.id, s1.id, 'eip155:1:0x2')).toBeNull();
      expect(await f.s.settlements.updateDestination(p.id, sibling.id, s1.id, 'eip155:1:0x2')).toBeNull();
      expect(await f.s.settlements.updateDestination(p.id, m.id, newId('cryptoSettlement'), 'eip155:1:0x2')).toBeNull();
      expect(await f.s.settlements.get(p.id, m.id, s1.id)).toEqual(s1);
      expect(await f.s.settlements.updateDestination(p.id, m.id, s1.id, 'eip155:1:0x3')).toEqual({ ...s1, destination: 'eip155:1:0x3' });
      expect(await f.s.settlements.get(p.id, m.id, s1.id)).toEqual({ ...s1, destination: 'eip155:1:0x3' });
    });

    it('deletes a settlement once, only through its own partner and merchant, freeing its asset', async () => {
      const { p, m } = await merchantOf();
      const s1 = entry(p.id, m.id, 'a:1/b:1');
      await f.s.settlements.createMany(p.id, m.id, [s1]);
      const stranger = await f.partner();
      expect(await f.s.settlements.delete(stranger.id, m.id, s1.id)).toBe(false);
      expect(await f.s.settlements.get(p.id, m.id, s1.id)).toEqual(s1);
      expect(await f.s.settlements.delete(p.id, m.id, s1.id)).toBe(true);
      expect(await f.s.settlements.delete(p.id, m.id, s1.id)).toBe(false);
      expect(await f.s.settlements.get(p.id, m.id, s1.id)).toBeNull();
      expect(await f.s.settlements.createMany(p.id, m.id, [entry(p.id, m.id, 'a:1/b:1')])).toEqual({ ok: true });
    });
  });
}
