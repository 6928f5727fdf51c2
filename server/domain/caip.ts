import { getAddress, isAddress } from 'ethers';
import { PublicKey } from '@solana/web3.js';

/**
 * CAIP-2 chains, CAIP-10 accounts and CAIP-19 assets: parsing, and the address rules of each
 * chain namespace we settle on. Shapes are checked by the OpenAPI validator; meaning is here.
 */
export interface ChainId {
  namespace: string;
  reference: string;
}

export interface AccountId {
  chain: ChainId;
  address: string;
}

export interface AssetId {
  chain: ChainId;
  assetNamespace: string;
  assetReference: string;
}

const CHAIN = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32})$/;
const ACCOUNT = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32}):([-.%a-zA-Z0-9]{1,128})$/;
const ASSET = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32})\/([-a-z0-9]{3,8}):([-.%a-zA-Z0-9]{1,128})$/;

export function parseChainId(s: string): ChainId | null {
  const m = CHAIN.exec(s);
  return m ? { namespace: m[1]!, reference: m[2]! } : null;
}

export function parseAccountId(s: string): AccountId | null {
  const m = ACCOUNT.exec(s);
  return m ? { chain: { namespace: m[1]!, reference: m[2]! }, address: m[3]! } : null;
}

export function parseAssetId(s: string): AssetId | null {
  const m = ASSET.exec(s);
  return m ? { chain: { namespace: m[1]!, reference: m[2]! }, assetNamespace: m[3]!, assetReference: m[4]! } : null;
}

export const formatChainId = (c: ChainId) => `${c.namespace}:${c.reference}`;

export const sameChain = (a: ChainId, b: ChainId) => a.namespace === b.namespace && a.reference === b.reference;

/**
 * Why an address is not valid on its namespace, or null when it is. EVM addresses must pass the
 * EIP-55 checksum when mixed-case (an all-lower or all-upper address carries no checksum);
 * Solana addresses must be base58 of exactly 32 bytes.
 */
export function addressProblem(namespace: string, address: string): string | null {
  if (namespace === 'eip155') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return 'must be a 0x-prefixed 20-byte hex address';
    const body = address.slice(2);
    const mixedCase = body !== body.toLowerCase() && body !== body.toUpperCase();
    if (mixedCase && getAddress(address.toLowerCase()) !== address) return 'fails its EIP-55 checksum';
    if (!isAddress(address.toLowerCase())) return 'is not a valid EVM address';
    if (/^0x0{40}$/.test(address)) return 'is the zero address';
    return null;
  }
  if (namespace === 'solana') {
    try {
      const key = new PublicKey(address);
      if (key.toBase58() !== address) return 'is not canonical base58';
      return null;
    } catch {
      return 'must be a base58 32-byte public key';
    }
  }
  return `namespace ${namespace} is not supported`;
}

/** The EVM address in its checksummed form, so comparisons and storage are case-stable. */
export function normalizeAddress(namespace: string, address: string): string {
  return namespace === 'eip155' ? getAddress(address.toLowerCase()) : address;
}
