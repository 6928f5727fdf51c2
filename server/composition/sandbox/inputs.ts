// Reading the sandbox endpoints' inputs: a CAIP-10 account on a sandbox chain, an optional CAIP-19
// asset of that chain, and a value in base units. Every problem becomes an issue on its field.
import { getAddress } from 'ethers';
import { PublicKey } from '@solana/web3.js';
import { addressProblem, formatChainId, parseAccountId, parseAssetId, type ChainId } from '../../domain/caip.ts';
import type { ValidationIssue } from '../../errors.ts';
import type { SandboxChains } from './chains.ts';

export type SandboxChainKey = 'evm' | 'solana';

/** An account's balance in one asset on one sandbox chain, resolved to what the sandbox needs. */
export interface Holding {
  chain: SandboxChainKey;
  /** The address in its canonical form (EIP-55 checksum on EVM). */
  address: string;
  /** CAIP-19 of the token, or null for the native coin. */
  asset: string | null;
  /** Token contract address or SPL mint; null for the native coin. */
  token: string | null;
}

/** The largest faucet value: far above any test's needs, far below any integer overflow. */
export const MAX_FAUCET_VALUE = 10n ** 30n;

function chainKey(chains: SandboxChains, chain: ChainId): SandboxChainKey | null {
  const id = formatChainId(chain);
  if (id === chains.evm.caip2) return 'evm';
  if (id === chains.solana.caip2) return 'solana';
  return null;
}

function knownChains(chains: SandboxChains): string {
  return `${chains.evm.caip2} or ${chains.solana.caip2}`;
}

function readAccount(chains: SandboxChains, raw: unknown, field: string, issues: ValidationIssue[]): { chain: SandboxChainKey; address: string } | null {
  if (typeof raw !== 'string' || raw === '') {
    issues.push({ field, message: 'is required: a CAIP-10 account id such as eip155:31337:0x…' });
    return null;
  }
  const parsed = parseAccountId(raw);
  if (!parsed) {
    issues.push({ field, message: 'is not a CAIP-10 account id (<namespace>:<reference>:<address>)' });
    return null;
  }
  const chain = chainKey(chains, parsed.chain);
  if (!chain) {
    issues.push({ field, message: `is on chain ${formatChainId(parsed.chain)}, which is not a sandbox chain (${knownChains(chains)})` });
    return null;
  }
  const problem = addressProblem(parsed.chain.namespace, parsed.address);
  if (problem) {
    issues.push({ field, message: `address ${problem}` });
    return null;
  }
  if (chain === 'solana' && new PublicKey(parsed.address).equals(PublicKey.default)) {
    issues.push({ field, message: 'address is the all-zero key' });
    return null;
  }
  return { chain, address: chain === 'evm' ? getAddress(parsed.address.toLowerCase()) : parsed.address };
}

type AssetChoice = { chain: SandboxChainKey | null; token: string | null; asset: string | null };

function readAsset(chains: SandboxChains, raw: unknown, field: string, issues: ValidationIssue[]): AssetChoice | null {
  if (raw === null || raw === undefined) return { chain: null, token: null, asset: null };
  if (typeof raw !== 'string' || raw === '') {
    issues.push({ field, message: 'must be a CAIP-19 asset id, or absent (null) for the native coin' });
    return null;
  }
  const parsed = parseAssetId(raw);
  if (!parsed) {
    issues.push({ field, message: 'is not a CAIP-19 asset id (<namespace>:<reference>/<asset namespace>:<asset reference>)' });
    return null;
  }
  const chain = chainKey(chains, parsed.chain);
  if (!chain) {
    issues.push({ field, message: `is on chain ${formatChainId(parsed.chain)}, which is not a sandbox chain (${knownChains(chains)})` });
    return null;
  }
  if (raw === chains.native[chain].id) return { chain, token: null, asset: null };
  if (chain === 'evm') {
    const problem = parsed.assetNamespace === 'erc20' ? addressProblem('eip155', parsed.assetReference) : 'asset namespace must be erc20';
    if (problem) {
      issues.push({ field, message: `token ${problem}` });
      return null;
    }
    const address = getAddress(parsed.assetReference.toLowerCase());
    const hit = chains.evm.assets.find((a) => a.address === address);
    if (hit) return { chain, token: hit.address, asset: hit.caip19 };
  } else {
    const hit = parsed.assetNamespace === 'token' ? chains.solana.assets.find((a) => a.mint === parsed.assetReference) : undefined;
    if (hit) return { chain, token: hit.mint, asset: hit.caip19 };
  }
  issues.push({ field, message: 'is not an asset of the sandbox (see GET /sandbox)' });
  return null;
}

/**
 * Resolves an account and an optional asset into a holding, or pushes the reasons it cannot.
 * Why both are read even when one fails: a caller fixing a request sees every problem at once.
 */
export function readHolding(
  chains: SandboxChains,
  input: { account: unknown; asset: unknown },
  fields: { account: string; asset: string },
  issues: ValidationIssue[],
): Holding | null {
  const account = readAccount(chains, input.account, fields.account, issues);
  const asset = readAsset(chains, input.asset, fields.asset, issues);
  if (!account || !asset) return null;
  if (asset.chain !== null && asset.chain !== account.chain) {
    issues.push({ field: fields.asset, message: `is not on the account's chain (${chains[account.chain].caip2})` });
    return null;
  }
  return { chain: account.chain, address: account.address, asset: asset.asset, token: asset.token };
}

/** A base-unit amount: a string of digits, at most MAX_FAUCET_VALUE. Numbers are refused (precision). */
export function readValue(raw: unknown, field: string, issues: ValidationIssue[]): bigint | null {
  if (typeof raw !== 'string' || !/^[0-9]+$/.test(raw)) {
    issues.push({ field, message: 'must be a non-negative integer in base units, as a string (e.g. "1000000")' });
    return null;
  }
  if (raw.length > 40 || BigInt(raw) > MAX_FAUCET_VALUE) {
    issues.push({ field, message: 'must be at most 10^30 base units' });
    return null;
  }
  return BigInt(raw);
}
