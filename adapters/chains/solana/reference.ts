import { createHash } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';

const DOMAIN = 'merchant-payments-service/solana-reference/v1';

/**
 * The per-payment reference key appended (read-only, non-signer) to the SPL transfer.
 *
 * Why derived and not random: the same (payment, option) always yields the same key, so reconciliation
 * can find the transfer by `getSignaturesForAddress(reference)` after a crash without storing anything
 * extra, and a payment is matched by its own id, never by amount. The key is a hash, not a keypair: no
 * one holds a private key for it, which is fine because it never signs.
 */
export function deriveReference(paymentId: string, optionId: string): PublicKey {
  if (!paymentId || !optionId) throw new Error('paymentId and optionId are required');
  const digest = createHash('sha256').update(`${DOMAIN}\0${paymentId}\0${optionId}`).digest();
  return new PublicKey(digest);
}
