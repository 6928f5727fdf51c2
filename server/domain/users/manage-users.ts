import { randomBytes } from 'node:crypto';
import { newId } from '../ids.ts';
import { recordAudit } from '../audit/recorder.ts';
import type { AuditActor } from '../audit/records.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import { revokeKeysBeyondRole } from './creator-keys.ts';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import { isRole, type Role, type SessionRecord, type UserRecord } from './records.ts';

/**
 * Creating, re-roling and removing dashboard users: the one implementation the key tool and the
 * dashboard's users page share. Every change is written to the audit log by whoever made it.
 */
type Store = Pick<StoragePort, 'users' | 'partners' | 'auditLog' | 'sessions' | 'apiKeys'>;

/** The server operator, for users the key tool creates (no dashboard user exists yet). */
export const OPERATOR: AuditActor = { kind: 'user', id: 'operator', display: 'server operator (key tool)' };

const EMAIL = /^[^\s@<>()"',;]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export const emailProblem = (email: string): string | null => (email.length <= 254 && EMAIL.test(email) ? null : 'Enter a valid email address.');

export type CreateUserResult = { ok: true; user: UserRecord } | { ok: false; problem: string };

/** A hash of `password` sharing the salt of this address's other accounts (see hashPassword). */
async function hashForEmail(storage: Store, email: string, password: string): Promise<string> {
  const [oldest] = await storage.users.listByEmail(email, 1);
  return hashPassword(password, { saltOf: oldest?.passwordHash });
}

export async function createUser(
  storage: Store,
  opts: {
    partnerId: string;
    email: string;
    role: string;
    password: string;
    actor: AuditActor;
    action?: 'user.create' | 'user.invite';
    now?: Date;
    /**
     * The password was chosen by someone else (an owner's invitation, the operator's key tool): it
     * ends this long after creation and must be replaced at the first sign-in. Absent: permanent
     * (the sandbox's first owner).
     */
    temporaryForMs?: number;
  },
): Promise<CreateUserResult> {
  const email = opts.email.trim().toLowerCase();
  const problem = emailProblem(email) ?? (isRole(opts.role) ? null : 'The role must be owner, developer or viewer.') ?? passwordProblem(opts.password);
  if (problem) return { ok: false, problem };
  if (!(await storage.partners.get(opts.partnerId))) return { ok: false, problem: `No partner ${opts.partnerId}.` };
  const now = opts.now ?? new Date();
  const user: UserRecord = {
    id: newId('user', now.getTime()),
    partnerId: opts.partnerId,
    email,
    role: opts.role as Role,
    passwordHash: await hashForEmail(storage, email, opts.password),
    ...(opts.temporaryForMs !== undefined ? { passwordExpiresAt: new Date(now.getTime() + opts.temporaryForMs) } : {}),
    createdAt: now,
  };
  const created = await storage.users.create(user);
  let made = user;
  if (!created.ok) {
    // Only this partner's own users collide (listed on its users page already): whether the address
    // has an account at another partner changes nothing here. Inviting again someone who never
    // replaced their temporary password (it may have expired) gives them a new one: the inviting
    // owner chose the old one too, so nothing of the invitee's is taken over.
    const again = opts.action === 'user.invite' && user.passwordExpiresAt ? await reinvite(storage, user) : undefined;
    if (!again) return { ok: false, problem: 'This partner already has a user with this email.' };
    made = again;
  }
  await recordAudit(storage.auditLog, {
    partnerId: made.partnerId,
    actor: opts.actor,
    action: opts.action ?? 'user.create',
    target: { type: 'user', id: made.id },
    at: now,
    detail: {
      email,
      role: made.role,
      ...(made.passwordExpiresAt ? { temporaryPasswordUntil: made.passwordExpiresAt.toISOString() } : {}),
      ...(made !== user ? { again: true } : {}),
    },
  });
  return { ok: true, user: made };
}

/** The partner's user with `fresh`'s email, given `fresh`'s temporary password and role, if theirs is still temporary. */
async function reinvite(storage: Store, fresh: UserRecord): Promise<UserRecord | undefined> {
  const existing = (await storage.users.listByPartner(fresh.partnerId)).find((u) => u.email === fresh.email);
  if (!existing?.passwordExpiresAt) return undefined;
  await storage.users.setPasswordHash(existing.partnerId, existing.id, fresh.passwordHash, fresh.passwordExpiresAt);
  // No keys to revoke: a user with a temporary password can do nothing but replace it.
  await storage.users.setRole(existing.partnerId, existing.id, fresh.role);
  await storage.sessions.removeAllForUser(existing.id);
  return { ...existing, role: fresh.role, passwordHash: fresh.passwordHash, ...(fresh.passwordExpiresAt ? { passwordExpiresAt: fresh.passwordExpiresAt } : {}) };
}

/** TEMPORARY_PASSWORD_HOURS' default: long enough to hand a password over a weekend, short enough that a forgotten one dies. */
export const DEFAULT_TEMPORARY_PASSWORD_MS = 72 * 3_600_000;

export const TEMPORARY_EXPIRED = 'This temporary password has expired. Ask an owner of your partner to invite you again.';

export const temporaryPasswordExpired = (user: Pick<UserRecord, 'passwordExpiresAt'>, now: Date): boolean => !!user.passwordExpiresAt && user.passwordExpiresAt <= now;

/** A temporary password for an invited user, shown once to the owner who hands it over. */
export const temporaryPassword = (): string => randomBytes(15).toString('base64url');

export async function changeRole(
  storage: Store,
  opts: { partnerId: string; userId: string; role: string; actor: AuditActor; now?: Date },
): Promise<{ ok: boolean; problem?: string; revokedKeyHashes?: string[] }> {
  if (!isRole(opts.role)) return { ok: false, problem: 'The role must be owner, developer or viewer.' };
  // An owner cannot demote themselves: a partner would otherwise be left with no owner by one click.
  if (opts.userId === opts.actor.id) return { ok: false, problem: 'You cannot change your own role.' };
  const before = await storage.users.get(opts.partnerId, opts.userId);
  if (!before || !(await storage.users.setRole(opts.partnerId, opts.userId, opts.role))) return { ok: false, problem: 'No such user.' };
  // A demoted user's open sessions would keep the old role's pages open: they sign in again.
  await storage.sessions.removeAllForUser(opts.userId);
  await recordAudit(storage.auditLog, {
    partnerId: opts.partnerId,
    actor: opts.actor,
    action: 'user.role_change',
    target: { type: 'user', id: opts.userId },
    at: opts.now ?? new Date(),
    detail: { email: before.email, from: before.role, to: opts.role },
  });
  const now = opts.now ?? new Date();
  const revokedKeyHashes = await revokeKeysBeyondRole(storage, { partnerId: opts.partnerId, userId: opts.userId, role: opts.role, actor: opts.actor, now });
  return { ok: true, revokedKeyHashes };
}

export async function removeUser(
  storage: Store,
  opts: { partnerId: string; userId: string; actor: AuditActor; now?: Date },
): Promise<{ ok: boolean; problem?: string; revokedKeyHashes?: string[] }> {
  if (opts.userId === opts.actor.id) return { ok: false, problem: 'You cannot remove yourself.' };
  const before = await storage.users.get(opts.partnerId, opts.userId);
  if (!before || !(await storage.users.remove(opts.partnerId, opts.userId))) return { ok: false, problem: 'No such user.' };
  await recordAudit(storage.auditLog, {
    partnerId: opts.partnerId,
    actor: opts.actor,
    action: 'user.remove',
    target: { type: 'user', id: opts.userId },
    at: opts.now ?? new Date(),
    detail: { email: before.email, role: before.role },
  });
  const revokedKeyHashes = await revokeKeysBeyondRole(storage, { partnerId: opts.partnerId, userId: opts.userId, role: null, actor: opts.actor, now: opts.now ?? new Date() });
  return { ok: true, revokedKeyHashes };
}

/**
 * A user changes their own password: the current one must match. Every other session of theirs
 * ends (someone who knew the old password is signed out); `keepSession` is the one in use.
 */
export async function changePassword(
  storage: Store,
  opts: { user: UserRecord; current: string; next: string; keepSession: SessionRecord; now?: Date },
): Promise<{ ok: true } | { ok: false; problem: string }> {
  const now = opts.now ?? new Date();
  if (!(await verifyPassword(opts.current, opts.user.passwordHash))) return { ok: false, problem: 'The current password is not right.' };
  // A temporary password past its end opens nothing, this form included (a session begun before
  // its end is no way around it).
  if (temporaryPasswordExpired(opts.user, now)) return { ok: false, problem: TEMPORARY_EXPIRED };
  const problem = passwordProblem(opts.next);
  if (problem) return { ok: false, problem };
  if (opts.next === opts.current) return { ok: false, problem: 'The new password must differ from the current one.' };
  // A password the user chose: permanent (the temporary one's end is cleared).
  await storage.users.setPasswordHash(opts.user.partnerId, opts.user.id, await hashForEmail(storage, opts.user.email, opts.next));
  await storage.sessions.removeAllForUser(opts.user.id);
  await storage.sessions.create(opts.keepSession);
  await recordAudit(storage.auditLog, {
    partnerId: opts.user.partnerId,
    actor: { kind: 'user', id: opts.user.id, display: opts.user.email },
    action: 'user.password_change',
    target: { type: 'user', id: opts.user.id },
    at: now,
    detail: opts.user.passwordExpiresAt ? { replaced: 'temporary password' } : {},
  });
  return { ok: true };
}
