// Finality on an EVM chain: a payment counts as succeeded once its transaction is a few blocks
// deep, but a block that deep can still be dropped (Polygon PoS has dropped 157). The service keeps
// following the transaction until the chain's own finality covers its block; each look checks the
// receipt's block is the canonical one at its height, and lets the relayer flow send the recorded
// bytes again while the buyer's authorization is valid (its heal window past the quote deadline).
import type { Provider } from 'ethers';
import type { AdvanceContext, FinalityState, TransferState } from '../../../server/ports/chains.ts';

/** When a block is final on one chain: at or below a block tag, or this many blocks deep (its own counting 1). */
export type EvmFinality = { kind: 'tag'; tag: 'finalized' | 'safe' } | { kind: 'depth'; blocks: number };

/**
 * Whether the node's canonical block at `receipt.blockNumber` is the receipt's block. A receipt
 * can outlive its block: a node behind a balancer, or one that indexes receipts by hash and keeps
 * them across a reorg, answers one from a block no longer in the chain.
 */
export async function isCanonical(provider: Provider, receipt: { blockNumber: number; blockHash: string }): Promise<boolean> {
  const block = await provider.getBlock(receipt.blockNumber);
  return block !== null && block.hash === receipt.blockHash;
}

/** Whether block `blockNumber` is final under `policy` now. */
export async function isFinalBlock(provider: Provider, policy: EvmFinality, blockNumber: number): Promise<boolean> {
  if (policy.kind === 'tag') {
    const tagged = await provider.getBlock(policy.tag);
    return tagged !== null && tagged.number >= blockNumber;
  }
  return (await provider.getBlockNumber()) - blockNumber + 1 >= policy.blocks;
}

/**
 * A context for following a payment that already succeeded: its recorded bytes may be sent again
 * (the same transaction, the same id), but nothing new is ever signed or recorded for it, since
 * its transaction id is what the partner was told; the flow then waits, or fails once the
 * authorization has lapsed.
 */
export function followOnlyContext(rawTx: string | null): AdvanceContext {
  return { rawTx, recordedAt: null, record: () => Promise.resolve(false) };
}

/**
 * One look at a succeeded payment's transaction. `advance` is the flow's own step (it checks the
 * receipt is canonical and deep enough, re-sends the recorded bytes of a dropped transaction, and
 * answers `failed` only when nothing can pay any more). Confirmed and its block final: final.
 * Failed: reversed, the payment's funds are not on the chain. Anything else: look again later.
 */
export async function followFinality(provider: Provider, policy: EvmFinality, advance: () => Promise<TransferState>): Promise<FinalityState> {
  const step = await advance();
  if (step.state === 'failed') return { state: 'reversed', reason: step.reason };
  if (step.state !== 'confirmed') return { state: 'pending', reason: step.state === 'pending' ? (step.reason ?? 'not mined') : 'sent again after its block was dropped' };
  try {
    const receipt = await provider.getTransactionReceipt(step.txId);
    if (!receipt || !(await isCanonical(provider, receipt))) return { state: 'pending', reason: 'its block changed meanwhile' };
    if (!(await isFinalBlock(provider, policy, receipt.blockNumber))) return { state: 'pending', reason: 'awaiting finality' };
    return { state: 'final', txId: step.txId };
  } catch {
    return { state: 'pending', reason: 'rpc error' };
  }
}
