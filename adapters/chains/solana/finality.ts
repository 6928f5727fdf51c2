// Finality on Solana: a payment counts as succeeded at `confirmed` (a supermajority voted on its
// block), but a confirmed block can still be left behind by the cluster (rare, and it has happened
// under partitions); `finalized` (rooted, 32 slots on) cannot. The finality job follows the
// transaction until it is finalized, as on EVM chains (adapters/chains/evm/finality.ts).
import type { FinalityState, SplSubmission } from '../../../server/ports/chains.ts';
import type { SolanaRpc } from './rpc.ts';
import { checkTransaction } from './status.ts';
import { simulateSigned } from './cosign.ts';
import { submitTransaction } from './submit.ts';
import { decodeBase64Strict } from './wire.ts';

/** The commitment at which a Solana transfer is final (CHAIN_FINALITY, server/chain-profiles.ts). */
export type SolanaFinality = 'confirmed' | 'finalized';

/**
 * One look at a succeeded payment's transaction `txId` toward `finality`.
 *
 * - Finalized without error: final.
 * - Seen below finalized: pending.
 * - No node knows it any more (its block was left behind) while its blockhash is valid: the same
 *   signed bytes are sent again (same signature, so it lands at most once), after a simulation, so
 *   the fee payer never pays for a transfer that would now fail (the buyer emptied the account).
 * - Gone for good, said by a node at least as fresh as the one that read the block height (its
 *   blockhash expired unseen), or landed again with an error: reversed, the merchant was not paid.
 * An RPC error is pending: nothing is decided on an answer that did not come.
 */
export async function followSolanaFinality(connection: SolanaRpc, sub: SplSubmission, txId: string, finality: SolanaFinality): Promise<FinalityState> {
  const check = await checkTransaction(connection, txId, { commitment: finality, lastValidBlockHeight: sub.lastValidBlockHeight });
  if (check.status === 'confirmed') return { state: 'final', txId };
  if (check.status === 'unknown') return { state: 'pending', reason: `rpc error: ${check.reason.slice(0, 200)}` };
  if (check.status === 'failed') {
    const why =
      check.reason === 'blockhash_expired'
        ? 'its block was dropped before it was finalized, and its blockhash expired before it landed again'
        : `it landed again with an error (${check.reason})`;
    return { state: 'reversed', reason: why };
  }
  if (check.seen) return { state: 'pending', reason: `awaiting ${finality}` };
  return resend(connection, sub, txId);
}

/** The dropped transaction's own bytes, sent again if they would still pay. */
async function resend(connection: SolanaRpc, sub: SplSubmission, txId: string): Promise<FinalityState> {
  const raw = decodeBase64Strict(sub.transaction);
  if (!raw) return { state: 'pending', reason: 'dropped; its stored bytes are unreadable' };
  const preflight = await simulateSigned(connection, raw, txId);
  if (preflight.status === 'rpc_error') return { state: 'pending', reason: `dropped; simulation: ${preflight.reason.slice(0, 200)}` };
  if (preflight.status === 'would_fail') {
    if (preflight.alreadyProcessed) return { state: 'pending', reason: 'seen again by the simulating node' };
    return { state: 'pending', reason: `dropped; not sent again, it would fail: ${preflight.reason.slice(0, 200)}` };
  }
  const sent = await submitTransaction(connection, sub.transaction);
  return { state: 'pending', reason: sent.status === 'sent' || sent.status === 'already_processed' ? 'dropped; sent again' : `dropped; sending again: ${sent.status}` };
}
