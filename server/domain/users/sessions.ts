import { createHash, randomBytes } from 'node:crypto';
import type { SessionRecord } from './records.ts';

/** How long a session lives: idle (since its last request) and absolute (since sign-in). */
export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };

export const hashSessionToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new session: the token goes in the cookie, the record (with the token's hash only) in storage. */
export function newSession(user: { id: string; partnerId: string }, now: Date, policy: SessionPolicy): { token: string; record: SessionRecord } {
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    record: {
      idHash: hashSessionToken(token),
      userId: user.id,
      partnerId: user.partnerId,
      csrfToken: randomBytes(32).toString('base64url'),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + policy.absoluteMs),
    },
  };
}

export function sessionAlive(s: SessionRecord, now: Date, policy: SessionPolicy): boolean {
  return now < s.expiresAt && now.getTime() - s.lastSeenAt.getTime() < policy.idleMs;
}

/** Writing last-seen on every request would be a write per page; once a minute is precise enough for a 30-minute idle limit. */
export const shouldTouch = (s: SessionRecord, now: Date): boolean => now.getTime() - s.lastSeenAt.getTime() >= 60_000;
