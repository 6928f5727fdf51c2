import type { Request } from 'express';
import type { DashboardDeps } from './deps.ts';

/**
 * How long a password check for `email` from this request's address must wait (ms), or null when it
 * may go ahead: sign-in and the change-password form's current-password check alike. The address is
 * asked first and the account only when the address allows, so a refused address takes no account
 * token: one address cannot spend (or, without Redis, fill and reset) other accounts' buckets.
 * `kind` keeps the change-password form's account bucket apart from sign-in's, at the same rate, so
 * a signed-in user's typos do not lock their own sign-in.
 */
export async function signInWait(deps: Pick<DashboardDeps, 'signInLimiters'>, req: Request, email: string, kind: 'acct' | 'pwchange' = 'acct'): Promise<number | null> {
  const address = await deps.signInLimiters.perAddress.take(`addr:${req.ip ?? 'unknown'}`);
  if (!address.allowed) return address.retryAfterMs;
  const account = await deps.signInLimiters.perAccount.take(`${kind}:${email}`);
  return account.allowed ? null : account.retryAfterMs;
}
