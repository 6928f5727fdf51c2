import type { RequestHandler } from 'express';
import { can, type Permission } from '../domain/users/permissions.ts';
import { signedOf } from './signed.ts';
import { sendErrorPage } from './views/error-page.ts';

/** Refuses (403 page) a signed-in user whose role lacks `permission`; the same table hides the buttons. */
export function requirePermission(permission: Permission): RequestHandler {
  return (_req, res, next) => {
    const s = signedOf(res);
    if (s && can(s.user.role, permission)) return next();
    sendErrorPage(res, 403, 'Not allowed', `Your role (${s?.user.role ?? 'none'}) cannot do this. Ask an owner of this account.`);
  };
}
