import type { StoragePort } from '../../ports/storage/index.ts';
import { temporaryPasswordExpired } from './manage-users.ts';
import { verifyPasswordAmong } from './passwords.ts';
import type { UserRecord } from './records.ts';

/**
 * The accounts of one address sign-in looks at (one per partner, oldest first). A person with
 * accounts at more partners than this signs in to the oldest ones only.
 */
export const MAX_ACCOUNTS_PER_EMAIL = 50;

export type SignInOutcome =
  /** No account of this address has this password: one answer for an unknown address and a wrong password. */
  | { kind: 'wrong' }
  /** The password is right but only as a temporary one past its end. */
  | { kind: 'expired' }
  | { kind: 'signed'; user: UserRecord }
  /** The same password opens accounts at several partners: the person chooses one. */
  | { kind: 'choose'; users: UserRecord[] };

/**
 * Which account an email and password open. An address may have an account at several partners
 * (issue 30 item 5), each with its own password: the one whose password matches is signed in to.
 * Their hashes share a salt, so this costs one scrypt however many accounts the address has (and
 * one for an unknown address): neither the answer nor its time says whether the address has
 * accounts at other partners. `partnerId` picks among several accounts the password opens.
 */
export async function findAccount(
  storage: Pick<StoragePort, 'users'>,
  opts: { email: string; password: string; partnerId?: string | undefined; now: Date },
): Promise<SignInOutcome> {
  const candidates = opts.email ? await storage.users.listByEmail(opts.email, MAX_ACCOUNTS_PER_EMAIL) : [];
  const verified = await verifyPasswordAmong(
    opts.password,
    candidates.map((u) => u.passwordHash),
  );
  const opened = candidates.filter((_, i) => verified[i]);
  const live = opened.filter((u) => !temporaryPasswordExpired(u, opts.now));
  if (!live.length) return opened.length ? { kind: 'expired' } : { kind: 'wrong' };
  const chosen = live.length === 1 ? live[0] : live.find((u) => u.partnerId === opts.partnerId);
  return chosen ? { kind: 'signed', user: chosen } : { kind: 'choose', users: live };
}
