import { Router } from 'express';
import { changePassword } from '../domain/users/manage-users.ts';
import type { DashboardDeps } from './deps.ts';
import { field } from './form.ts';
import { signedOf } from './signed.ts';
import { signInWait } from './throttle.ts';
import { accountPage } from './views/account-page.ts';
import { sendPage } from './views/shell.ts';

/** Every user's own account: change the password (an invited user replaces the temporary one here). */
export function accountRoutes(deps: DashboardDeps): Router {
  const router = Router();
  router.get('/dashboard/account', (_req, res) => {
    sendPage(res, 200, accountPage(signedOf(res)!, {}));
  });
  router.post('/dashboard/account/password', async (req, res) => {
    const s = signedOf(res)!;
    // The current-password check is a password guess like a sign-in (and a 32 MiB scrypt): the same
    // limiters at the same rates, an account bucket of its own (issue 30 item 5).
    const waitMs = await signInWait(deps, req, s.user.email, 'pwchange');
    if (waitMs !== null) {
      res.setHeader('Retry-After', String(Math.ceil(waitMs / 1000)));
      return sendPage(res, 429, accountPage(s, { error: `Too many attempts. Try again in ${Math.max(1, Math.ceil(waitMs / 60_000))} minute(s).` }));
    }
    const done = await changePassword(deps.storage, {
      user: s.user,
      current: field(req, 'current').slice(0, 256),
      next: field(req, 'next').slice(0, 1024),
      keepSession: s.session,
      now: new Date(deps.clock.now()),
    });
    if (!done.ok) return sendPage(res, 400, accountPage(s, { error: done.problem }));
    // A temporary password replaced: the rest of the dashboard opens.
    if (s.user.passwordExpiresAt) return res.redirect(303, '/dashboard/keys');
    sendPage(res, 200, accountPage(s, { notice: 'Password changed. Your other sessions were signed out.' }));
  });
  return router;
}
