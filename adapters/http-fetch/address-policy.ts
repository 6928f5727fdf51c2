/**
 * Classifies IP addresses for the SSRF guard: only globally routable unicast addresses are
 * "public". Tables follow the IANA IPv4/IPv6 special-purpose registries (RFC 6890 and successors);
 * IPv6 forms that embed an IPv4 address (mapped, translated, NAT64, 6to4, IPv4-compatible) are
 * judged by the IPv4 address they carry, so `::ffff:127.0.0.1` is loopback, not public.
 */
import { isIP } from 'node:net';

export type AddressKind =
  'public' | 'unspecified' | 'loopback' | 'private' | 'shared_cgnat' | 'link_local' | 'multicast' | 'broadcast' | 'documentation' | 'unique_local' | 'reserved' | 'invalid';

type Rule = { net: number[]; prefix: number; kind: AddressKind };

const v4 = (cidr: string, kind: AddressKind): Rule => {
  const [addr = '', prefix = '32'] = cidr.split('/');
  return { net: addr.split('.').map(Number), prefix: Number(prefix), kind };
};
const v6 = (cidr: string, kind: AddressKind): Rule => {
  const [addr = '', prefix = '128'] = cidr.split('/');
  return { net: [...(parseIPv6(addr) ?? [])], prefix: Number(prefix), kind };
};

/** Most specific first: the first match wins. */
const IPV4_RULES: Rule[] = [
  v4('0.0.0.0/32', 'unspecified'),
  v4('0.0.0.0/8', 'reserved'), // "this network"
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'shared_cgnat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link_local'), // includes 169.254.169.254 cloud metadata
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', 'reserved'), // 6to4 relay anycast (deprecated)
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'), // benchmarking
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('255.255.255.255/32', 'broadcast'),
  v4('240.0.0.0/4', 'reserved'),
];

const IPV6_RULES: Rule[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('64:ff9b:1::/48', 'reserved'), // local-use NAT64
  v6('100::/64', 'reserved'), // discard-only
  v6('2001::/23', 'reserved'), // IETF protocol assignments: Teredo, ORCHID, benchmarking
  v6('2001:db8::/32', 'documentation'),
  v6('3fff::/20', 'documentation'),
  v6('5f00::/16', 'reserved'), // SRv6 SIDs
  v6('fc00::/7', 'unique_local'),
  v6('fe80::/10', 'link_local'),
  v6('fec0::/10', 'reserved'), // site-local (deprecated)
  v6('ff00::/8', 'multicast'),
];

/** IPv6 prefixes whose last (or, for 6to4, bytes 2..5) 32 bits are an IPv4 address. */
const EMBEDDED_V4: Array<{ rule: Rule; at: number }> = [
  { rule: v6('::ffff:0:0/96', 'reserved'), at: 12 }, // IPv4-mapped
  { rule: v6('::ffff:0:0:0/96', 'reserved'), at: 12 }, // IPv4-translated (SIIT)
  { rule: v6('64:ff9b::/96', 'reserved'), at: 12 }, // NAT64 well-known prefix
  { rule: v6('2002::/16', 'reserved'), at: 2 }, // 6to4
];
const GLOBAL_UNICAST = v6('2000::/3', 'public');
const V4_COMPATIBLE = v6('::/96', 'reserved');

function matches(bytes: Uint8Array, rule: Rule): boolean {
  let bits = rule.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((rule.net[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** Dotted-quad IPv4 (as produced by DNS and the URL parser) to 4 bytes; null if not one. */
export function parseIPv4(text: string): Uint8Array | null {
  if (isIP(text) !== 4) return null;
  return Uint8Array.from(text.split('.').map(Number));
}

/** Any textual IPv6 (compressed, embedded dotted IPv4, zone id, brackets) to 16 bytes; null if not one. */
export function parseIPv6(text: string): Uint8Array | null {
  let addr = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(addr) !== 6) return null;
  const lastColon = addr.lastIndexOf(':');
  const tail = parseIPv4(addr.slice(lastColon + 1));
  if (tail) {
    const hex = (hi = 0, lo = 0): string => ((hi << 8) | lo).toString(16);
    addr = `${addr.slice(0, lastColon + 1)}${hex(tail[0], tail[1])}:${hex(tail[2], tail[3])}`;
  }
  const [left = '', right] = addr.split('::');
  const head = left ? left.split(':') : [];
  const rest = right === undefined ? [] : right ? right.split(':') : [];
  const zeros = right === undefined ? 0 : 8 - head.length - rest.length;
  const groups = [...head, ...Array<string>(zeros).fill('0'), ...rest].map((g) => parseInt(g, 16));
  if (groups.length !== 8) return null;
  return Uint8Array.from(groups.flatMap((g) => [g >> 8, g & 0xff]));
}

function classifyV4(bytes: Uint8Array): AddressKind {
  return IPV4_RULES.find((r) => matches(bytes, r))?.kind ?? 'public';
}

function classifyV6(bytes: Uint8Array): AddressKind {
  for (const { rule, at } of EMBEDDED_V4) {
    if (matches(bytes, rule)) return classifyV4(bytes.subarray(at, at + 4));
  }
  const special = IPV6_RULES.find((r) => matches(bytes, r));
  if (special) return special.kind;
  if (matches(bytes, V4_COMPATIBLE)) {
    // Deprecated IPv4-compatible form (::a.b.c.d): never legitimate, name what it hides if special.
    const inner = classifyV4(bytes.subarray(12, 16));
    return inner === 'public' ? 'reserved' : inner;
  }
  return matches(bytes, GLOBAL_UNICAST) ? 'public' : 'reserved';
}

/**
 * What kind of destination an IP address is. Anything but `public` must be refused by the guard;
 * a string that is not an IP address is `invalid` (and refused too).
 */
export function classifyAddress(address: string): AddressKind {
  const four = parseIPv4(address);
  if (four) return classifyV4(four);
  const six = parseIPv6(address);
  return six ? classifyV6(six) : 'invalid';
}

/** True only for globally routable unicast addresses. */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}
