// Confirmation tracking. An RPC error or a timeout is never a failure: funds may have moved, so
// it answers "pending" and the caller reconciles later.
import { isError, type Provider, type TransactionReceipt } from 'ethers';

/** Where a transaction stands, as far as the node can tell right now. */
export type ConfirmationState =
  { status: 'mined'; success: boolean; blockNumber: number; confirmations: number; receipt: TransactionReceipt } | { status: 'pending'; reason: 'not_mined' | 'rpc_error' };

/** A receipt whose block is canonical, read against the head: `confirmations` counts the inclusion block as 1. */
export function minedAt(receipt: TransactionReceipt, head: number): ConfirmationState {
  return { status: 'mined', success: receipt.status === 1, blockNumber: receipt.blockNumber, confirmations: Math.max(0, head - receipt.blockNumber + 1), receipt };
}

/**
 * Reads the receipt, its block and the chain head once. `confirmations` counts the inclusion block
 * as 1. A receipt whose block is not the canonical one at its height (a node that kept it across a
 * reorg, a replica behind a balancer) is no evidence: not mined, so it is looked for again.
 */
export async function getConfirmations(provider: Provider, txHash: string): Promise<ConfirmationState> {
  try {
    const receipt = await provider.getTransactionReceipt(txHash);
    if (!receipt) return { status: 'pending', reason: 'not_mined' };
    const block = await provider.getBlock(receipt.blockNumber);
    if (block?.hash !== receipt.blockHash) return { status: 'pending', reason: 'not_mined' };
    return minedAt(receipt, await provider.getBlockNumber());
  } catch {
    return { status: 'pending', reason: 'rpc_error' };
  }
}

export type WaitResult =
  | { status: 'confirmed'; blockNumber: number; receipt: TransactionReceipt }
  | { status: 'reverted'; blockNumber: number; receipt: TransactionReceipt }
  | { status: 'pending'; reason: 'not_mined' | 'rpc_error' | 'awaiting_confirmations' };

export type WaitOptions = {
  /** Blocks including the inclusion block; default 1. */
  confirmations?: number;
  /** Give up (answer pending) after this long; default 30 000 ms. */
  timeoutMs?: number;
  /** Poll interval; default 500 ms. */
  pollMs?: number;
};

/**
 * Polls until the transaction has `confirmations` blocks, then answers confirmed or reverted.
 * A revert counts only at full depth too (a shallow block can still be reorganized away).
 * Timeout and RPC errors answer pending, never failure.
 */
export async function waitForReceipt(provider: Provider, txHash: string, options: WaitOptions = {}): Promise<WaitResult> {
  const confirmations = Math.max(1, options.confirmations ?? 1);
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const pollMs = options.pollMs ?? 500;
  for (;;) {
    const state = await getConfirmations(provider, txHash);
    if (state.status === 'mined' && state.confirmations >= confirmations) {
      return { status: state.success ? 'confirmed' : 'reverted', blockNumber: state.blockNumber, receipt: state.receipt };
    }
    const last: WaitResult = state.status === 'mined' ? { status: 'pending', reason: 'awaiting_confirmations' } : state;
    const left = deadline - Date.now();
    if (left <= 0) return last;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, left)));
  }
}

/**
 * How to treat an error thrown by a submit function. `rejected`: the node's simulation reverted
 * during gas estimation, so nothing was broadcast (bad signature, used nonce, low balance).
 * `unknown`: anything else (timeouts, RPC failures, broadcast errors): the transaction may be
 * out there, so keep the payment processing and reconcile.
 */
export function classifySubmitError(error: unknown): 'rejected' | 'unknown' {
  if (isError(error, 'CALL_EXCEPTION') && error.receipt == null && error.action === 'estimateGas') return 'rejected';
  return 'unknown';
}
