/** The people who sign in to the partner dashboard, and their sessions. */

export const ROLES = ['owner', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (v: unknown): v is Role => typeof v === 'string' && (ROLES as readonly string[]).includes(v);

export interface UserRecord {
  id: string;
  /** A user belongs to exactly one partner. */
  partnerId: string;
  /** Lower-cased; unique across the service, so signing in needs no partner id. */
  email: string;
  role: Role;
  /** `scrypt$N$r$p$salt$hash` (passwords.ts): the parameters travel with each hash. */
  passwordHash: string;
  createdAt: Date;
}

/**
 * A signed-in browser. The cookie holds a random token; only its SHA-256 is stored, so a copy of
 * the table signs no one in. The CSRF token is bound to the session (synchronizer token).
 */
export interface SessionRecord {
  idHash: string;
  userId: string;
  partnerId: string;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** The absolute end, whatever the activity. */
  expiresAt: Date;
}
