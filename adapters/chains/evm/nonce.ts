// Per-payment nonces: the payment is matched by its own id bound into what the buyer signs.
import { keccak256, toBigInt } from 'ethers';

const NONCE_TAG = 'merchant-payments/evm-payment-nonce/v1';

/** The nonce for one (payment, option) in both forms the gasless flows use. */
export type DerivedNonce = {
  /** bytes32 hex for EIP-3009 `transferWithAuthorization`. */
  eip3009: string;
  /** uint256 for Permit2 SignatureTransfer (word = nonce >> 8, bit = nonce & 255). */
  permit2: bigint;
};

/**
 * `abi.encode(string, string, …)`, written out: a head of one offset word per string, then each
 * string as a length word and its UTF-8 bytes zero-padded to whole words. ethers' general ABI
 * coder produced the same bytes with about 90 KB of garbage per call, most of the options
 * endpoint's allocation (the test checks the two agree).
 */
export function abiEncodeStrings(values: string[]): Uint8Array {
  const bytes = values.map((v) => Buffer.from(v, 'utf8'));
  const tailLength = (b: Buffer) => 32 + Math.ceil(b.length / 32) * 32;
  const total = 32 * values.length + bytes.reduce((n, b) => n + tailLength(b), 0);
  const out = Buffer.alloc(total);
  let tail = 32 * values.length;
  bytes.forEach((b, i) => {
    out.writeUInt32BE(tail, 32 * i + 28);
    out.writeUInt32BE(b.length, tail + 28);
    b.copy(out, tail + 32);
    tail += tailLength(b);
  });
  return out;
}

/**
 * Derives the nonce from keccak256(abi.encode(tag, paymentId, optionId)). ABI encoding keeps the
 * two ids apart (no "ab"+"c" = "a"+"bc" ambiguity); the tag keeps it from meaning anything else.
 * The Permit2 form is the same 256-bit value, so two payments collide only on a keccak collision:
 * Permit2 marks each nonce as one bit, and distinct 256-bit nonces never share a bit.
 */
export function deriveNonce(paymentId: string, optionId: string): DerivedNonce {
  if (paymentId === '' || optionId === '') throw new Error('paymentId and optionId must be non-empty');
  const hash = keccak256(abiEncodeStrings([NONCE_TAG, paymentId, optionId]));
  return { eip3009: hash, permit2: toBigInt(hash) };
}

const REFERENCE_TAG = 'merchant-payments/evm-payment-reference/v1';

/**
 * The bytes32 naming a payment in what the buyer signs (the Permit2 witness): keccak256 of
 * abi.encode(tag, paymentId). Per payment, not per option: every option of one payment pays the
 * same thing; the nonce keeps the options apart.
 */
export function derivePaymentReference(paymentId: string): string {
  if (paymentId === '') throw new Error('paymentId must be non-empty');
  return keccak256(abiEncodeStrings([REFERENCE_TAG, paymentId]));
}
