import type { PublicKey } from '@solana/web3.js';
import type { SolanaCommitment, SolanaRpc } from './rpc.ts';

export interface ReferenceMatch {
  signature: string;
  slot: number;
  /** True when the transaction landed with an error (no tokens moved). */
  failed: boolean;
}

/**
 * Lists transactions that name a payment's reference key, oldest first (Solana Pay `findReference`).
 *
 * Why: reconciliation after a crash or an `unknown` submit. Anyone can mention a public key, so a match
 * is only a candidate: accept a signature the service built (the `signature` returned at build time is
 * the transaction id, and only our exact message carries our fee payer's signature for it), then follow
 * it with `checkTransaction`. Needs an RPC node with transaction history for the address (`finalized`
 * is not required; `processed` is not allowed by the RPC for this call).
 */
export async function findPaymentByReference(
  connection: SolanaRpc,
  reference: PublicKey,
  options: { commitment?: Exclude<SolanaCommitment, 'processed'>; limit?: number } = {},
): Promise<ReferenceMatch[]> {
  const infos = await connection.getSignaturesForAddress(reference, { limit: options.limit ?? 100 }, options.commitment ?? 'confirmed');
  return infos.map((info) => ({ signature: info.signature, slot: info.slot, failed: info.err !== null && info.err !== undefined })).sort((a, b) => a.slot - b.slot);
}
