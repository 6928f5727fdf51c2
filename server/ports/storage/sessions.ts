import type { SessionRecord } from '../../domain/users/records.ts';

/** Server-side dashboard sessions, found by the hash of their cookie token. Expiry is the domain's call (sessions.ts). */
export interface SessionRepository {
  create(session: SessionRecord): Promise<void>;
  find(idHash: string): Promise<SessionRecord | null>;
  /** Moves last-seen forward (never back). */
  touch(idHash: string, at: Date): Promise<void>;
  /** True when a session was removed by this call. */
  remove(idHash: string): Promise<boolean>;
  /** Removes sessions past their absolute end (`expiresAt <= now`) or idle since before `idleSince`; how many. */
  removeExpired(now: Date, idleSince: Date): Promise<number>;
  /** Signs a user out everywhere; the number of sessions removed. */
  removeAllForUser(userId: string): Promise<number>;
}
