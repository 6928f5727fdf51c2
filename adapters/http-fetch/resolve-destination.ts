/**
 * Turns a URL's host into the one IP address the guard will connect to, after checking every
 * address the name resolves to. The caller then connects to exactly that address (no second DNS
 * lookup), which closes the DNS-rebinding window between "checked" and "connected".
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { HttpFetchError } from '../../server/ports/http-fetch.ts';
import { classifyAddress } from './address-policy.ts';
import { effectivePort, isOwnHostAddress } from './own-address.ts';

export type ResolvedAddress = { address: string; family: 4 | 6 };

/** DNS resolution: every address of a host name. Injectable so tests can map names to addresses. */
export type LookupFn = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

/**
 * A test-only exception to the guard: the exact pair (URL host name, resolved address) is allowed,
 * nothing else. Allowing `{ hostname: 'logo.test', address: '127.0.0.1' }` lets tests reach a local
 * server as https://logo.test:<port>/ while https://127.0.0.1/, https://localhost/ (even if it
 * resolves to 127.0.0.1) and any redirect to them stay refused, so tests can still prove refusals.
 */
export type AllowedAddress = { hostname: string; address: string };

/** Production DNS: the system resolver, all addresses, in resolver order. */
export const systemLookup: LookupFn = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

/** URL host without IPv6 brackets or the DNS root dot, lower-cased. */
export function bareHostname(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

function familyOf(address: string): 4 | 6 {
  return isIP(address) === 6 ? 6 : 4;
}

async function addressesOf(host: string, url: URL, lookup: LookupFn): Promise<string[]> {
  if (isIP(host)) return [host];
  let found: ReadonlyArray<{ address: string }>;
  try {
    found = await lookup(host);
  } catch (err) {
    throw new HttpFetchError('dns_failure', `the host name ${host} does not resolve`, url.href, { cause: err });
  }
  if (found.length === 0) throw new HttpFetchError('dns_failure', `the host name ${host} does not resolve`, url.href);
  return found.map((a) => a.address);
}

/**
 * Resolves `url`'s host and refuses it unless EVERY address is public (or is the allowed test
 * pair), and refuses the service's own port on any address of this host whatever is allowed. Rejects with `dns_failure` or `blocked_address`; the message never echoes addresses the
 * partner did not write themselves (no oracle into our internal DNS).
 */
export async function resolveDestination(url: URL, deps: { lookup: LookupFn; allowAddresses: readonly AllowedAddress[]; ownPort?: number }): Promise<ResolvedAddress> {
  const host = bareHostname(url);
  const addresses = await addressesOf(host, url, deps.lookup);
  // Before any allowance: the service's own port is refused even where loopback is allowed.
  if (deps.ownPort !== undefined && effectivePort(url) === deps.ownPort && addresses.some(isOwnHostAddress)) {
    throw new HttpFetchError('blocked_address', 'the URL points at this service itself', url.href);
  }
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind === 'public') continue;
    if (deps.allowAddresses.some((a) => a.hostname.toLowerCase() === host && a.address === address)) continue;
    const message = isIP(host) ? `the address ${host} is not publicly reachable` : `the host ${host} resolves to an address that is not publicly reachable`;
    throw new HttpFetchError('blocked_address', message, url.href, { cause: new Error(`${address} is ${kind}`) });
  }
  const first = addresses[0] as string;
  return { address: first, family: familyOf(first) };
}
