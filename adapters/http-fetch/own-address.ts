/**
 * "Is this (address, port) the service itself?" A webhook endpoint may never point back at the
 * service's own API port: a receiver there would be the service posting to itself, and in sandbox
 * mode (loopback receivers allowed) the one port it must never probe is its own. The service can
 * be reached on its port at every loopback address, at the unspecified address (0.0.0.0 and ::
 * connect to this host) and at each address of this host's network interfaces, in any spelling
 * (IPv4-mapped IPv6 included), so all of those count.
 */
import { networkInterfaces } from 'node:os';
import { classifyAddress, parseIPv4, parseIPv6 } from './address-policy.ts';

/** 4 bytes for IPv4 and IPv4-mapped IPv6, 16 otherwise; null when not an address. */
function canonical(address: string): string | null {
  const four = parseIPv4(address);
  if (four) return four.join('.');
  const six = parseIPv6(address);
  if (!six) return null;
  const mapped = six.subarray(0, 10).every((b) => b === 0) && six[10] === 0xff && six[11] === 0xff;
  return mapped ? [...six.subarray(12)].join('.') : Buffer.from(six).toString('hex');
}

/** This host's interface addresses, canonical; read each time, since interfaces come and go. */
function interfaceAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const i of list ?? []) {
      const c = canonical(i.address);
      if (c) out.add(c);
    }
  return out;
}

/** True when `address` reaches this host: loopback, unspecified or "this network" (0/8), or an interface's address. */
export function isOwnHostAddress(address: string): boolean {
  const kind = classifyAddress(address);
  if (kind === 'loopback' || kind === 'unspecified') return true;
  const c = canonical(address);
  if (c === null) return false;
  if (/^0\.\d+\.\d+\.\d+$/.test(c)) return true;
  return interfaceAddresses().has(c);
}

/** The port a URL connects to: its own, or its scheme's default. */
export function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}
