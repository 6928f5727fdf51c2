import { Router } from 'express';
import { recordAudit } from '../domain/audit/recorder.ts';
import { TEMPORARY_EXPIRED } from '../domain/users/manage-users.ts';
import { findAccount } from '../domain/users/sign-in.ts';
import { DEFAULT_SESSION_POLICY, hashSessionToken, newSession } from '../domain/users/sessions.ts';
import type { DashboardDeps } from './deps.ts';
import { signInWait as waitOf } from './throttle.ts';
import { clearCookie, PRE_SESSION_COOKIE, preSessionToken, readCookie, requireSignIn, sameOrigin, sameToken, SESSION_COOKIE, setCookie } from './session.ts';
import { signedOf } from './signed.ts';
import { field } from './form.ts';
import { sendErrorPage } from './views/error-page.ts';
import { sendPage } from './views/shell.ts';
import { chooseAccountPage, signInPage } from './views/sign-in-page.ts';

/** One message for an unknown email and a wrong password: the page must not tell which emails have accounts. */
const WRONG = 'Email or password is incorrect.';

/** Sign in, sign out, sign out everywhere. */
export function signInRoutes(deps: DashboardDeps): Router {
  const policy = deps.sessionPolicy ?? DEFAULT_SESSION_POLICY;
  const router = Router();

  router.get('/dashboard/sign-in', (req, res) => {
    if (signedOf(res)) return void res.redirect(303, '/dashboard/keys');
    sendPage(res, 200, signInPage({ token: preSessionToken(req, res) }));
  });

  router.post('/dashboard/sign-in', async (req, res) => {
    const email = field(req, 'email').trim().toLowerCase().slice(0, 254);
    const password = field(req, 'password').slice(0, 256);
    const cookieToken = readCookie(req, PRE_SESSION_COOKIE);
    if (!sameOrigin(req) || !cookieToken || !sameToken(field(req, '_csrf'), cookieToken)) {
      return sendErrorPage(res, 403, 'Request refused', 'This form was not sent from the sign-in page, or it has expired. Reload the page and try again.');
    }
    const again = (status: number, error: string) => sendPage(res, status, signInPage({ token: cookieToken, email, error }));
    const waitMs = await waitOf(deps, req, email);
    if (waitMs !== null) {
      res.setHeader('Retry-After', String(Math.ceil(waitMs / 1000)));
      return again(429, `Too many sign-in attempts. Try again in ${Math.max(1, Math.ceil(waitMs / 60_000))} minute(s).`);
    }
    const now = new Date(deps.clock.now());
    // One scrypt whether the address has no account, one, or one at each of several partners.
    const found = await findAccount(deps.storage, { email, password, partnerId: field(req, 'partner') || undefined, now });
    if (found.kind === 'wrong') return again(401, WRONG);
    if (found.kind === 'expired') return again(401, TEMPORARY_EXPIRED);
    if (found.kind === 'choose') {
      // Only someone holding the password of every account listed sees their partners' names.
      const partners = await Promise.all(found.users.map(async (u) => ({ id: u.partnerId, name: (await deps.storage.partners.get(u.partnerId))?.name ?? u.partnerId })));
      return sendPage(res, 200, chooseAccountPage({ token: cookieToken, email, password, partners }));
    }
    const user = found.user;
    const { token, record } = newSession(user, now, policy);
    await deps.storage.sessions.create(record);
    // Sessions nobody comes back to are never seen again by loadSession: each sign-in sweeps them.
    await deps.storage.sessions.removeExpired(now, new Date(now.getTime() - policy.idleMs));
    await recordAudit(deps.storage.auditLog, {
      partnerId: user.partnerId,
      actor: { kind: 'user', id: user.id, display: user.email },
      action: 'session.sign_in',
      target: { type: 'user', id: user.id },
      at: now,
      detail: {},
    });
    setCookie(req, res, SESSION_COOKIE, token, Math.floor(policy.absoluteMs / 1000));
    clearCookie(req, res, PRE_SESSION_COOKIE);
    // A temporary password is replaced before anything else (requireOwnPassword holds the rest).
    res.redirect(303, user.passwordExpiresAt ? '/dashboard/account' : '/dashboard/keys');
  });

  router.post('/dashboard/sign-out', requireSignIn, async (req, res) => {
    const token = readCookie(req, SESSION_COOKIE);
    if (token) await deps.storage.sessions.remove(hashSessionToken(token));
    clearCookie(req, res, SESSION_COOKIE);
    res.redirect(303, '/dashboard/sign-in');
  });

  router.post('/dashboard/sign-out-everywhere', requireSignIn, async (req, res) => {
    const { user } = signedOf(res)!;
    const removed = await deps.storage.sessions.removeAllForUser(user.id);
    await recordAudit(deps.storage.auditLog, {
      partnerId: user.partnerId,
      actor: { kind: 'user', id: user.id, display: user.email },
      action: 'session.sign_out_everywhere',
      target: { type: 'user', id: user.id },
      at: new Date(deps.clock.now()),
      detail: { sessions: removed },
    });
    clearCookie(req, res, SESSION_COOKIE);
    res.redirect(303, '/dashboard/sign-in');
  });
  return router;
}
