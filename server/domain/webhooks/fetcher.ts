import type { GuardedFetchFactory, HttpFetchPort } from '../../ports/http-fetch.ts';

/** The loopback (host, address) pairs the guard lets through in sandbox mode, and only there. */
const LOOPBACK = [
  { hostname: '127.0.0.1', address: '127.0.0.1' },
  { hostname: 'localhost', address: '127.0.0.1' },
  { hostname: '::1', address: '::1' },
  { hostname: 'localhost', address: '::1' },
];

/**
 * The fetch webhook deliveries use: SSRF-guarded at every attempt (the guard is the injected
 * factory's adapter). `allowLoopback` (sandbox mode) exempts exactly the loopback names above, so
 * a local receiver works while private networks and cloud metadata addresses stay refused.
 * `ownPort` (the API's port) is refused on every address of this host in any mode.
 */
export function createWebhookFetch(guardedFetch: GuardedFetchFactory, opts: { allowLoopback: boolean; ownPort?: number }): HttpFetchPort {
  return guardedFetch({
    userAgent: 'merchant-payments-webhooks/1',
    ...(opts.allowLoopback ? { allowAddresses: LOOPBACK } : {}),
    ...(opts.ownPort !== undefined ? { ownPort: opts.ownPort } : {}),
  });
}
