import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import type { DataCollectionConfig } from '../../../server/domain/collect-data/schema.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';

/**
 * What every storage adapter's merchant repository does: every read and write within the
 * partner, partial updates, repeatable soft deletion, keyset lists with a total count.
 */
export function runMerchantsConformance(name: string, open: OpenStore): void {
  describe(`merchants conformance: ${name}`, () => {
    const f = useStore(open);

    it('scopes merchants to their partner in every read and write', async () => {
      const [a, b] = [await f.partner(), await f.partner()];
      const m = f.merchant(a.id);
      await f.s.merchants.create(m);
      expect(await f.s.merchants.get(a.id, m.id)).toEqual(m);
      expect(await f.s.merchants.get(b.id, m.id)).toBeNull();
      expect(await f.s.merchants.get(b.id, m.id, { includeDeleted: true })).toBeNull();
      expect(await f.s.merchants.update(b.id, m.id, { name: 'X' })).toBeNull();
      expect(await f.s.merchants.softDelete(b.id, m.id, t0)).toBeNull();
      expect(await f.s.merchants.getMany(b.id, [m.id])).toEqual([]);
      expect(await f.s.merchants.list(b.id, { limit: 10 })).toEqual({ items: [], totalCount: 0 });
      expect(await f.s.merchants.get(a.id, m.id)).toEqual(m);
    });

    it('answers null for an unknown merchant on get, update and delete', async () => {
      const p = await f.partner();
      const id = newId('merchant');
      expect(await f.s.merchants.get(p.id, id)).toBeNull();
      expect(await f.s.merchants.update(p.id, id, { name: 'X' })).toBeNull();
      expect(await f.s.merchants.softDelete(p.id, id, t0)).toBeNull();
    });

    it('updates only the fields given, and null clears the logo and the data collection', async () => {
      const p = await f.partner();
      const dataCollection: DataCollectionConfig = { minAmount: { unit: 'iso4217/USD', value: '10000' } };
      const m = { ...f.merchant(p.id), iconUrl: 'https://x/y.png', dataCollection };
      await f.s.merchants.create(m);
      expect(await f.s.merchants.get(p.id, m.id)).toEqual(m);
      expect(await f.s.merchants.update(p.id, m.id, { email: 'n@x.co' })).toEqual({ ...m, email: 'n@x.co' });
      expect(await f.s.merchants.update(p.id, m.id, { iconUrl: null, name: 'Renamed' })).toEqual({ ...m, email: 'n@x.co', iconUrl: null, name: 'Renamed' });
      const cleared = await f.s.merchants.update(p.id, m.id, { dataCollection: null });
      expect(cleared?.dataCollection ?? null).toBeNull();
      expect(await f.s.merchants.update(p.id, m.id, { dataCollection: { minAmount: null } })).toMatchObject({ dataCollection: { minAmount: null }, name: 'Renamed' });
      expect(await f.s.merchants.get(p.id, m.id)).toMatchObject({ dataCollection: { minAmount: null }, email: 'n@x.co', iconUrl: null });
    });

    it('soft-deletes repeatably, keeping the first deletion time, and a deleted merchant takes no update', async () => {
      const p = await f.partner();
      const m = f.merchant(p.id);
      await f.s.merchants.create(m);
      const later = new Date(t0.getTime() + 1000);
      expect(await f.s.merchants.softDelete(p.id, m.id, t0)).toEqual({ ...m, status: 'inactive', deletedAt: t0 });
      expect(await f.s.merchants.softDelete(p.id, m.id, later)).toMatchObject({ status: 'inactive', deletedAt: t0 });
      expect(await f.s.merchants.get(p.id, m.id)).toBeNull();
      expect(await f.s.merchants.get(p.id, m.id, { includeDeleted: true })).toEqual({ ...m, status: 'inactive', deletedAt: t0 });
      expect(await f.s.merchants.update(p.id, m.id, { name: 'X' })).toBeNull();
      expect((await f.s.merchants.get(p.id, m.id, { includeDeleted: true }))?.name).toBe('M');
    });

    it('gets several merchants of the partner by id, deleted ones included, others’ and unknown ids skipped', async () => {
      const [a, b] = [await f.partner(), await f.partner()];
      const [live, gone, foreign] = [f.merchant(a.id), f.merchant(a.id), f.merchant(b.id)];
      for (const m of [live, gone, foreign]) await f.s.merchants.create(m);
      await f.s.merchants.softDelete(a.id, gone.id, t0);
      const got = await f.s.merchants.getMany(a.id, [live.id, gone.id, foreign.id, newId('merchant')]);
      expect(got.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([live, { ...gone, status: 'inactive', deletedAt: t0 }]);
      expect(await f.s.merchants.getMany(a.id, [])).toEqual([]);
    });

    it('lists live merchants newest first by keyset, with the count of all matches on every page', async () => {
      const p = await f.partner();
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const m = f.merchant(p.id, `Shop ${i}`);
        await f.s.merchants.create(m);
        ids.push(m.id);
      }
      const deleted = f.merchant(p.id, 'Shop deleted');
      await f.s.merchants.create(deleted);
      await f.s.merchants.softDelete(p.id, deleted.id, t0);
      const first = await f.s.merchants.list(p.id, { limit: 3 });
      expect(first.items.map((m) => m.id)).toEqual(ids.slice(-3).reverse());
      expect(first.totalCount).toBe(7);
      const next = await f.s.merchants.list(p.id, { limit: 3, beforeId: first.items[2]!.id });
      expect(next.items.map((m) => m.id)).toEqual(ids.slice(1, 4).reverse());
      expect(next.totalCount).toBe(7);
      const last = await f.s.merchants.list(p.id, { limit: 3, beforeId: next.items[2]!.id });
      expect(last.items.map((m) => m.id)).toEqual([ids[0]]);
    });

    it('filters lists by status and by a search on name or id, wildcards taken literally', async () => {
      const p = await f.partner();
      const shops = [
        f.merchant(p.id, 'Shop 3'),
        f.merchant(p.id, 'Shop 50% off'),
        f.merchant(p.id, 'Shop 500'),
        { ...f.merchant(p.id, 'Suspended shop'), status: 'suspended' as const },
      ];
      for (const m of shops) await f.s.merchants.create(m);
      const names = async (q: Parameters<typeof f.s.merchants.list>[1]) => (await f.s.merchants.list(p.id, q)).items.map((m) => m.name).sort();
      expect(await names({ limit: 10, search: 'shop 3' })).toEqual(['Shop 3']);
      expect(await names({ limit: 10, search: '50%' })).toEqual(['Shop 50% off']);
      expect(await names({ limit: 10, search: 'Shop_5' })).toEqual([]);
      expect(await names({ limit: 10, search: shops[2]!.id.slice(-12) })).toEqual(['Shop 500']);
      expect(await names({ limit: 10, status: 'suspended' })).toEqual(['Suspended shop']);
      expect(await f.s.merchants.list(p.id, { limit: 1, status: 'active' })).toMatchObject({ totalCount: 3 });
    });

    it('stores an idempotent answer atomically with the merchant it describes', async () => {
      const p = await f.partner();
      await f.s.idempotency.claim(p.id, 'atomic', 'h', t0, 60_000);
      const m = f.merchant(p.id);
      await f.s.merchants.create(m, { partnerId: p.id, key: 'atomic', statusCode: 201, body: { id: m.id } });
      expect(await f.s.idempotency.claim(p.id, 'atomic', 'h', t0, 60_000)).toEqual({ kind: 'replay', statusCode: 201, body: { id: m.id } });
      // A failing write (the id is taken) leaves the claim unanswered: nothing half-stored.
      await f.s.idempotency.claim(p.id, 'atomic2', 'h', t0, 60_000);
      await expect(f.s.merchants.create({ ...m, name: 'Copy' }, { partnerId: p.id, key: 'atomic2', statusCode: 201, body: {} })).rejects.toThrow();
      expect(await f.s.idempotency.claim(p.id, 'atomic2', 'h', t0, 60_000)).toEqual({ kind: 'in_progress' });
      expect((await f.s.merchants.get(p.id, m.id))?.name).toBe('M');
    });
  });
}
