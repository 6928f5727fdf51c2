import { VersionedTransaction, type PublicKey, type Transaction } from '@solana/web3.js';
import type { SolanaRpc } from './rpc.ts';

/** What the fee payer may pay per compute unit, and how the price is read from the network. */
export interface SolanaFeePolicy {
  /** Percentile (0–100) of recent per-slot priority fees for the transfer's writable accounts. */
  percentile: number;
  /** Never above this (micro-lamports per CU): a fee spike cannot empty the fee payer. */
  maxMicroLamports: number;
  /** Never below this (micro-lamports per CU): some leaders drop zero-priority transactions. */
  minMicroLamports: number;
}

/**
 * Why these figures: mainnet's priority fees for token transfers sit in the thousands of
 * micro-lamports per CU outside congestion and reach the hundreds of thousands in its peaks; the
 * cap of 1,000,000 µlamports (1 lamport) per CU bounds one payment's priority fee at 30,000 lamports
 * even at the fallback CU limit; the 75th percentile lands in busy slots without paying the spikes.
 */
export const DEFAULT_SOLANA_FEE_POLICY: SolanaFeePolicy = { percentile: 75, maxMicroLamports: 1_000_000, minMicroLamports: 1_000 };

/** The policy's price for these accounts; on an RPC error the floor (a transaction still goes out). */
export async function priorityFeeMicroLamports(rpc: SolanaRpc, writable: PublicKey[], policy: SolanaFeePolicy): Promise<number> {
  let fees: number[];
  try {
    fees = (await rpc.getRecentPrioritizationFees({ lockedWritableAccounts: writable })).map((f) => f.prioritizationFee).sort((a, b) => a - b);
  } catch {
    return policy.minMicroLamports;
  }
  // Nearest-rank percentile: the smallest fee at least `percentile` % of recent slots paid no more than.
  const at = fees.length === 0 ? 0 : (fees[Math.max(0, Math.ceil((policy.percentile / 100) * fees.length) - 1)] ?? 0);
  return Math.min(policy.maxMicroLamports, Math.max(policy.minMicroLamports, at));
}

/** Headroom over simulated use: an account's state may change before it lands (a swept ATA etc.). */
const CU_HEADROOM_PERCENT = 20;
const CU_HEADROOM_MIN = 2_000;
/** Used when simulation gives nothing (an RPC error, a buyer not yet funded): a transfer with a reference takes ~6.5k CU. */
export const FALLBACK_CU_LIMIT = 30_000;

/**
 * A compute-unit limit from the simulation's `unitsConsumed` plus headroom. Why: the priority fee is
 * per *requested* unit, so the default 200k request would pay ~30× what the transfer uses.
 */
export async function computeUnitLimit(rpc: SolanaRpc, unsigned: Transaction): Promise<number> {
  try {
    const tx = new VersionedTransaction(unsigned.compileMessage());
    const { value } = await rpc.simulateTransaction(tx, { sigVerify: false, replaceRecentBlockhash: false, commitment: 'confirmed' });
    const used = value.unitsConsumed;
    if (value.err || !used) return FALLBACK_CU_LIMIT;
    return Math.ceil((used * (100 + CU_HEADROOM_PERCENT)) / 100) + CU_HEADROOM_MIN;
  } catch {
    return FALLBACK_CU_LIMIT;
  }
}
