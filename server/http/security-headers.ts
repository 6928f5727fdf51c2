import type { RequestHandler } from 'express';

/**
 * The headers every response starts with. The API answers JSON only, so most of helmet's
 * browser-page headers say nothing here; these are the ones that matter for JSON: never render
 * it as anything (CSP, nosniff), never frame it, never leak the URL, HTTPS only. Pages replace
 * the CSP with their own (pages/page-csp.ts). Fewer and shorter headers are also less work on
 * every response of the hottest endpoints.
 */
const HEADERS: ReadonlyArray<[string, string]> = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
];

export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    for (const [name, value] of HEADERS) res.setHeader(name, value);
    next();
  };
}
