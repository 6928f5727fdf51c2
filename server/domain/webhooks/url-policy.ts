import { isIP } from 'node:net';
import type { AddressPolicyPort, HostLookup } from '../../ports/http-fetch.ts';

export type { HostLookup } from '../../ports/http-fetch.ts';

/** Whether a loopback receiver is acceptable: the part of the policy delivery needs too. */
export interface LoopbackAllowance {
  /** Sandbox mode only: http(s)://localhost, 127.0.0.1 and [::1] receivers are accepted. */
  allowLoopback: boolean;
}

export interface EndpointUrlPolicy extends LoopbackAllowance {
  /** The API's own port: refused on every address of this host, in any mode. */
  ownPort?: number;
  /** Resolves the endpoint's host (the system resolver, injected by the composition root). */
  lookup: HostLookup;
  /** The SSRF guard's address classification, injected by the composition root. */
  addresses: AddressPolicyPort;
}

/** The port a URL connects to: its own, or its scheme's default. */
function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);

/** The URL's host without IPv6 brackets or a trailing dot, lower-cased. */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** True when the URL is a loopback receiver that sandbox mode lets through (http allowed). */
export function isAllowedLoopback(raw: string, policy: LoopbackAllowance): boolean {
  if (!policy.allowLoopback) return false;
  try {
    return LOOPBACK_HOSTS.has(hostOf(new URL(raw)));
  } catch {
    return false;
  }
}

/**
 * Why an endpoint URL is refused, or null when it is acceptable: HTTPS to a host whose every
 * address is public (SSRF). Checked at registration; the delivery re-checks through the guarded
 * fetch, which also catches a name that later resolves elsewhere.
 */
export async function endpointUrlProblem(raw: string, policy: EndpointUrlPolicy): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'the URL is not valid';
  }
  if (url.username || url.password) return 'the URL must not carry credentials';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'the URL must be https://';
  const host = hostOf(url);
  const loopback = isAllowedLoopback(raw, policy);
  if (!loopback && url.protocol !== 'https:') return 'the URL must be https://';
  if (!loopback && (host === 'localhost' || host.endsWith('.localhost'))) return 'the URL must point at a public address';
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else if (host === 'localhost' || host.endsWith('.localhost')) addresses = ['127.0.0.1'];
  else {
    try {
      addresses = (await policy.lookup(host)).map((a) => a.address);
    } catch {
      return `the host ${host} does not resolve`;
    }
    if (addresses.length === 0) return `the host ${host} does not resolve`;
  }
  if (policy.ownPort !== undefined && effectivePort(url) === policy.ownPort && addresses.some((a) => policy.addresses.isOwnHostAddress(a)))
    return 'the URL must not point at this service itself';
  if (loopback) return null;
  return addresses.every((a) => policy.addresses.isPublic(a)) ? null : 'the URL must point at a public address';
}
