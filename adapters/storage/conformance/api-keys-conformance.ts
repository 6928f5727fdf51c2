import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import type { ApiKeyRecord, KeyScope } from '../../../server/domain/partners/records.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';

/**
 * What every storage adapter's API key repository does: keys are found by hash only while
 * active, listed within their partner, and revoked once.
 */
export function runApiKeysConformance(name: string, open: OpenStore): void {
  describe(`api keys conformance: ${name}`, () => {
    const f = useStore(open);
    let n = 0;
    const key = (partnerId: string, scope: KeyScope = 'partner', at = t0): ApiKeyRecord => {
      const hash = (++n).toString(16).padStart(64, '0');
      return { id: newId('apiKey', at.getTime()), partnerId, scope, keyHash: hash, hint: hash.slice(-4), createdAt: at, revokedAt: null };
    };

    it('finds an active key by its hash, with its own partner', async () => {
      const [a, b] = [await f.partner(), await f.partner({ iconUrl: 'https://wallet.example/i.png' })];
      const [ka, kb] = [key(a.id), key(b.id, 'wallet')];
      await f.s.apiKeys.create(ka);
      await f.s.apiKeys.create(kb);
      expect(await f.s.apiKeys.findActiveByHash(ka.keyHash)).toEqual({ key: ka, partner: a });
      expect(await f.s.apiKeys.findActiveByHash(kb.keyHash)).toEqual({ key: kb, partner: b });
      expect(await f.s.apiKeys.findActiveByHash('f'.repeat(64))).toBeNull();
    });

    it('keeps a key’s permissions (an empty list too) and maker, and lists a maker’s active keys', async () => {
      const p = await f.partner();
      const limited: ApiKeyRecord = { ...key(p.id), permissions: ['read', 'webhooks:write'], createdBy: 'user_1' };
      const none: ApiKeyRecord = { ...key(p.id), permissions: [], createdBy: 'user_1' };
      const gone: ApiKeyRecord = { ...key(p.id, 'wallet'), createdBy: 'user_1' };
      const others: ApiKeyRecord = { ...key(p.id), createdBy: 'user_2' };
      for (const k of [limited, none, gone, others]) await f.s.apiKeys.create(k);
      await f.s.apiKeys.revoke(gone.id, t0);
      expect((await f.s.apiKeys.findActiveByHash(limited.keyHash))?.key).toEqual(limited);
      expect((await f.s.apiKeys.findActiveByHash(none.keyHash))?.key).toEqual(none);
      expect((await f.s.apiKeys.listActiveByCreator(p.id, 'user_1')).map((k) => k.id).sort()).toEqual([limited.id, none.id].sort());
      expect(await f.s.apiKeys.listActiveByCreator((await f.partner()).id, 'user_1')).toEqual([]);
    });

    it('revokes a key once: the second revoke and an unknown id answer false', async () => {
      const p = await f.partner();
      const [k, other] = [key(p.id), key(p.id, 'app')];
      await f.s.apiKeys.create(k);
      await f.s.apiKeys.create(other);
      const later = new Date(t0.getTime() + 5000);
      expect(await f.s.apiKeys.revoke(k.id, t0)).toBe(true);
      expect(await f.s.apiKeys.revoke(k.id, later)).toBe(false);
      expect(await f.s.apiKeys.revoke(newId('apiKey'), t0)).toBe(false);
      expect(await f.s.apiKeys.findActiveByHash(k.keyHash)).toBeNull();
      // The first revocation time stays; the partner's other key is untouched.
      const listed = await f.s.apiKeys.listByPartner(p.id);
      expect(listed.find((x) => x.id === k.id)?.revokedAt).toEqual(t0);
      expect(listed.find((x) => x.id === other.id)).toEqual(other);
      expect(await f.s.apiKeys.findActiveByHash(other.keyHash)).toEqual({ key: other, partner: p });
    });

    it('never finds a key stored already revoked', async () => {
      const p = await f.partner();
      const k = { ...key(p.id), revokedAt: t0 };
      await f.s.apiKeys.create(k);
      expect(await f.s.apiKeys.findActiveByHash(k.keyHash)).toBeNull();
      expect(await f.s.apiKeys.listByPartner(p.id)).toEqual([k]);
    });

    it('lists only the partner’s own keys, oldest first, revoked ones included', async () => {
      const [a, b] = [await f.partner(), await f.partner()];
      const keys = [key(a.id, 'partner', t0), key(a.id, 'wallet', new Date(t0.getTime() + 1)), key(a.id, 'app', new Date(t0.getTime() + 2))];
      for (const k of [...keys].reverse()) await f.s.apiKeys.create(k);
      await f.s.apiKeys.create(key(b.id));
      await f.s.apiKeys.revoke(keys[1]!.id, t0);
      expect((await f.s.apiKeys.listByPartner(a.id)).map((k) => [k.id, k.scope, k.revokedAt])).toEqual([
        [keys[0]!.id, 'partner', null],
        [keys[1]!.id, 'wallet', t0],
        [keys[2]!.id, 'app', null],
      ]);
      expect(await f.s.apiKeys.listByPartner(b.id)).toHaveLength(1);
      expect(await f.s.apiKeys.listByPartner(newId('partner'))).toEqual([]);
    });

    it('refuses a second key with the same hash, so a hash names one key', async () => {
      const p = await f.partner();
      const k = key(p.id);
      await f.s.apiKeys.create(k);
      await expect(f.s.apiKeys.create({ ...k, id: newId('apiKey') })).rejects.toThrow();
      expect(await f.s.apiKeys.listByPartner(p.id)).toEqual([k]);
    });

    it('keeps a key’s name, and marks it used when the API finds it (the key returned as it was)', async () => {
      const p = await f.partner();
      const k = { ...key(p.id), name: 'CI deploy' };
      await f.s.apiKeys.create(k);
      expect(await f.s.apiKeys.listByPartner(p.id)).toEqual([k]);
      expect(await f.s.apiKeys.findActiveByHash(k.keyHash)).toEqual({ key: k, partner: p });
      const [listed] = await f.s.apiKeys.listByPartner(p.id);
      expect(listed?.name).toBe('CI deploy');
      expect(Math.abs(listed!.lastUsedAt!.getTime() - Date.now())).toBeLessThan(10 * 60_000);
    });
    it('keeps an App-Id’s allowed origins, replaces them, and an empty list reads back as none', async () => {
      const p = await f.partner();
      const k = { ...key(p.id, 'app'), allowedOrigins: ['https://wallet.example', 'http://localhost:5173'] };
      const plain = key(p.id, 'app');
      await f.s.apiKeys.create(k);
      await f.s.apiKeys.create(plain);
      expect(await f.s.apiKeys.findActiveByHash(k.keyHash)).toEqual({ key: k, partner: p });
      expect(await f.s.apiKeys.setAllowedOrigins(k.id, ['https://pay.example:8443'])).toBe(true);
      expect((await f.s.apiKeys.findActiveByHash(k.keyHash))?.key.allowedOrigins).toEqual(['https://pay.example:8443']);
      expect(await f.s.apiKeys.setAllowedOrigins(k.id, [])).toBe(true);
      const listed = await f.s.apiKeys.listByPartner(p.id);
      expect(listed.find((x) => x.id === k.id)).not.toHaveProperty('allowedOrigins');
      // The other key is untouched, and an unknown id changes nothing.
      expect(listed.find((x) => x.id === plain.id)).toEqual(plain);
      expect(await f.s.apiKeys.setAllowedOrigins(newId('apiKey'), ['https://x.example'])).toBe(false);
    });
  });
}
