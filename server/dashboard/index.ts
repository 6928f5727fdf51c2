import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';
import type { DashboardDeps } from './deps.ts';
import { accountRoutes } from './account.ts';
import { auditRoutes } from './audit.ts';
import { keyRoutes } from './keys.ts';
import { merchantRoutes } from './merchants.ts';
import { settlementRoutes } from './settlements.ts';
import { paymentRoutes } from './payments.ts';
import { paymentCsvRoutes } from './payment-csv.ts';
import { checkCsrf, loadSession, requireSignIn } from './session.ts';
import { signInRoutes } from './sign-in.ts';
import { requireOwnPassword } from './own-password.ts';
import { userRoutes } from './users.ts';
import { webhookRoutes } from './webhooks.ts';
import { settingsRoutes } from './settings.ts';
import { sendErrorPage } from './views/error-page.ts';
import { requestIssues } from '../http/hostile-input.ts';

/** The path as routes will see it, or undefined when it does not decode (a stray % or bad UTF-8). */
function decodedPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

export type { DashboardOptions } from './deps.ts';

/** The dashboard's own script and style, read once: served by this service, never a CDN. */
const STATIC_DIR = join(import.meta.dirname, 'static');
const assets = new Map(
  [
    ['dashboard.js', 'text/javascript; charset=utf-8'],
    ['dashboard.css', 'text/css; charset=utf-8'],
  ].map(([name, type]) => [name!, { body: readFileSync(join(STATIC_DIR, name!)), type: type! }]),
);

/**
 * The partner dashboard under /dashboard: server-rendered pages behind a server-side session.
 * Order: assets → form body (small, flat) → session → CSRF on every POST but sign-in's (which
 * checks its own pre-session token) → sign-in routes → everything else needs a session.
 */
export function dashboardRouter(deps: DashboardDeps): Router {
  const router = Router();
  router.get('/dashboard/_assets/:file', (req, res, next) => {
    const file = assets.get(String(req.params.file));
    if (!file) return next();
    res.setHeader('Content-Type', file.type);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.send(file.body);
  });
  const dash = Router();
  dash.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }));
  // The API's hostile-input check on every dashboard path, query and form (issue 30 item 4): a NUL
  // or a lone surrogate reaching PostgreSQL was a 500 (sign-in, list filters, forms).
  dash.use((req, res, next) => {
    const issues = requestIssues(req, { path: decodedPath(req.path) ?? '\u0000' });
    if (!issues.length) return next();
    sendErrorPage(res, 400, 'Bad request', `Some of what was sent cannot be read (${issues[0]!.field} ${issues[0]!.message}). Reload the page and try again.`);
  });
  dash.use(loadSession(deps));
  dash.use((req, res, next) => (req.method === 'POST' && req.path !== '/dashboard/sign-in' ? checkCsrf(req, res, next) : next()));
  dash.use(signInRoutes(deps));
  dash.get('/dashboard', (_req, res) => res.redirect(303, '/dashboard/keys'));
  dash.use(requireSignIn);
  dash.use(requireOwnPassword);
  dash.use(keyRoutes(deps));
  dash.use(webhookRoutes(deps));
  dash.use(userRoutes(deps));
  dash.use(auditRoutes(deps));
  dash.use(settingsRoutes(deps));
  dash.use(accountRoutes(deps));
  dash.use(merchantRoutes(deps));
  dash.use(settlementRoutes(deps));
  dash.use(paymentCsvRoutes(deps));
  dash.use(paymentRoutes(deps));
  dash.use((_req, res) => sendErrorPage(res, 404, 'Not found', 'There is no such dashboard page.'));
  // A malformed or oversized form answers a page, never the API's JSON or a stack trace.
  dash.use(((err, _req, res, next) => {
    const status = (err as { status?: number }).status;
    if (res.headersSent) return next(err);
    if (status && status >= 400 && status < 500) return sendErrorPage(res, status, 'Bad request', 'The form could not be read. Reload the page and try again.');
    next(err);
  }) as express.ErrorRequestHandler);
  router.use((req, res, next) => (req.path === '/dashboard' || req.path.startsWith('/dashboard/') ? dash(req, res, next) : next()));
  return router;
}
