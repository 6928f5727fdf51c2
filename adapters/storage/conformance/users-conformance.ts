import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import type { Role, UserRecord } from '../../../server/domain/users/records.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';

/**
 * What every storage adapter's dashboard users do: one user per email within a partner (matched
 * whatever its case), the same email free at another partner, reads and writes confined to the
 * user's partner, removal taking the user's sessions with it.
 */
export function runUsersConformance(name: string, open: OpenStore): void {
  describe(`users conformance: ${name}`, () => {
    const f = useStore(open);
    let n = 0;
    const user = (partnerId: string, role: Role = 'owner', at = new Date(t0.getTime() + ++n)): UserRecord => ({
      id: newId('user', at.getTime()),
      partnerId,
      email: `user${n}-${Math.random().toString(36).slice(2)}@example.test`,
      role,
      passwordHash: 'scrypt$32768$8$1$salt$hash',
      createdAt: at,
    });

    it('creates a user and finds it by email in any case, once per email within a partner, again at another partner', async () => {
      const [a, b] = [await f.partner(), await f.partner()];
      const u = user(a.id);
      expect(await f.s.users.create(u)).toEqual({ ok: true });
      expect(await f.s.users.listByEmail(u.email.toUpperCase(), 10)).toEqual([u]);
      expect(await f.s.users.create({ ...user(a.id), email: u.email.toUpperCase() })).toEqual({ ok: false, reason: 'email_taken' });
      // Issue 30 item 5: the same address at another partner is that partner's own account.
      const atB: UserRecord = { ...user(b.id), email: u.email, passwordExpiresAt: new Date(t0.getTime() + 3_600_000) };
      expect(await f.s.users.create(atB)).toEqual({ ok: true });
      expect(await f.s.users.listByEmail(u.email, 10)).toEqual([u, atB]);
      expect(await f.s.users.listByEmail(u.email, 1)).toEqual([u]);
      expect(await f.s.users.listByEmail('nobody@example.test', 10)).toEqual([]);
      expect(await f.s.users.listByPartner(b.id)).toEqual([atB]);
      // A password the user sets ends the temporary one's expiry; a temporary one sets it again.
      expect(await f.s.users.setPasswordHash(b.id, atB.id, 'scrypt$chosen')).toBe(true);
      expect(await f.s.users.get(b.id, atB.id)).toEqual({ ...atB, passwordHash: 'scrypt$chosen', passwordExpiresAt: undefined });
      expect(await f.s.users.setPasswordHash(b.id, atB.id, 'scrypt$temp', atB.passwordExpiresAt)).toBe(true);
      expect((await f.s.users.get(b.id, atB.id))?.passwordExpiresAt).toEqual(atB.passwordExpiresAt);
    });

    it('reads, lists, changes role and removes within the user’s own partner only', async () => {
      const [a, b] = [await f.partner(), await f.partner()];
      const [u1, u2] = [user(a.id, 'owner'), user(a.id, 'viewer')];
      await f.s.users.create(u2);
      await f.s.users.create(u1);
      expect(await f.s.users.get(a.id, u1.id)).toEqual(u1);
      expect(await f.s.users.get(b.id, u1.id)).toBeNull();
      expect((await f.s.users.listByPartner(a.id)).map((u) => u.id)).toEqual([u1.id, u2.id].sort((x, y) => (x < y ? -1 : 1)));

      expect(await f.s.users.setRole(b.id, u2.id, 'owner')).toBe(false);
      expect(await f.s.users.setRole(a.id, u2.id, 'developer')).toBe(true);
      expect((await f.s.users.get(a.id, u2.id))?.role).toBe('developer');

      expect(await f.s.users.setPasswordHash(b.id, u2.id, 'other')).toBe(false);
      expect(await f.s.users.setPasswordHash(a.id, u2.id, 'scrypt$new')).toBe(true);
      expect((await f.s.users.get(a.id, u2.id))?.passwordHash).toBe('scrypt$new');
      expect((await f.s.users.get(a.id, u1.id))?.passwordHash).toBe(u1.passwordHash);

      expect(await f.s.users.remove(b.id, u2.id)).toBe(false);
      expect(await f.s.users.remove(a.id, u2.id)).toBe(true);
      expect(await f.s.users.remove(a.id, u2.id)).toBe(false);
      expect(await f.s.users.get(a.id, u2.id)).toBeNull();
    });

    it('refuses a role outside owner, developer, viewer', async () => {
      const p = await f.partner();
      await expect(f.s.users.create({ ...user(p.id), role: 'admin' as Role })).rejects.toThrow();
    });
  });
}
