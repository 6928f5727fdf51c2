import type { RequestHandler } from 'express';
import { signedOf } from './signed.ts';
import { sendErrorPage } from './views/error-page.ts';

const OPEN_TO_TEMPORARY = new Set(['/dashboard/account', '/dashboard/account/password']);

/**
 * A user signed in with a temporary password (an owner's invitation, the key tool's) replaces it
 * before anything else (issue 30 item 5): every other page sends them to their account page, every
 * other form is refused. Whoever handed the password over knows it; until it is replaced, nothing
 * done in the dashboard is the invitee's alone. Signing out stays open (its routes come first).
 */
export const requireOwnPassword: RequestHandler = (req, res, next) => {
  if (!signedOf(res)?.user.passwordExpiresAt || OPEN_TO_TEMPORARY.has(req.path)) return next();
  if (req.method === 'GET' || req.method === 'HEAD') return void res.redirect(303, '/dashboard/account');
  sendErrorPage(res, 403, 'Choose your password first', 'You signed in with a temporary password: replace it on your account page before anything else.');
};
