// How much gas, at what price, the relayer may put into one payment's transaction. The limit is
// the node's estimate with headroom (a destination swept to zero between estimate and execution
// costs ~17k more gas: a fresh storage slot) and never above the flow's ceiling, written into the
// transaction itself: a buyer whose account runs code during the signature check (an EIP-7702
// delegation whose isValidSignature loops) can make it burn at most that. Fees come from the node
// now, with the chain's minimum tip, and are held to the chain's cap.
import type { FeeData } from 'ethers';

export type RelayerFlowName = 'eip3009' | 'permit2';

/**
 * Gas per flow, measured on the sandbox's FiatToken and Permit2: EIP-3009 ~73.7k to a destination
 * that holds the token, ~90.8k to an empty one; Permit2 ~71k and ~88k. `typical` weighs a payment's
 * cost at options (the empty-destination case); `ceiling` is the most any transaction may take,
 * leaving room for token upgrades, never for a loop (10,474,444 gas was seen with a looping buyer).
 */
export const FLOW_GAS: Record<RelayerFlowName, { typical: bigint; ceiling: bigint }> = {
  eip3009: { typical: 91_000n, ceiling: 150_000n },
  permit2: { typical: 95_000n, ceiling: 160_000n },
};

/** A storage slot going from zero to non-zero (EIP-2929/3529): what a swept destination adds. */
const SLOT_HEADROOM = 22_100n;

export type GasLimit = { ok: true; gasLimit: bigint } | { ok: false; reason: string };

/**
 * The gas limit for an estimate of `calls` payments in one transaction (a batch): a quarter more,
 * and at least a fresh storage slot per payment more, capped at the flow's ceiling per payment.
 * An estimate above the ceiling is refused: nothing is sent.
 */
export function gasLimitFor(estimate: bigint, flow: RelayerFlowName, calls = 1): GasLimit {
  const ceiling = FLOW_GAS[flow].ceiling * BigInt(calls);
  if (estimate > ceiling) return { ok: false, reason: `the transaction needs ${estimate} gas, above this flow's ceiling of ${ceiling}` };
  const slots = SLOT_HEADROOM * BigInt(calls);
  const headroom = estimate / 4n > slots ? estimate / 4n : slots;
  const limit = estimate + headroom;
  return { ok: true, gasLimit: limit < ceiling ? limit : ceiling };
}

/** What the chain allows the relayer to pay per gas. */
export interface FeeLimits {
  /** The highest max fee (or gas price) signed, wei. */
  maxFeePerGas: bigint;
  /** The lowest tip nodes of the chain accept, wei. */
  minPriorityFee: bigint;
}

export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

/** A minimum a refusing node named: a tip (Polygon's bor) or a total fee (a replacement). */
export type NamedMinimum = { field: 'tip' | 'fee'; wei: bigint };

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * Fees for a transaction signed now: the node's suggestion, the tip raised to the chain's
 * minimum and to any minimum a refusal named (the max fee raised with it), then held to the cap.
 * `capped` says the cap cut them: such a transaction may wait in the pool until the base fee falls.
 */
export function freshFees(now: Pick<FeeData, 'maxFeePerGas' | 'maxPriorityFeePerGas' | 'gasPrice'>, limits: FeeLimits, named?: NamedMinimum): Fees & { capped: boolean } {
  if (now.maxFeePerGas === null || now.maxPriorityFeePerGas === null) {
    const wanted = max(max(now.gasPrice ?? 0n, limits.minPriorityFee), named?.wei ?? 0n);
    return { gasPrice: min(wanted, limits.maxFeePerGas), capped: wanted > limits.maxFeePerGas };
  }
  const tip = max(max(now.maxPriorityFeePerGas, limits.minPriorityFee), named?.field === 'tip' ? named.wei : 0n);
  let fee = now.maxFeePerGas + (tip - now.maxPriorityFeePerGas);
  if (named?.field === 'fee') fee = max(fee, named.wei);
  const capped = fee > limits.maxFeePerGas;
  fee = min(fee, limits.maxFeePerGas);
  return { maxFeePerGas: fee, maxPriorityFeePerGas: min(tip, fee), capped };
}

/**
 * Whether a transaction sent now can still be mined before the buyer's authorization lapses
 * (EIP-3009 `validBefore`, Permit2 `deadline`), with a margin of a few blocks: later, it could
 * only mine to revert, and the relayer would pay for nothing.
 */
export function mayStillMine(deadlineS: bigint, nowMs: number, blockTimeMs: number): boolean {
  const marginMs = Math.max(3 * blockTimeMs, 5_000);
  return BigInt(Math.ceil((nowMs + marginMs) / 1000)) < deadlineS;
}
