import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Router, type Response } from 'express';
import type { OpenApiDoc } from '../http/openapi-docs.ts';
import { esc, layout } from './html.ts';

/**
 * Redoc's standalone bundle, served from this service (never a CDN), read once. Redoc renders the
 * markdown of the documents' descriptions, their examples and schemas. The 2.5 line is chosen
 * because its bundle asks no other host for anything (3.x fetches icons from a CDN and reports
 * telemetry) but one thing: the menu footer's logo image, hard-coded to Redocly's CDN. That one
 * address is pointed at an empty inline image so the CSP has nothing to block; the footer's
 * "API docs by Redocly" credit stays. The browser test fails if a new version adds another.
 */
const REDOC_BUNDLE = readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'), 'utf8').replace(
  'https://cdn.redoc.ly/redoc/logo-mini.svg',
  'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E',
);

/**
 * The reference pages' own policy, confined to `/docs`: Redoc injects its styles at run time
 * (styled-components) and runs its search index in a worker it makes from a blob. Scripts still
 * come only from this service, and the page reads only this service's documents.
 */
function setDocsHeaders(res: Response): void {
  res.setHeader(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "worker-src 'self' blob:",
      "form-action 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  );
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
}

/**
 * `/docs`: the API reference of every version, rendered by Redoc from the documents the service
 * validates against; `/docs/<version>/openapi.json` is the document itself, for tools and
 * client generators, with `servers` set to this deployment's `PUBLIC_BASE_URL`.
 */
export function docsRouter(docs: Map<string, OpenApiDoc>, opts: { assetBase: string; publicBaseUrl: string }): Router {
  const versions = [...docs.keys()].sort();
  const served = new Map([...docs].map(([v, d]) => [v, { ...d, servers: [{ url: opts.publicBaseUrl, description: 'This deployment' }] }]));
  const bundle = '/docs/_assets/redoc.standalone.js';
  const index = layout({
    title: 'API reference',
    styles: [`${opts.assetBase}/docs.css`],
    body: `<main><h1>API reference</h1><p>One reference per API version (send it in <code>Svc-Version</code>).</p><ul>${versions.map((v) => `<li><a href="/docs/${esc(v)}">${esc(v)}</a> · <a href="/docs/${esc(v)}/openapi.json">openapi.json</a></li>`).join('')}</ul></main>`,
  });
  const page = (v: string) =>
    layout({
      title: `API reference ${v}`,
      styles: [`${opts.assetBase}/docs.css`],
      scripts: [bundle],
      bodyAttrs: ' class="redoc-page"',
      body: `${versionNav(versions, v)}<noscript><p>The reference needs JavaScript; <a href="/docs/${esc(v)}/openapi.json">the OpenAPI document</a> has all of it.</p></noscript><redoc spec-url="/docs/${esc(v)}/openapi.json" expand-responses="200,201,202" required-props-first="true" sort-tags-alphabetically="false" hide-hostname="false" native-scrollbars="true"></redoc>`,
    });
  const router = Router();
  router.get('/docs', (_req, res) => {
    setDocsHeaders(res);
    res.send(index);
  });
  router.get(bundle, (_req, res) => {
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.send(REDOC_BUNDLE);
  });
  router.get('/docs/:version', (req, res, next) => {
    if (!docs.has(req.params.version)) return next();
    setDocsHeaders(res);
    res.send(page(req.params.version));
  });
  router.get('/docs/:version/openapi.json', (req, res, next) => {
    const doc = served.get(req.params.version);
    if (!doc) return next();
    res.json(doc);
  });
  return router;
}

function versionNav(versions: string[], current: string): string {
  return `<nav aria-label="Versions" class="versions"><a href="/docs">All versions</a>${versions.map((v) => (v === current ? ` · <strong aria-current="page">${esc(v)}</strong>` : ` · <a href="/docs/${esc(v)}">${esc(v)}</a>`)).join('')}</nav>`;
}
