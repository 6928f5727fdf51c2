import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router, type Request, type Response } from 'express';
import type { OpenApiDoc } from '../http/openapi-docs.ts';
import { collectRouter } from './collect-page.ts';
import { limitByAddress } from '../http/rate-limit.ts';
import type { RateLimiter } from '../ports/rate-limiter.ts';
import { docsRouter } from './docs-page.ts';
import { setPageHeaders } from './page-csp.ts';
import { findPayment, pageState, paymentPageData, type PageDeps } from './payment-data.ts';
import { renderNotFoundPage, renderPaymentPage } from './payment-page.ts';

export type { PageDeps } from './payment-data.ts';

/** The page scripts and styles, read once: they are part of the service, never from a CDN. */
const STATIC_DIR = join(import.meta.dirname, 'static');
const STATIC_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
const staticFiles = new Map(
  ['pay.js', 'collect.js', 'pages.css', 'docs.css'].map((name) => [name, { body: readFileSync(join(STATIC_DIR, name)), type: STATIC_TYPES[name.slice(name.lastIndexOf('.'))]! }]),
);

/** The path part of the pay base URL: '' when links are at a host's root (`https://pay.example/…`). */
export function payPathOf(payBaseUrl: string): string {
  return new URL(payBaseUrl).pathname.replace(/\/+$/, '');
}

/**
 * The buyer pages (payment page, its public state, the data-collection form, their assets) and the API reference, mounted
 * before the API's route table. Paths outside them fall through to the API (its 404).
 */
export function pagesRouter(deps: PageDeps & { docs: Map<string, OpenApiDoc>; collectDataSecret: string; rateLimiter?: RateLimiter }): Router {
  const payPath = payPathOf(deps.payBaseUrl);
  const assetBase = `${payPath}/_assets`;
  const router = Router();

  router.get(`${assetBase}/:file`, (req, res, next) => {
    const file = staticFiles.get(String(req.params.file));
    if (!file) return next();
    res.setHeader('Content-Type', file.type);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.send(file.body);
  });

  // The pages read the database and need no key, so they count per address (after the static
  // assets, which cost nothing); a refusal answers in the error shape, which the page script
  // polling `/state` reads as a pause.
  if (deps.rateLimiter) router.use(limitByAddress(deps.rateLimiter));

  // Before `/:id`: the form of one option, reached only through its signed token.
  router.use(collectRouter(deps, payPath, assetBase));

  async function page(res: Response, raw: string | undefined) {
    const p = await findPayment(deps, raw);
    setPageHeaders(res);
    if (!p) return void res.status(404).send(renderNotFoundPage(assetBase));
    const data = await paymentPageData(deps, p);
    res.send(await renderPaymentPage(data, { assetBase, stateUrl: `${payPath}/${p.id}/state` }));
  }

  /** At a host's root only `pay_…` ids are pages; under a pay path every id is (unknown ones get the 404 page). */
  const ours = (id: string) => payPath !== '' || id.startsWith('pay_');

  router.get(`${payPath}/`, async (req: Request, res, next) => {
    const pid = typeof req.query.pid === 'string' ? req.query.pid : undefined;
    if (pid === undefined && payPath === '') return next();
    await page(res, pid);
  });
  router.get(`${payPath}/:id`, async (req, res, next) => {
    if (!ours(req.params.id)) return next();
    await page(res, req.params.id);
  });
  router.get(`${payPath}/:id/state`, async (req, res, next) => {
    if (!ours(req.params.id)) return next();
    const p = await findPayment(deps, req.params.id);
    res.setHeader('Cache-Control', 'no-store');
    if (!p) return void res.status(404).json({ message: 'No payment with this id', code: 'payment_not_found' });
    res.json(pageState(p, deps));
  });

  router.use(docsRouter(deps.docs, assetBase));
  return router;
}
