import { Connection, Keypair } from '@solana/web3.js';
import type { EndpointPoolOptions } from '../endpoint-pool.ts';
import type { SolanaFeePolicy } from './fees.ts';
import { base58Decode } from './base58.ts';
import type { SolanaChainConfig } from './gateway-adapter.ts';
import { multiEndpointFetch } from './multi-fetch.ts';
import { DEFAULT_FOLLOW_MS } from './follow.ts';

/** Solana mainnet-beta's CAIP-2 id (the first 32 characters of its genesis hash). */
export const SOLANA_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';

/**
 * Reads a fee payer secret key in either common form: base58 (what wallets export) or the JSON array
 * of 64 numbers `solana-keygen` writes. Throws on anything else, so a bad key stops the process at
 * start instead of at the first payment.
 */
export function parseSolanaSecretKey(text: string): Keypair {
  const trimmed = text.trim();
  let bytes: Uint8Array;
  if (trimmed.startsWith('[')) {
    const parsed = JSON.parse(trimmed) as unknown;
    if (!Array.isArray(parsed) || !parsed.every((n) => Number.isInteger(n) && n >= 0 && n <= 255)) throw new Error('not an array of bytes');
    bytes = Uint8Array.from(parsed as number[]);
  } else {
    bytes = base58Decode(trimmed);
  }
  if (bytes.length !== 64) throw new Error(`a Solana secret key is 64 bytes, got ${bytes.length}`);
  // Checks the public half matches the secret half.
  return Keypair.fromSecretKey(bytes);
}

/**
 * The production chain from `SOLANA_RPC_URLS` (or `SOLANA_RPC_URL`), `SOLANA_FEE_PAYER_KEY` and
 * `SOLANA_CHAIN_ID` (default mainnet), through web3.js's `Connection` (which satisfies `SolanaRpc`
 * as is) whose requests go through the endpoint pool (multi-fetch.ts), succeeded at `confirmed`
 * commitment. web3.js's own 429 loop is off: the pool honours Retry-After and fails over instead.
 */
export function solanaChainFromConfig(
  rpcUrls: string | readonly string[],
  feePayerKey: string,
  caip2 = SOLANA_MAINNET,
  minFeePayerLamports?: bigint,
  pool: Partial<EndpointPoolOptions> = {},
  fees?: SolanaFeePolicy,
): SolanaChainConfig {
  const urls = typeof rpcUrls === 'string' ? [rpcUrls] : rpcUrls;
  const { fetch } = multiEndpointFetch(urls, 'confirmed', pool);
  const connection = new Connection(urls[0]!, { commitment: 'confirmed', fetch, disableRetryOnRateLimit: true });
  const chain: SolanaChainConfig = {
    caip2,
    connection,
    feePayer: parseSolanaSecretKey(feePayerKey),
    commitment: 'confirmed',
    etaS: 13,
    endpoints: urls,
    followMs: DEFAULT_FOLLOW_MS,
    ...(fees ? { fees } : {}),
  };
  return minFeePayerLamports === undefined ? chain : { ...chain, minFeePayerLamports };
}
