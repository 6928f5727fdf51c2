import { createPrivateKey, sign as cryptoSign } from 'node:crypto';
import { VersionedTransaction, type Keypair } from '@solana/web3.js';
import type { SolanaRpc } from './rpc.ts';
import type { WireTransaction } from './wire.ts';
import { base58Encode } from './base58.ts';

// DER PKCS#8 prefix for a raw 32-byte Ed25519 seed (RFC 8410).
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The fee payer's Ed25519 signature over the exact message bytes (deterministic: same message, same signature). */
function feePayerSignature(message: Uint8Array, feePayer: Keypair): Buffer {
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, feePayer.secretKey.subarray(0, 32)]), format: 'der', type: 'pkcs8' });
  return cryptoSign(null, message, key);
}

/** Rebuilds the wire bytes with the fee payer's signature in slot 0 (no checks: callers verified first). */
export function withFeePayerSignature(wire: WireTransaction, feePayer: Keypair): { raw: Buffer; signature: string } {
  const first = feePayerSignature(wire.message, feePayer);
  const count = wire.signatures.length;
  // A payment transaction has at most a few signers: the compact-u16 count fits one byte.
  if (count > 127) throw new RangeError('too many signatures');
  const raw = Buffer.concat([Buffer.from([count]), first, ...wire.signatures.slice(1).map((s) => Buffer.from(s)), Buffer.from(wire.message)]);
  return { raw, signature: base58Encode(first) };
}

export type CosignResult =
  /** Simulated with every signature checked: ready to send. */
  | { status: 'ok'; transactionBase64: string; signature: string; unitsConsumed: number | null }
  /** The chain would refuse or fail it (buyer's funds, closed accounts, expired blockhash): not sent, not paid. */
  | { status: 'would_fail'; reason: string; blockhashExpired: boolean; alreadyProcessed: boolean }
  /** The node did not answer: nothing can be said, nothing is sent. */
  | { status: 'rpc_error'; reason: string };

/**
 * Signs a verified transaction as fee payer, last, and simulates the whole signed transaction
 * (`sigVerify: true`, `replaceRecentBlockhash: false`: exactly these bytes, as they would land).
 *
 * Why last and why simulate: only a transaction that would succeed may carry the fee payer's
 * signature out of this process; a failing one landed with `skipPreflight` would still charge the
 * fee payer. The signed bytes stay in the service (the job sends them), never with the wallet.
 */
export async function cosignAndSimulate(rpc: SolanaRpc, wire: WireTransaction, feePayer: Keypair): Promise<CosignResult> {
  const { raw, signature } = withFeePayerSignature(wire, feePayer);
  return simulateSigned(rpc, raw, signature);
}

/**
 * The same simulation of already signed bytes, before each (re-)send: a buyer who empties their
 * token account after confirm must not make the fee payer land (and pay for) a failing transfer.
 */
export async function simulateSigned(rpc: SolanaRpc, raw: Uint8Array, signature: string): Promise<CosignResult> {
  let simulated;
  try {
    simulated = await rpc.simulateTransaction(VersionedTransaction.deserialize(raw), { sigVerify: true, replaceRecentBlockhash: false, commitment: 'confirmed' });
  } catch (error) {
    return { status: 'rpc_error', reason: error instanceof Error ? error.message : String(error) };
  }
  const { err, unitsConsumed, logs } = simulated.value;
  if (err) {
    const text = JSON.stringify(err);
    const detail = (logs ?? []).find((l) => /insufficient|Error|failed/i.test(l));
    return {
      status: 'would_fail',
      reason: detail ? `${text}: ${detail}` : text,
      blockhashExpired: /BlockhashNotFound/.test(text),
      alreadyProcessed: /AlreadyProcessed/.test(text),
    };
  }
  return { status: 'ok', transactionBase64: Buffer.from(raw).toString('base64'), signature, unitsConsumed: unitsConsumed ?? null };
}
