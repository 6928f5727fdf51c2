import type { Response } from 'express';

/**
 * Headers of the buyer pages, replacing the API's (`default-src 'none'`, which would block the
 * page's own script and style). Scripts come only from this service, never inline; the state is
 * read from this service too. Merchant logos are HTTPS images of the merchant's, so `img-src`
 * allows https (and data: for nothing else than the browser's own favicons).
 *
 * `embeddable`: the data-collection page runs inside a wallet's web view or iframe, so any
 * ancestor may frame it; the payment page may not be framed (clickjacking).
 */
export function setPageHeaders(res: Response, opts: { embeddable?: boolean } = {}): void {
  const directives = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' https: data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${opts.embeddable ? '*' : "'none'"}`,
  ];
  res.setHeader('Content-Security-Policy', directives.join('; '));
  if (opts.embeddable) {
    res.removeHeader('X-Frame-Options');
    // helmet's same-origin CORP would keep other origins' frames from loading the page at all.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  } else res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
}
