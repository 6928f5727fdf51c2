import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import type { StoragePort } from '../../../server/ports/storage/index.ts';
import { newId } from '../../../server/domain/ids.ts';

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
