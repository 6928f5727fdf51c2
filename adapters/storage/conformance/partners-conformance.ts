import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';

/** What every storage adapter's partner repository does: create, get, count. */
export function runPartnersConformance(name: string, open: OpenStore): void {
  describe(`partners conformance: ${name}`, () => {
    const f = useStore(open);

    it('round-trips a partner exactly, with and without a wallet-app icon', async () => {
      const plain = await f.partner();
      const withIcon = await f.partner({ name: 'Wallet team', defaultVersion: '2026-02-19.preview', iconUrl: 'https://wallet.example/i.png' });
      expect(await f.s.partners.get(plain.id)).toEqual(plain);
      expect(await f.s.partners.get(plain.id)).not.toHaveProperty('iconUrl');
      expect(await f.s.partners.get(withIcon.id)).toEqual(withIcon);
    });

    it("changes a partner's settings: the pinned version and the time zone, each alone, and the zone back to none", async () => {
      const p = await f.partner();
      const zoned = await f.s.partners.updateSettings(p.id, { timeZone: 'Europe/Berlin' });
      expect(zoned).toEqual({ ...p, timeZone: 'Europe/Berlin' });
      const upgraded = await f.s.partners.updateSettings(p.id, { defaultVersion: '2026-02-19.preview' });
      expect(upgraded).toEqual({ ...p, timeZone: 'Europe/Berlin', defaultVersion: '2026-02-19.preview' });
      expect(await f.s.partners.get(p.id)).toEqual(upgraded);
      expect(await f.s.partners.updateSettings(p.id, { timeZone: null })).toEqual({ ...p, defaultVersion: '2026-02-19.preview' });
      expect(await f.s.partners.updateSettings(newId('partner'), { timeZone: 'UTC' })).toBeNull();
    });

    it('answers null for an unknown id', async () => {
      expect(await f.s.partners.get(newId('partner'))).toBeNull();
    });

    it('counts every partner created, and refuses a second partner with the same id', async () => {
      const before = await f.s.partners.count();
      const p = await f.partner();
      await f.partner();
      expect(await f.s.partners.count()).toBe(before + 2);
      await expect(f.s.partners.create({ ...p, name: 'Other' })).rejects.toThrow();
      expect(await f.s.partners.count()).toBe(before + 2);
      expect((await f.s.partners.get(p.id))?.name).toBe('P');
    });

    it('counts partners of a store that has none as zero', async () => {
      // Every store this suite opens starts empty: the first start of a process relies on it.
      const fresh = await open();
      try {
        expect(await fresh.partners.count()).toBe(0);
        await fresh.partners.create({ id: newId('partner'), name: 'First', defaultVersion: '2026-02-18', createdAt: t0 });
        expect(await fresh.partners.count()).toBe(1);
      } finally {
        await fresh.dispose();
      }
    });
  });
}
