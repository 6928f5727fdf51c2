import { createGuardedFetch } from '../../../adapters/http-fetch/index.ts';
import type { HttpFetchPort } from '../../ports/http-fetch.ts';

/** The loopback (host, address) pairs the guard lets through in sandbox mode, and only there. */
const LOOPBACK = [
  { hostname: '127.0.0.1', address: '127.0.0.1' },
  { hostname: 'localhost', address: '127.0.0.1' },
  { hostname: '::1', address: '::1' },
  { hostname: 'localhost', address: '::1' },
];

/**
 * The fetch webhook deliveries use: SSRF-guarded at every attempt. `allowLoopback` (sandbox mode)
 * exempts exactly the loopback names above, so a local receiver works while private networks and
 * cloud metadata addresses stay refused. `ownPort` (the API's port) is refused on every address
 * of this host in any mode, allowance or not.
 */
export function createWebhookFetch(opts: { allowLoopback: boolean; ownPort?: number }): HttpFetchPort {
  return createGuardedFetch({
    userAgent: 'merchant-payments-webhooks/1',
    ...(opts.allowLoopback ? { allowAddresses: LOOPBACK } : {}),
    ...(opts.ownPort !== undefined ? { ownPort: opts.ownPort } : {}),
  });
}
