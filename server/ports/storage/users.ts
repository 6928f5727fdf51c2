import type { Role, UserRecord } from '../../domain/users/records.ts';

/**
 * Dashboard users. An email is unique within a partner (several partners may each have a user with
 * it); every read and write but sign-in's lookup names the partner.
 */
export interface UserRepository {
  /** Refused when the (lower-cased) email already has a user in the same partner. */
  create(user: UserRecord): Promise<{ ok: true } | { ok: false; reason: 'email_taken' }>;
  /** The users with this email (matched lower-cased) in every partner, oldest first, at most `limit`: sign-in's candidates. */
  listByEmail(email: string, limit: number): Promise<UserRecord[]>;
  get(partnerId: string, id: string): Promise<UserRecord | null>;
  /** Oldest first. */
  listByPartner(partnerId: string): Promise<UserRecord[]>;
  /** True when the partner's user existed and now has `role`. */
  setRole(partnerId: string, id: string, role: Role): Promise<boolean>;
  /**
   * True when the partner's user existed and now has this password hash: a temporary one until
   * `expiresAt`, or (absent) one the user chose, which ends any temporary one's expiry.
   */
  setPasswordHash(partnerId: string, id: string, passwordHash: string, expiresAt?: Date): Promise<boolean>;
  /** Removes the user and every session of theirs; true when the partner had that user. */
  remove(partnerId: string, id: string): Promise<boolean>;
}
