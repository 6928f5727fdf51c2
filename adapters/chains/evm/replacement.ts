// A relayer transaction the node holds but does not mine (its fee fell below the base fee after a
// spike) blocks every later relayer transaction behind its nonce. It is replaced by the same
// request at the same nonce with higher fees; the fees the relayer signs are capped, so a hostile
// fee spike cannot make it pay any price.
import { Transaction, type FeeData } from 'ethers';

/** geth and EDR accept a replacement only when both fees rise by at least 10%; 25% leaves room. */
const BUMP_PERCENT = 125n;
const ACCEPTED_PERCENT = 110n;
/** The default cap of maxFeePerGas (and gasPrice) the relayer signs: 500 gwei. */
export const DEFAULT_MAX_FEE_PER_GAS = 500_000_000_000n;

const percentUp = (v: bigint, percent: bigint) => (v * percent + 99n) / 100n;
const max = (a: bigint, b: bigint | null) => (b !== null && b > a ? b : a);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

export type Replacement = { ok: true; tx: Transaction } | { ok: false; reason: string };

/**
 * The unsigned replacement of the signed `rawTx`: everything but the fees kept (nonce, gas limit,
 * call), each fee raised by 25% and to at least what the node suggests now, then capped. Refused
 * when the cap leaves less than the 10% nodes require: sending it would only be rejected.
 */
export function bumpedReplacement(rawTx: string, now: Pick<FeeData, 'maxFeePerGas' | 'maxPriorityFeePerGas' | 'gasPrice'>, cap: bigint): Replacement {
  const old = Transaction.from(rawTx);
  const tx = old.clone();
  tx.signature = null;
  const capped = { ok: false, reason: `the fee cap (${cap} wei per gas) leaves no room for a replacement` } as const;
  if (old.maxFeePerGas !== null && old.maxPriorityFeePerGas !== null) {
    const fee = min(max(percentUp(old.maxFeePerGas, BUMP_PERCENT), now.maxFeePerGas), cap);
    const tip = min(max(percentUp(old.maxPriorityFeePerGas, BUMP_PERCENT), now.maxPriorityFeePerGas), fee);
    if (fee < percentUp(old.maxFeePerGas, ACCEPTED_PERCENT) || tip < percentUp(old.maxPriorityFeePerGas, ACCEPTED_PERCENT)) return capped;
    tx.maxFeePerGas = fee;
    tx.maxPriorityFeePerGas = tip;
    return { ok: true, tx };
  }
  const price = min(max(percentUp(old.gasPrice ?? 0n, BUMP_PERCENT), now.gasPrice), cap);
  if (price < percentUp(old.gasPrice ?? 0n, ACCEPTED_PERCENT)) return capped;
  tx.gasPrice = price;
  return { ok: true, tx };
}
