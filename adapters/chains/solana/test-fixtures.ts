// Shared setup for the Solana chain tests: a fresh sandbox, a buyer holding USDC and no SOL, and helpers
// that play the wallet (sign) and an attacker (tamper, sign with another key).
import { createPrivateKey, sign as cryptoSign } from 'node:crypto';
import { Transaction, VersionedTransaction, type Keypair } from '@solana/web3.js';
import { createSolanaSandbox, type SolanaSandbox } from '../../sandbox/solana/sandbox.ts';
import { buildPaymentTransaction, type BuiltPaymentTransaction } from './build.ts';
import { deriveReference } from './reference.ts';
import { verifySignedTransaction } from './verify.ts';
import { withFeePayerSignature } from './cosign.ts';
import type { SolanaRpc } from './rpc.ts';

export interface Fixture {
  sandbox: SolanaSandbox;
  buyer: Keypair;
  merchant: Keypair;
  attacker: Keypair;
}

export const USDC = (units: number): bigint => BigInt(Math.round(units * 1_000_000));

export function setup(): Fixture {
  const sandbox = createSolanaSandbox();
  const buyer = sandbox.keypair('test-buyer');
  sandbox.fund(buyer.publicKey.toBase58(), sandbox.mint.toBase58(), USDC(10));
  const merchant = sandbox.keypair('test-merchant');
  // The service pays only destinations whose token account exists (payable.ts).
  sandbox.openTokenAccount(merchant.publicKey.toBase58());
  return { sandbox, buyer, merchant, attacker: sandbox.keypair('test-attacker') };
}

export function build(f: Fixture, amount: bigint, paymentId = 'pay_1', connection: SolanaRpc = f.sandbox.connection): Promise<BuiltPaymentTransaction> {
  return buildPaymentTransaction({
    connection,
    feePayer: f.sandbox.feePayer.publicKey,
    buyer: f.buyer.publicKey,
    mint: f.sandbox.mint,
    decimals: 6,
    destinationOwner: f.merchant.publicKey,
    amount,
    reference: deriveReference(paymentId, 'opt_1'),
  });
}

/**
 * What the service does with a wallet's answer at confirm, minus the simulation: checks it, then signs
 * as fee payer. For tests that need landable bytes (or bytes that fail on chain) directly.
 */
export function serviceSigned(f: Fixture, built: BuiltPaymentTransaction, buyerSigned: string): { transaction: string; signature: string } {
  const verdict = verifySignedTransaction(buyerSigned, { messageBase64: built.messageBase64, buyer: f.buyer.publicKey, feePayer: f.sandbox.feePayer.publicKey });
  if (!verdict.ok) throw new Error(`not the built transaction: ${verdict.reason}`);
  const { raw, signature } = withFeePayerSignature(verdict.wire, f.sandbox.feePayer);
  return { transaction: raw.toString('base64'), signature };
}

/** What a wallet does for `solana_signTransaction` with web3.js's legacy Transaction. */
export function walletSignLegacy(transactionBase64: string, signer: Keypair): string {
  const tx = Transaction.from(Buffer.from(transactionBase64, 'base64'));
  tx.partialSign(signer);
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
}

/** The same with VersionedTransaction (what most wallet adapters use today). */
export function walletSignVersioned(transactionBase64: string, signer: Keypair): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(transactionBase64, 'base64'));
  tx.sign([signer]);
  return Buffer.from(tx.serialize()).toString('base64');
}

/** A raw Ed25519 signature by any key over any bytes (an attacker filling someone else's slot). */
export function rawSign(message: Uint8Array, signer: Keypair): Buffer {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), signer.secretKey.subarray(0, 32)]);
  return cryptoSign(null, message, createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }));
}
