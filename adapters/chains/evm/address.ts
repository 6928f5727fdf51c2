import { getAddress } from 'ethers';

/**
 * `getAddress` (EIP-55 checksum, throws on a malformed address), remembered: the same token,
 * destination and relayer addresses are checksummed several times for every option quoted, and
 * each time costs a keccak hash and its garbage, which became the options endpoint's GC pauses.
 */
const cache = new Map<string, string>();
const MAX_ENTRIES = 10_000;

export function checksummed(address: string): string {
  const hit = cache.get(address);
  if (hit !== undefined) return hit;
  const out = getAddress(address);
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(address, out);
  return out;
}
