/**
 * The SSRF-guarded HttpFetchPort adapter on node:http/node:https. Each hop (the URL and every
 * redirect) is checked for scheme, resolved once, refused unless all its addresses are public, and
 * then connected to by that checked address with SNI/Host left as the name, over a keep-alive
 * socket already connected to that same checked address when one is idle (connection-pool.ts).
 */
import { rootCertificates } from 'node:tls';
import type { HttpFetchOptions, HttpFetchPort, HttpFetchResponse } from '../../server/ports/http-fetch.ts';
import { HttpFetchError } from '../../server/ports/http-fetch.ts';
import { createConnectionPool, DEFAULT_POOL_LIMITS, type PoolLimits } from './connection-pool.ts';
import { requestOnce } from './request-once.ts';
import { bareHostname, resolveDestination, systemLookup } from './resolve-destination.ts';
import type { AllowedAddress, LookupFn } from './resolve-destination.ts';

export type { AllowedAddress, LookupFn } from './resolve-destination.ts';

export type GuardedFetchOptions = {
  /** Sent unless the caller sets one. */
  userAgent?: string;
  /** Tests only: DNS replacement. Production uses the system resolver. */
  lookup?: LookupFn;
  /**
   * Tests only: extra trusted CA certificates (PEM), ADDED to Node's bundled roots; without this
   * option Node's default trust applies unchanged.
   */
  ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  /** Tests only: exact (host name, address) pairs exempt from the address check; default none. */
  allowAddresses?: readonly AllowedAddress[];
  /**
   * The port this service listens on: refused on every address of this host (loopback, 0.0.0.0,
   * the interfaces), even an allowed one, so a partner's URL can never make it call itself.
   */
  ownPort?: number;
  /** Keep-alive bounds (sockets per destination, idle close, destinations kept); defaults in connection-pool.ts. */
  pool?: Partial<PoolLimits>;
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Dropped when a redirect leaves the origin, so credentials never follow to another host. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

function parseUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch (err) {
    throw new HttpFetchError('unreachable', 'the URL is not valid', raw, { cause: err });
  }
}

function checkScheme(url: URL, httpsOnly: boolean): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && !httpsOnly) return;
  if (httpsOnly) throw new HttpFetchError('not_https', `only https:// URLs are fetched, not ${url.protocol}//`, url.href);
  throw new HttpFetchError('unreachable', `the scheme ${url.protocol} is not supported`, url.href);
}

function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}

/**
 * Builds the guarded fetch. Production: `createGuardedFetch()` with no test options. Rejects only
 * with HttpFetchError; HTTP error statuses are returned, not thrown.
 */
export function createGuardedFetch(opts: GuardedFetchOptions = {}): HttpFetchPort {
  const lookup = opts.lookup ?? systemLookup;
  const allowAddresses = opts.allowAddresses ?? [];
  const extraCa = opts.ca === undefined ? [] : typeof opts.ca === 'string' || Buffer.isBuffer(opts.ca) ? [opts.ca] : [...opts.ca];
  const ca = extraCa.length > 0 ? [...rootCertificates, ...extraCa] : undefined;
  const userAgent = opts.userAgent ?? 'merchant-payments-service';
  const pool = createConnectionPool({ ...DEFAULT_POOL_LIMITS, ...opts.pool });

  async function run(input: string, options: HttpFetchOptions, signal: AbortSignal): Promise<HttpFetchResponse> {
    const httpsOnly = options.httpsOnly ?? true;
    let url = parseUrl(input);
    let method = (options.method ?? 'GET').toUpperCase();
    let body = options.body;
    const headers: Record<string, string> = { 'user-agent': userAgent, ...lowerCaseKeys(options.headers) };
    const follow = options.maxRedirects > 0;
    for (let redirects = 0; ; redirects++) {
      checkScheme(url, httpsOnly);
      const to = await resolveDestination(url, { lookup, allowAddresses, ...(opts.ownPort !== undefined ? { ownPort: opts.ownPort } : {}) });
      if (signal.aborted) throw signal.reason;
      const res = await requestOnce({
        url,
        to,
        method,
        headers,
        body,
        signal,
        ca,
        // Picked only after the check above, by what it decided: a pooled socket reaches the same checked address.
        agent: pool.agentFor({ protocol: url.protocol, address: to.address, port: url.port, servername: bareHostname(url) }),
        maxBytes: options.maxBytes,
        connectTimeoutMs: options.connectTimeoutMs,
        wantsBody: (status, h) => !(follow && REDIRECTS.has(status) && h.location),
      });
      const location = res.headers.location;
      if (!follow || !REDIRECTS.has(res.status) || !location) return { ...res, finalUrl: url.href };
      if (redirects >= options.maxRedirects) {
        throw new HttpFetchError('too_many_redirects', `more than ${options.maxRedirects} redirects`, url.href);
      }
      const next = (() => {
        try {
          return new URL(location, url);
        } catch (err) {
          throw new HttpFetchError('unreachable', `${url.host} redirected to an invalid URL`, url.href, { cause: err });
        }
      })();
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
      }
      if (next.origin !== url.origin) for (const name of ORIGIN_BOUND_HEADERS) delete headers[name];
      url = next;
    }
  }

  return {
    async fetch(input, options) {
      const controller = new AbortController();
      // Built only when the deadline passes: an Error (its stack) per request was a visible share of a delivery's CPU.
      const timer = setTimeout(() => controller.abort(new HttpFetchError('timeout', `no complete response within ${options.timeoutMs} ms`, input)), options.timeoutMs);
      const aborted = new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
      });
      aborted.catch(() => undefined); // observed by the race below; never an unhandled rejection
      const work = run(input, options, controller.signal);
      work.catch(() => undefined); // may settle after the deadline won the race; that outcome is moot
      try {
        // The race also bounds DNS lookups, which cannot be cancelled themselves.
        return await Promise.race([work, aborted]);
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      pool.close();
    },
  };
}
