// Per-payment nonces: the payment is matched by its own id bound into what the buyer signs.
import { AbiCoder, keccak256, toBigInt } from 'ethers';

const NONCE_TAG = 'merchant-payments/evm-payment-nonce/v1';

/** The nonce for one (payment, option) in both forms the gasless flows use. */
export type DerivedNonce = {
  /** bytes32 hex for EIP-3009 `transferWithAuthorization`. */
  eip3009: string;
  /** uint256 for Permit2 SignatureTransfer (word = nonce >> 8, bit = nonce & 255). */
  permit2: bigint;
};

/**
 * Derives the nonce from keccak256(abi.encode(tag, paymentId, optionId)). ABI encoding keeps the
 * two ids apart (no "ab"+"c" = "a"+"bc" ambiguity); the tag keeps it from meaning anything else.
 * The Permit2 form is the same 256-bit value, so two payments collide only on a keccak collision:
 * Permit2 marks each nonce as one bit, and distinct 256-bit nonces never share a bit.
 */
export function deriveNonce(paymentId: string, optionId: string): DerivedNonce {
  if (paymentId === '' || optionId === '') throw new Error('paymentId and optionId must be non-empty');
  const hash = keccak256(AbiCoder.defaultAbiCoder().encode(['string', 'string', 'string'], [NONCE_TAG, paymentId, optionId]));
  return { eip3009: hash, permit2: toBigInt(hash) };
}
