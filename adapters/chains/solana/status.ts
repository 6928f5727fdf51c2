import type { SolanaCommitment, SolanaRpc } from './rpc.ts';
import { meetsCommitment } from './rpc.ts';
import { statusReadsOf } from './status-reads.ts';

/** `pending` with `seen`: it landed, not yet at the commitment; without: no node answered for it yet. */
export type TransactionCheck =
  { status: 'confirmed'; slot: number } | { status: 'pending'; seen?: true } | { status: 'failed'; reason: string } | { status: 'unknown'; reason: string };

export interface CheckOptions {
  /** Commitment at which the payment counts as succeeded (design: configurable, default confirmed). */
  commitment?: SolanaCommitment;
  /**
   * The built transaction's `lastValidBlockHeight`. With it, a transaction never seen after that height
   * is reported failed (`blockhash_expired`): it can no longer land. Without it, unseen stays pending.
   */
  lastValidBlockHeight?: number;
}

/**
 * Follows a submitted transaction.
 *
 * Why these rules: an RPC error is `unknown` and an unseen or not-yet-confirmed transaction is `pending`:
 * neither may become `failed` while the funds could still move. `failed` means either the transaction
 * landed with an error (atomic: no tokens moved) or its blockhash expired (finalized height past
 * `lastValidBlockHeight`, read before the status so a late landing is still seen).
 */
export async function checkTransaction(connection: SolanaRpc, signature: string, options: CheckOptions = {}): Promise<TransactionCheck> {
  const commitment = options.commitment ?? 'confirmed';
  try {
    // Both reads are shared with the other transfers checked at the same moment (status-reads.ts).
    // A transaction seen needs nothing else; only one not seen needs the finalized height (can it
    // still land?), and that height is read before a second status read, so a landing between
    // the two reads is seen rather than called expired.
    const reads = statusReadsOf(connection);
    let { slot, status } = await reads.status(signature);
    let finalized: { absoluteSlot: number; blockHeight?: number } | undefined;
    if (!status && options.lastValidBlockHeight !== undefined) {
      finalized = await reads.finalizedEpoch();
      ({ slot, status } = await reads.status(signature));
    }
    const context = { slot };
    if (!status) {
      const expired = finalized?.blockHeight !== undefined && finalized.blockHeight > (options.lastValidBlockHeight as number);
      if (!expired) return { status: 'pending' };
      // A status node behind the one that saw the height may not have seen a landing yet
      // (replicas behind one URL): "never landed" is said only by a node at least as fresh.
      if (context.slot < (finalized as { absoluteSlot: number }).absoluteSlot) return { status: 'pending' };
      return { status: 'failed', reason: 'blockhash_expired' };
    }
    // Older nodes omit confirmationStatus; `confirmations: null` means rooted (finalized).
    const rooted = status.confirmationStatus === undefined && status.confirmations === null;
    if (status.err) {
      // An error seen only at `processed` may be on a fork that is dropped while the same bytes land
      // elsewhere: it fails the payment only once the cluster has voted on it.
      if (!rooted && !meetsCommitment(status.confirmationStatus, 'confirmed')) return { status: 'pending' };
      return { status: 'failed', reason: `transaction_error: ${JSON.stringify(status.err)}` };
    }
    if (meetsCommitment(status.confirmationStatus, commitment) || rooted) return { status: 'confirmed', slot: status.slot };
    return { status: 'pending', seen: true };
  } catch (error) {
    return { status: 'unknown', reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * True when a transaction built with this `lastValidBlockHeight` can no longer land (or, with a margin,
 * is too close to it to be worth sending). Why: the gateway answers `quote_expired` before submitting.
 */
export async function isBlockhashExpired(connection: SolanaRpc, lastValidBlockHeight: number, marginBlocks = 0): Promise<boolean> {
  const height = await connection.getBlockHeight('confirmed');
  return height + marginBlocks > lastValidBlockHeight;
}
