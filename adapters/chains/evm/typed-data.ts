// EIP-712 typed data in the JSON form wallets take for `eth_signTypedData_v4`, and recovery.
import { Signature, TypedDataEncoder, concat, dataSlice, getAddress, getBytes, keccak256, recoverAddress, toQuantity } from 'ethers';
import { recover } from 'tiny-secp256k1';

// The shapes live in the chain port (they are stored with quotes and submissions).
export type { Eip712Domain, Eip712TypedData, TypedDataField } from '../../../server/ports/chain-state-eip155.ts';
import type { Eip712Domain, Eip712TypedData, TypedDataField } from '../../../server/ports/chain-state-eip155.ts';

/**
 * Splits the wallet JSON into the (domain, types, message) triple ethers signs and verifies:
 * ethers derives `EIP712Domain` itself and rejects it among the types.
 */
export function toEthersTypedData(typedData: Eip712TypedData): {
  domain: Eip712Domain;
  types: Record<string, TypedDataField[]>;
  message: Record<string, unknown>;
} {
  const types = Object.fromEntries(Object.entries(typedData.types).filter(([name]) => name !== 'EIP712Domain'));
  return { domain: typedData.domain, types, message: typedData.message };
}

/**
 * Recovers the signer over `typedData` using the caller's canonical `types` (not the ones in
 * the object), so a payload whose types were altered cannot pass as the expected message.
 */
export function recoverTypedDataSigner(typedData: Eip712TypedData, canonicalTypes: Record<string, TypedDataField[]>, primaryType: string, signature: string): string {
  if (typedData.primaryType !== primaryType) throw new Error(`Expected primaryType ${primaryType}`);
  const digest = TypedDataEncoder.hash(typedData.domain, canonicalTypes, typedData.message);
  // ethers parses the signature, so the same ones are accepted and refused as by verifyTypedData.
  const sig = Signature.from(signature);
  return recoverSigner(digest, sig);
}

/**
 * The address that signed `digest`. The curve work is libsecp256k1 compiled to WebAssembly
 * (tiny-secp256k1), not ethers' JavaScript (@noble/curves): 0.4 against 3.3 ms a recovery measured
 * side by side, and every confirm recovers its buyer's signature (the settle bench's API processes
 * spent half their CPU there, issue 32). What libsecp256k1 cannot recover, ethers decides, so
 * the answer (or the error) is ethers' own (typed-data.test.ts compares the two).
 */
function recoverSigner(digest: string, sig: Signature): string {
  let publicKey: Uint8Array | null;
  try {
    publicKey = recover(getBytes(digest), getBytes(concat([sig.r, sig.s])), sig.yParity, false);
  } catch {
    publicKey = null;
  }
  if (!publicKey) return getAddress(recoverAddress(digest, sig));
  return getAddress(dataSlice(keccak256(publicKey.subarray(1)), 12));
}

/** Renders a positive chain id as the hex quantity used in typed-data domains. */
export function chainIdQuantity(chainId: number | bigint): string {
  const value = BigInt(chainId);
  if (value <= 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`Invalid chain id: ${chainId}`);
  return toQuantity(value);
}

/** Checks a non-negative uint256 and renders it as a hex quantity for the typed-data JSON. */
export function uint256Quantity(value: bigint, field: string): string {
  if (value < 0n || value >= 2n ** 256n) throw new Error(`${field} out of uint256 range`);
  return toQuantity(value);
}

/** Reads a uint256 field from a typed-data message (decimal or hex string, number, bigint). */
export function messageUint(message: Record<string, unknown>, field: string): bigint {
  const raw = message[field];
  if (typeof raw === 'bigint') return raw;
  if (typeof raw === 'string' && raw !== '') return BigInt(raw);
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return BigInt(raw);
  throw new Error(`Typed data field ${field} is not an integer`);
}

/** Reads an address field from a typed-data message, checksummed. */
export function messageAddress(message: Record<string, unknown>, field: string): string {
  const raw = message[field];
  if (typeof raw !== 'string') throw new Error(`Typed data field ${field} is not an address`);
  return getAddress(raw);
}
