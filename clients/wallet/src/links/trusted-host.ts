/** The host (and optional port) that serves buyer payment links, normalised for comparison. */
export interface TrustedHost {
  hostname: string;
  port: string;
}

/**
 * Normalises the configured pay host once. Accepts `pay.example`, `pay.example:8443` or a
 * full origin, so callers can pass whatever their configuration holds.
 */
export function normaliseTrustedHost(payHost: string): TrustedHost {
  const raw = payHost.trim();
  if (raw === '') throw new TypeError('payHost must not be empty');
  const url = new URL(raw.includes('://') ? raw : `https://${raw}`);
  if (url.username !== '' || url.password !== '' || (url.pathname !== '/' && url.pathname !== '')) {
    throw new TypeError(`payHost must be a bare host name, got ${JSON.stringify(payHost)}`);
  }
  return { hostname: stripTrailingDot(url.hostname), port: url.port };
}

/**
 * Decides whether a parsed URL's host is the pay host or one of its subdomains.
 * Comparison is on DNS labels (exact match or a `.`-separated suffix), so `evilpay.example`
 * and `pay.example.evil.com` never pass for `pay.example`. The WHATWG parser has already
 * lower-cased the host and resolved userinfo, so `https://pay.example@evil.com` arrives here
 * as host `evil.com`; credentials are refused separately by the caller.
 */
export function isTrustedHost(url: URL, trusted: TrustedHost): boolean {
  if (url.port !== trusted.port) return false;
  const host = stripTrailingDot(url.hostname);
  if (host === '' || host.includes('..')) return false;
  return host === trusted.hostname || host.endsWith(`.${trusted.hostname}`);
}

function stripTrailingDot(host: string): string {
  return host.endsWith('.') ? host.slice(0, -1) : host;
}
