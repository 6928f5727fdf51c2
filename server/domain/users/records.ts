/** The people who sign in to the partner dashboard, and their sessions. */

export const ROLES = ['owner', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (v: unknown): v is Role => typeof v === 'string' && (ROLES as readonly string[]).includes(v);

export interface UserRecord {
  id: string;
  /** A user belongs to exactly one partner. */
  partnerId: string;
  /**
   * Lower-cased; unique within the partner. Another partner may have a user with the same address
   * (its own account, its own password): sign-in finds the one whose password matches.
   */
  email: string;
  role: Role;
  /** `scrypt$N$r$p$salt$hash` (passwords.ts): the parameters travel with each hash. */
  passwordHash: string;
  /**
   * Set while the password is a temporary one somebody else chose (an owner's invitation, the key
   * tool): past it the password signs nobody in, and until the user replaces it the dashboard shows
   * them nothing but the change-password form. Absent: a password its user chose.
   */
  passwordExpiresAt?: Date;
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
