// The reference tag that binds a direct ERC-20 transfer to one payment option. The wallet
// broadcasts the transfer itself, so nothing it signs names the payment unless the calldata does:
// the tag rides after the ABI-encoded `transfer(to, value)` arguments, which tokens ignore (the
// ABI decoder reads only the words it needs), as Solana Pay's reference keys ride on a transfer.
import { isHexString, keccak256 } from 'ethers';
import { abiEncodeStrings } from './nonce.ts';

const REFERENCE_DOMAIN = 'merchant-payments/evm-transfer-reference/v1';

/**
 * The option's tag, 32 bytes as 0x hex: keccak256(abi.encode(domain, paymentId, optionId)).
 * Deterministic, so verification rebuilds it rather than trusting stored state; the domain
 * string keeps it apart from the gasless flows' nonces derived from the same ids.
 */
export function transferReference(paymentId: string, optionId: string): string {
  if (paymentId === '' || optionId === '') throw new Error('paymentId and optionId must be non-empty');
  return keccak256(abiEncodeStrings([REFERENCE_DOMAIN, paymentId, optionId]));
}

/** `calldata` with the tag appended. */
export function appendReference(calldata: string, reference: string): string {
  if (!isHexString(calldata) || !isHexString(reference, 32)) throw new Error('calldata and a 32-byte reference must be 0x hex');
  return `${calldata}${reference.slice(2)}`.toLowerCase();
}

/**
 * Whether a transaction's input carries the tag anywhere, byte-aligned: "anywhere" lets a smart
 * wallet's batch (the transfer's calldata nested in an execute call) count too.
 */
export function carriesReference(input: string, reference: string): boolean {
  if (!isHexString(input) || !isHexString(reference, 32)) return false;
  const haystack = input.slice(2).toLowerCase();
  const needle = reference.slice(2).toLowerCase();
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    if (at % 2 === 0) return true;
  }
  return false;
}
