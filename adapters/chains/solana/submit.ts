import { SendTransactionError } from '@solana/web3.js';
import type { SolanaRpc } from './rpc.ts';
import { decodeBase64Strict, signatureOf } from './wire.ts';

export type SubmitResult =
  /** The node accepted it; follow it with `checkTransaction`. */
  | { status: 'sent'; signature: string }
  /** The same transaction already landed: nothing moves twice; follow the same signature. */
  | { status: 'already_processed'; signature: string }
  /** The node refused it (preflight failed: e.g. insufficient funds, blockhash not found). */
  | { status: 'rejected'; signature: string; reason: string }
  /** No answer (network error, timeout): it may or may not have been forwarded. */
  | { status: 'unknown'; signature: string; reason: string };

const ALREADY_PROCESSED = /already ?been ?processed|AlreadyProcessed/i;

/**
 * Broadcasts a verified, fee-payer-signed and simulated transaction (base64) once.
 *
 * Why `skipPreflight: true, maxRetries: 0`: the service simulated these exact bytes itself (cosign.ts,
 * and again before each re-send); the node's own retry queue would keep sending on its schedule
 * after the service has decided, so the service re-sends the same bytes itself every job run (~1 s)
 * until the signature is seen or its blockhash has expired.
 *
 * Why a result instead of an exception: the signature is known before sending, and only the node's own
 * refusal is a definite "did not go out from here". A network error is `unknown`: the caller keeps the
 * payment `processing` and follows the signature with `checkTransaction` (and the blockhash deadline),
 * because the transaction may still land. Even after `rejected`, treat the payment as failed only once
 * `checkTransaction` reports the blockhash expired, since the wallet also holds the signed bytes.
 */
export async function submitTransaction(connection: SolanaRpc, signedBase64: string): Promise<SubmitResult> {
  const raw = decodeBase64Strict(signedBase64);
  const signature = signatureOf(signedBase64);
  if (!raw || !signature) throw new TypeError('not a base64 transaction');
  try {
    const returned = await connection.sendRawTransaction(raw, { skipPreflight: true, maxRetries: 0 });
    return { status: 'sent', signature: returned || signature };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (ALREADY_PROCESSED.test(reason)) return { status: 'already_processed', signature };
    if (error instanceof SendTransactionError) {
      return { status: 'rejected', signature, reason: error.transactionError.message || reason };
    }
    return { status: 'unknown', signature, reason };
  }
}
