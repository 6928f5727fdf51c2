import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { OpenApiDoc } from '../http/openapi-docs.ts';
import { collectRouter } from './collect-page.ts';
import { limitByAddress } from '../http/rate-limit.ts';
import type { RateLimiter } from '../ports/rate-limiter.ts';
import { docsRouter } from './docs-page.ts';
import { setPageHeaders } from './page-csp.ts';
import { findPayment, pageState, paymentPageData, readPage, type PageDeps } from './payment-data.ts';
import { renderNotFoundPage, renderPaymentPage } from './payment-page.ts';
import { pageWalletRouter, type PageGatewayDeps } from './wallet-routes.ts';
import type { WalletChains } from './browser-wallet-section.ts';
import { renderWalletSections } from './wallet-sections.ts';
import type { ChainRegistry } from '../ports/chains.ts';

export type { PageDeps } from './payment-data.ts';

/** The page scripts and styles, read once: they are part of the service, never from a CDN. */
const STATIC_DIR = join(import.meta.dirname, 'static');
const STATIC_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
const staticFiles = new Map(
  ['pay.js', 'wallet.js', 'collect.js', 'pages.css', 'docs.css'].map((name) => [
    name,
    { body: readFileSync(join(STATIC_DIR, name)), type: STATIC_TYPES[name.slice(name.lastIndexOf('.'))]! },
  ]),
);

/** The path part of the pay base URL: '' when links are at a host's root (`https://pay.example/…`). */
export function payPathOf(payBaseUrl: string): string {
  return new URL(payBaseUrl).pathname.replace(/\/+$/, '');
}

/**
 * The buyer pages (payment page, its public state, the data-collection form, their assets) and the API reference, mounted
 * before the API's route table. Paths outside them fall through to the API (its 404).
 */
export function pagesRouter(
  deps: PageDeps & {
    docs: Map<string, OpenApiDoc>;
    collectDataSecret: string;
    rateLimiter?: RateLimiter;
    publicBaseUrl?: string;
    /** The gateway's use cases, for the page's browser-wallet routes; absent: the page offers no browser wallet. */
    gateway?: PageGatewayDeps;
    /** How a browser wallet adds an EVM chain it does not know (EIP-3085), per CAIP-2. */
    walletChains?: WalletChains;
    /** The chains, for the Solana Pay and phone-wallet sections. */
    chains?: ChainRegistry;
  },
): Router {
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

  // The pages read the database and need no key, so they count per address; only the pages
  // themselves, not their static assets, the API docs or routes mounted after them (the
  // sandbox's JSON-RPC). A refusal answers in the error shape, which the page script polling
  // `/state` reads as a pause.
  const limit: RequestHandler[] = deps.rateLimiter ? [limitByAddress(deps.rateLimiter)] : [];
  if (limit.length) router.use(`${payPath}/collect/`, ...limit);

  // Before `/:id`: the browser wallet's gateway calls, keyed by the payment id, counted per address.
  if (deps.gateway) router.use(pageWalletRouter(deps.gateway, payPath, limit));

  // Before `/:id`: the form of one option, reached only through its signed token.
  router.use(collectRouter(deps, payPath, assetBase));

  async function page(res: Response, raw: string | undefined) {
    // One read for the whole render (payment, merchant, settlements), passed down to each part.
    const read = await readPage(deps, raw);
    setPageHeaders(res);
    if (!read) return void res.status(404).send(renderNotFoundPage(assetBase));
    const data = paymentPageData(deps, read);
    const wallet = deps.gateway ? { apiBase: `${payPath}/_wallet`, chains: deps.walletChains ?? {} } : undefined;
    const walletSections = await renderWalletSections(deps, read);
    res.send(await renderPaymentPage(data, { assetBase, stateUrl: `${payPath}/${read.payment.id}/state`, ...(wallet ? { wallet } : {}), walletSections }));
  }

  /** At a host's root only `pay_…` ids are pages; under a pay path every id is (unknown ones get the 404 page). */
  const ours = (id: string) => payPath !== '' || id.startsWith('pay_');

  // Each route first checks the path is a page of ours, so nothing else is counted.
  const pidPage: RequestHandler = (req, _res, next) => next(typeof req.query.pid !== 'string' && payPath === '' ? 'route' : undefined);
  const idPage: RequestHandler = (req, _res, next) => next(ours(String(req.params.id)) ? undefined : 'route');
  router.get(`${payPath}/`, pidPage, ...limit, async (req: Request, res) => {
    await page(res, typeof req.query.pid === 'string' ? req.query.pid : undefined);
  });
  router.get(`${payPath}/:id`, idPage, ...limit, async (req, res) => {
    await page(res, String(req.params.id));
  });
  router.get(`${payPath}/:id/state`, idPage, ...limit, async (req, res) => {
    const p = await findPayment(deps, String(req.params.id));
    res.setHeader('Cache-Control', 'no-store');
    if (!p) return void res.status(404).json({ message: 'No payment with this id', code: 'payment_not_found' });
    res.json(pageState(p, deps));
  });

  router.use(docsRouter(deps.docs, { assetBase, publicBaseUrl: deps.publicBaseUrl ?? new URL(deps.payBaseUrl).origin }));
  return router;
}
