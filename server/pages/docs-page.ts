import { Router } from 'express';
import type { OpenApiDoc } from '../http/openapi-docs.ts';
import { esc, layout } from './html.ts';
import { renderReference } from './docs-render.ts';
import { setPageHeaders } from './page-csp.ts';

/**
 * `/docs`: the API reference of every version, rendered once at start from the documents the
 * service validates against; `/docs/<version>/openapi.json` is the document itself, for tools.
 */
export function docsRouter(docs: Map<string, OpenApiDoc>, assetBase: string): Router {
  const versions = [...docs.keys()].sort();
  const styles = [`${assetBase}/docs.css`];
  const pages = new Map(versions.map((v) => [v, layout({ title: `API reference ${v}`, styles, body: `<main>${versionNav(versions, v)}${renderReference(docs.get(v)!)}</main>` })]));
  const index = layout({
    title: 'API reference',
    styles,
    body: `<main><h1>API reference</h1><p>One reference per API version (send it in <code>Svc-Version</code>).</p><ul>${versions.map((v) => `<li><a href="/docs/${esc(v)}">${esc(v)}</a> · <a href="/docs/${esc(v)}/openapi.json">openapi.json</a></li>`).join('')}</ul></main>`,
  });
  const router = Router();
  router.get('/docs', (_req, res) => {
    setPageHeaders(res);
    res.send(index);
  });
  router.get('/docs/:version', (req, res, next) => {
    const page = pages.get(req.params.version);
    if (!page) return next();
    setPageHeaders(res);
    res.send(page);
  });
  router.get('/docs/:version/openapi.json', (req, res, next) => {
    const doc = docs.get(req.params.version);
    if (!doc) return next();
    res.json(doc);
  });
  return router;
}

function versionNav(versions: string[], current: string): string {
  return `<nav aria-label="Versions" class="versions"><a href="/docs">All versions</a>${versions.map((v) => (v === current ? ` · <strong aria-current="page">${esc(v)}</strong>` : ` · <a href="/docs/${esc(v)}">${esc(v)}</a>`)).join('')}</nav>`;
}
