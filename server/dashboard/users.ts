import { Router } from 'express';
import { changeRole, createUser, DEFAULT_TEMPORARY_PASSWORD_MS, removeUser, temporaryPassword } from '../domain/users/manage-users.ts';
import type { DashboardDeps } from './deps.ts';
import { field } from './form.ts';
import { requirePermission } from './permissions.ts';
import { signedOf, type Signed } from './signed.ts';
import { sendPage } from './views/shell.ts';
import { invitedPage, usersPage } from './views/users-page.ts';

/**
 * The users page (owners): invite with a temporary password shown once to the inviting owner (it
 * ends after `temporaryPasswordMs` and the invitee replaces it at the first sign-in), change a role,
 * remove. An address another partner also has a user for is invited like any other. The rules live in domain/users/manage-users.ts, shared with the key tool.
 */
export function userRoutes(deps: DashboardDeps): Router {
  const router = Router();
  const owners = requirePermission('users:manage');
  const actorOf = (s: Signed) => ({ kind: 'user' as const, id: s.user.id, display: s.user.email });
  const list = async (s: Signed, status: number, extra: { error?: string; notice?: string } = {}, res: Parameters<typeof sendPage>[0]) =>
    sendPage(res, status, usersPage(s, { users: await deps.storage.users.listByPartner(s.partner.id), ...extra }));

  router.get('/dashboard/users', owners, async (_req, res) => {
    await list(signedOf(res)!, 200, {}, res);
  });

  router.post('/dashboard/users', owners, async (req, res) => {
    const s = signedOf(res)!;
    const password = temporaryPassword();
    const created = await createUser(deps.storage, {
      partnerId: s.partner.id,
      email: field(req, 'email'),
      role: field(req, 'role'),
      password,
      actor: actorOf(s),
      action: 'user.invite',
      now: new Date(deps.clock.now()),
      temporaryForMs: deps.temporaryPasswordMs ?? DEFAULT_TEMPORARY_PASSWORD_MS,
    });
    if (!created.ok) return list(s, 400, { error: created.problem }, res);
    sendPage(res, 201, invitedPage(s, { user: created.user, password }));
  });

  router.post('/dashboard/users/:id/role', owners, async (req, res) => {
    const s = signedOf(res)!;
    const done = await changeRole(deps.storage, {
      partnerId: s.partner.id,
      userId: String(req.params.id),
      role: field(req, 'role'),
      actor: actorOf(s),
      now: new Date(deps.clock.now()),
    });
    if (!done.ok) return list(s, 400, { error: done.problem ?? 'Not changed.' }, res);
    done.revokedKeyHashes?.forEach((h) => deps.keyRevocations.changed(h));
    res.redirect(303, '/dashboard/users');
  });

  router.post('/dashboard/users/:id/remove', owners, async (req, res) => {
    const s = signedOf(res)!;
    const done = await removeUser(deps.storage, { partnerId: s.partner.id, userId: String(req.params.id), actor: actorOf(s), now: new Date(deps.clock.now()) });
    if (!done.ok) return list(s, 400, { error: done.problem ?? 'Not removed.' }, res);
    done.revokedKeyHashes?.forEach((h) => deps.keyRevocations.changed(h));
    res.redirect(303, '/dashboard/users');
  });
  return router;
}
