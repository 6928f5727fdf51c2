/**
 * HTTP fetch port: outbound HTTP(S) requests to URLs a partner gave us (merchant logos now,
 * webhook endpoints later). Every adapter must refuse non-public destinations (SSRF guard), so
 * callers never reason about addresses, sockets or TLS: no connection type crosses this port.
 */

/** Why a fetch failed; stable codes a caller can branch on and turn into partner messages. */
export type HttpFetchFailureCode =
  /** The host is (or resolves to, or redirects to) a loopback/private/link-local/reserved address. */
  | 'blocked_address'
  /** `httpsOnly` was set and the URL (or a redirect hop) is not https://. */
  | 'not_https'
  /** The connect phase or the whole exchange took longer than allowed. */
  | 'timeout'
  /** The response body (declared or streamed) exceeds `maxBytes`; reading stopped there. */
  | 'too_large'
  /** More redirects than `maxRedirects` (only when `maxRedirects` > 0). */
  | 'too_many_redirects'
  /** Connection refused/reset, TLS failure, malformed URL or response, unsupported scheme. */
  | 'unreachable'
  /** The host name does not resolve. */
  | 'dns_failure';

/** A failed fetch. `message` is short, partner-safe English (it never echoes resolved addresses). */
export class HttpFetchError extends Error {
  readonly code: HttpFetchFailureCode;
  /** The URL of the hop that failed (after redirects), for logs. */
  readonly url: string;

  constructor(code: HttpFetchFailureCode, message: string, url: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HttpFetchError';
    this.code = code;
    this.url = url;
  }
}

/** Narrowing helper, so callers need not depend on `instanceof` across module copies. */
export function isHttpFetchError(err: unknown): err is HttpFetchError {
  return err instanceof HttpFetchError || (err instanceof Error && err.name === 'HttpFetchError' && 'code' in err);
}

export interface HttpFetchOptions {
  /** Default `GET`. */
  method?: string;
  /** Request headers; `host` is always the URL's host and cannot be overridden. */
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  /** Largest body accepted; a larger one fails with `too_large` without being read to the end. */
  maxBytes: number;
  /** Deadline for the whole call: DNS, connects, every redirect hop and the body. */
  timeoutMs: number;
  /** Deadline for each TCP connect plus TLS handshake. */
  connectTimeoutMs: number;
  /**
   * Redirects (301/302/303/307/308) to follow, each re-checked like the first URL. With 0 the 3xx
   * response itself is returned (webhook delivery does not follow redirects).
   */
  maxRedirects: number;
  /** Refuse http:// at every hop with `not_https`. Default true. */
  httpsOnly?: boolean;
}

export interface HttpFetchResponse {
  status: number;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Uint8Array;
  /** The URL that produced this response (differs from the input after redirects). */
  finalUrl: string;
}

export interface HttpFetchPort {
  /** Resolves with any HTTP status (4xx/5xx included); rejects only with {@link HttpFetchError}. */
  fetch(url: string, options: HttpFetchOptions): Promise<HttpFetchResponse>;
  /** Closes kept-alive connections (idle ones at once); for process shutdown. Fetching after it still works. */
  close?(): void;
}

/** A (host name, address) pair the guard lets through although the address is not public. */
export interface AllowedAddress {
  hostname: string;
  address: string;
}

/** How a guarded fetch is set up; every setting keeps the SSRF guard on. */
export interface GuardedFetchSettings {
  /** Sent unless the caller sets one. */
  userAgent?: string;
  /** Exact (host name, address) pairs exempt from the address check (sandbox loopback receivers). */
  allowAddresses?: readonly AllowedAddress[];
  /** The port this service listens on: refused on every address of this host, allowed or not. */
  ownPort?: number;
}

/**
 * Builds guarded fetches. The composition root passes the adapter's factory in, so domain code
 * that decides *what* may be fetched never constructs the adapter itself.
 */
export type GuardedFetchFactory = (settings: GuardedFetchSettings) => HttpFetchPort;

/**
 * What the SSRF guard knows about IP addresses, for checks made before any fetch (a webhook
 * endpoint at registration). Same classification the guarded fetch applies at every request.
 */
export interface AddressPolicyPort {
  /** True only for globally routable unicast addresses. */
  isPublic(address: string): boolean;
  /** True for an address of this host: loopback, unspecified, or one of its interfaces. */
  isOwnHostAddress(address: string): boolean;
}

/** Resolves a host name to all its addresses (the system resolver in production; tests inject one). */
export type HostLookup = (hostname: string) => Promise<ReadonlyArray<{ address: string }>>;
