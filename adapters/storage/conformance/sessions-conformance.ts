import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import type { SessionRecord, UserRecord } from '../../../server/domain/users/records.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';

/** What every storage adapter's sessions do: found by hash, touched forward only, removed one by one or all of a user's. */
export function runSessionsConformance(name: string, open: OpenStore): void {
  describe(`sessions conformance: ${name}`, () => {
    const f = useStore(open);
    let n = 0;
    async function user(): Promise<UserRecord> {
      const p = await f.partner();
      const u: UserRecord = { id: newId('user'), partnerId: p.id, email: `s${++n}-${Math.random()}@example.test`, role: 'viewer', passwordHash: 'x', createdAt: t0 };
      await f.s.users.create(u);
      return u;
    }
    const session = (u: UserRecord): SessionRecord => ({
      idHash: `${(++n).toString(16)}${Math.random().toString(16).slice(2)}`.padEnd(64, '0'),
      userId: u.id,
      partnerId: u.partnerId,
      csrfToken: `csrf-${n}`,
      createdAt: t0,
      lastSeenAt: t0,
      expiresAt: new Date(t0.getTime() + 3_600_000),
    });

    it('finds a session by its hash and moves last-seen forward only', async () => {
      const u = await user();
      const s = session(u);
      await f.s.sessions.create(s);
      expect(await f.s.sessions.find(s.idHash)).toEqual(s);
      expect(await f.s.sessions.find('0'.repeat(64))).toBeNull();
      const later = new Date(t0.getTime() + 120_000);
      await f.s.sessions.touch(s.idHash, later);
      await f.s.sessions.touch(s.idHash, new Date(t0.getTime() + 60_000));
      expect((await f.s.sessions.find(s.idHash))?.lastSeenAt).toEqual(later);
    });

    it('removes one session, then all of a user’s, leaving other users’ alone', async () => {
      const [u, other] = [await user(), await user()];
      const [s1, s2, s3, o] = [session(u), session(u), session(u), session(other)];
      for (const s of [s1, s2, s3, o]) await f.s.sessions.create(s);
      expect(await f.s.sessions.remove(s1.idHash)).toBe(true);
      expect(await f.s.sessions.remove(s1.idHash)).toBe(false);
      expect(await f.s.sessions.removeAllForUser(u.id)).toBe(2);
      expect(await f.s.sessions.find(s2.idHash)).toBeNull();
      expect(await f.s.sessions.find(o.idHash)).toEqual(o);
    });

    it('removes sessions past their end or idle too long, keeping live ones', async () => {
      const u = await user();
      const live = session(u);
      const ended = { ...session(u), expiresAt: new Date(t0.getTime() - 1) };
      const idle = { ...session(u), lastSeenAt: new Date(t0.getTime() - 3_600_000) };
      for (const s of [live, ended, idle]) await f.s.sessions.create(s);
      expect(await f.s.sessions.removeExpired(t0, new Date(t0.getTime() - 1_800_000))).toBeGreaterThanOrEqual(2);
      expect(await f.s.sessions.find(live.idHash)).toEqual(live);
      expect(await f.s.sessions.find(ended.idHash)).toBeNull();
      expect(await f.s.sessions.find(idle.idHash)).toBeNull();
    });

    it('drops a user’s sessions when the user is removed', async () => {
      const u = await user();
      const s = session(u);
      await f.s.sessions.create(s);
      expect(await f.s.users.remove(u.partnerId, u.id)).toBe(true);
      expect(await f.s.sessions.find(s.idHash)).toBeNull();
    });
  });
}
