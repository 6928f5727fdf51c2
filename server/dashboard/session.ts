import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { DEFAULT_SESSION_POLICY, hashSessionToken, sessionAlive, shouldTouch } from '../domain/users/sessions.ts';
import type { DashboardDeps } from './deps.ts';
import { sendErrorPage } from './views/error-page.ts';
import { signedOf, type Signed } from './signed.ts';

/**
 * Over HTTPS the cookie takes the `__Host-` prefix, which browsers accept only with Secure,
 * Path=/ and no Domain: no sibling subdomain can plant or shadow it. Over plain HTTP (a developer's
 * sandbox on localhost) it cannot be Secure, so it goes without the prefix.
 */
const cookieName = (req: Request, base: string) => (req.secure ? `__Host-${base}` : base);
export const SESSION_COOKIE = 'mps_session';
/** The sign-in form's token before any session exists (double submit: cookie and field must match). */
export const PRE_SESSION_COOKIE = 'mps_signin';

export function readCookie(req: Request, base: string): string | undefined {
  const name = cookieName(req, base);
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function setCookie(req: Request, res: Response, base: string, value: string, maxAgeS: number): void {
  const attrs = [`${cookieName(req, base)}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeS}`, ...(req.secure ? ['Secure'] : [])];
  res.append('Set-Cookie', attrs.join('; '));
}

export const clearCookie = (req: Request, res: Response, base: string) => setCookie(req, res, base, '', 0);

export const sameToken = (a: string | undefined, b: string): boolean => {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
};

/** A token for the sign-in form, reusing the browser's if it has one. */
export function preSessionToken(req: Request, res: Response): string {
  const have = readCookie(req, PRE_SESSION_COOKIE);
  if (have && /^[A-Za-z0-9_-]{43}$/.test(have)) return have;
  const token = randomBytes(32).toString('base64url');
  setCookie(req, res, PRE_SESSION_COOKIE, token, 3600);
  return token;
}

/**
 * Cross-site POSTs are refused before their token is even read: the Origin a browser sends must
 * be this service's own. The pages' `no-referrer` policy makes Chromium send `Origin: null` on
 * form posts, so then Fetch Metadata decides: it must say same-origin. Without either header (not
 * a browser, or a very old one) the token alone decides. (SameSite=Strict cookies already stay
 * home; this also covers the sign-in form, which has no session yet.)
 */
export function sameOrigin(req: Request): boolean {
  const origin = req.get('origin');
  const site = req.get('sec-fetch-site');
  if (origin !== undefined && origin !== 'null') return origin === `${req.protocol}://${req.host}`;
  if (origin === 'null') return site === 'same-origin';
  return site === undefined || site === 'same-origin' || site === 'none';
}

/** Finds the request's live session, its user and partner; expired or orphaned sessions are removed. */
export function loadSession(deps: DashboardDeps): RequestHandler {
  const policy = deps.sessionPolicy ?? DEFAULT_SESSION_POLICY;
  return async (req, res, next) => {
    try {
      const token = readCookie(req, SESSION_COOKIE);
      if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return next();
      const idHash = hashSessionToken(token);
      const session = await deps.storage.sessions.find(idHash);
      if (!session) return next();
      const now = new Date(deps.clock.now());
      const user = sessionAlive(session, now, policy) ? await deps.storage.users.get(session.partnerId, session.userId) : null;
      const partner = user ? await deps.storage.partners.get(user.partnerId) : null;
      if (!user || !partner) {
        await deps.storage.sessions.remove(idHash);
        clearCookie(req, res, SESSION_COOKIE);
        return next();
      }
      if (shouldTouch(session, now)) await deps.storage.sessions.touch(idHash, now);
      res.locals.dashboard = { user, session, partner, sandbox: deps.mode === 'sandbox' } satisfies Signed;
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** Pages behind sign-in: a GET goes to the sign-in page, anything else is refused. */
export const requireSignIn: RequestHandler = (req, res, next) => {
  if (signedOf(res)) return next();
  if (req.method === 'GET' || req.method === 'HEAD') return void res.redirect(303, '/dashboard/sign-in');
  sendErrorPage(res, 403, 'Sign in first', 'Your session has ended. Sign in again.');
};

/** Every POST of a signed-in page: same origin, and the session's own CSRF token in `_csrf`. */
export const checkCsrf: RequestHandler = (req, res, next) => {
  if (req.method !== 'POST') return next();
  const signed = signedOf(res);
  const field = (req.body as Record<string, unknown> | undefined)?._csrf;
  if (!sameOrigin(req) || !signed || !sameToken(typeof field === 'string' ? field : undefined, signed.session.csrfToken)) {
    return sendErrorPage(res, 403, 'Request refused', 'This form was not sent from a page of this dashboard, or it has expired. Reload the page and try again.');
  }
  next();
};
