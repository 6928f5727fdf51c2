import type { Role, UserRecord } from '../../domain/users/records.ts';

/** Dashboard users. Emails are unique across partners; every other read and write names the partner. */
export interface UserRepository {
  /** Refused when the (lower-cased) email already has a user, in any partner. */
  create(user: UserRecord): Promise<{ ok: true } | { ok: false; reason: 'email_taken' }>;
  /** The user with this email (matched lower-cased), for signing in. */
  findByEmail(email: string): Promise<UserRecord | null>;
  get(partnerId: string, id: string): Promise<UserRecord | null>;
  /** Oldest first. */
  listByPartner(partnerId: string): Promise<UserRecord[]>;
  /** True when the partner's user existed and now has `role`. */
  setRole(partnerId: string, id: string, role: Role): Promise<boolean>;
  /** True when the partner's user existed and now has this password hash. */
  setPasswordHash(partnerId: string, id: string, passwordHash: string): Promise<boolean>;
  /** Removes the user and every session of theirs; true when the partner had that user. */
  remove(partnerId: string, id: string): Promise<boolean>;
}
