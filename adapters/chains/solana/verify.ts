import { createPublicKey, verify as cryptoVerify } from 'node:crypto';
import { VersionedMessage, type PublicKey } from '@solana/web3.js';
import { decodeBase64Strict, splitWireTransaction, type WireTransaction } from './wire.ts';

export type VerifyFailure =
  | 'not_a_transaction'
  | 'message_mismatch'
  | 'signature_count_mismatch'
  | 'unexpected_fee_payer'
  | 'buyer_not_signer'
  | 'unexpected_signer'
  | 'missing_buyer_signature'
  | 'invalid_buyer_signature'
  | 'fee_payer_slot_filled';

/** The checked transaction: its exact message and the buyer's signatures, the fee payer's slot still empty. */
export type VerifyResult = { ok: true; wire: WireTransaction } | { ok: false; reason: VerifyFailure };

export interface VerifyExpectation {
  /** `messageBase64` returned by `buildPaymentTransaction` for this payment and option. */
  messageBase64: string;
  /** The option's account (CAIP-10 address) that must have signed. */
  buyer: PublicKey;
  /** The service's fee payer key. */
  feePayer: PublicKey;
}

// DER SubjectPublicKeyInfo prefix for a raw 32-byte Ed25519 key (RFC 8410).
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Whether `signature` is `publicKey`'s Ed25519 signature over `message`. */
export function ed25519Verify(message: Uint8Array, signature: Uint8Array, publicKey: PublicKey): boolean {
  const key = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey.toBuffer()]),
    format: 'der',
    type: 'spki',
  });
  return cryptoVerify(null, message, key, signature);
}

const isZero = (bytes: Uint8Array): boolean => bytes.every((b) => b === 0);

/**
 * Checks what the wallet returned for `solana_signTransaction` before the fee payer signs it.
 *
 * Why so strict: the wallet could return anything. Only the exact message we built (same fee payer,
 * accounts, destination, amount, mint, reference, instructions, blockhash) signed by the option's
 * buyer may go on to be signed by our fee payer (cosign.ts); a detached signature, a modified
 * transaction or another key's signature is refused here. The fee payer's slot must still be empty:
 * the service never handed out its signature, so anything there was put by someone else.
 */
export function verifySignedTransaction(signedBase64: string, expected: VerifyExpectation): VerifyResult {
  const raw = decodeBase64Strict(signedBase64);
  const wire = raw && splitWireTransaction(raw);
  if (!wire) return { ok: false, reason: 'not_a_transaction' };

  const expectedMessage = Buffer.from(expected.messageBase64, 'base64');
  if (!Buffer.from(wire.message).equals(expectedMessage)) return { ok: false, reason: 'message_mismatch' };

  const message = VersionedMessage.deserialize(expectedMessage);
  const required = message.header.numRequiredSignatures;
  if (wire.signatures.length !== required) return { ok: false, reason: 'signature_count_mismatch' };
  const signers = message.staticAccountKeys.slice(0, required);
  if (!signers[0]?.equals(expected.feePayer)) return { ok: false, reason: 'unexpected_fee_payer' };
  if (!signers.some((k) => k.equals(expected.buyer))) return { ok: false, reason: 'buyer_not_signer' };

  for (const [i, signer] of signers.entries()) {
    const signature = wire.signatures[i] as Uint8Array;
    const isBuyer = signer.equals(expected.buyer);
    if (!isBuyer && i !== 0) return { ok: false, reason: 'unexpected_signer' };
    if (!isBuyer) {
      if (!isZero(signature)) return { ok: false, reason: 'fee_payer_slot_filled' };
      continue;
    }
    if (isZero(signature)) return { ok: false, reason: 'missing_buyer_signature' };
    if (!ed25519Verify(wire.message, signature, signer)) return { ok: false, reason: 'invalid_buyer_signature' };
  }
  return { ok: true, wire };
}
