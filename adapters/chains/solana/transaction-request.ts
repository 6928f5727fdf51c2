// Solana Pay transaction requests: a transaction the wallet signs AND broadcasts itself, with no
// confirm call. Design (docs/hosted-checkout.md, "Solana Pay"):
//
// - The BUYER is the fee payer. A transaction that carries the service's fee-payer signature can be
//   landed by its holder as a failing transfer the service pays for (skipPreflight), and no check
//   before handing it out (balance, simulation) survives the buyer moving funds afterwards. With the
//   buyer paying, the service's fee payer is not in the transaction at all: a hostile buyer can cost
//   it nothing (fee-payer balance unchanged, shown in transaction-request.test.ts).
// - A second signer, the option's CO-SIGNER, is a key the service derives per (payment, option) and
//   signs with before handing the transaction out. It is the Solana Pay reference too (the watcher
//   finds transactions by it), and its signature pins the transaction: a wallet must not change a
//   transaction that carries another signer's signature (the spec, and @solana/pay's fetchTransaction
//   keeps the blockhash only then), so the same answer signed twice is the same transaction, which
//   lands at most once. Two scans cannot pay twice.
// - While a build's blockhash is valid, every request for the option answers that same build; a new
//   one is made only once the old can no longer land (finalized height past its last valid height).
import { createHmac } from 'node:crypto';
import { Keypair, VersionedMessage, VersionedTransaction, type PublicKey } from '@solana/web3.js';
import type { WalletBuild } from '../../../server/ports/chain-state-solana.ts';
import type { SolanaRpc } from './rpc.ts';
import { buildPaymentTransaction, type BuildPaymentInput } from './build.ts';
import { base58Decode } from './base58.ts';
import { getTokenBalance } from './balance.ts';
import { formatMinor } from '../../../server/domain/currencies.ts';
import { ed25519Verify } from './verify.ts';

const DOMAIN = 'merchant-payments-service/solana-pay-cosigner/v1';

/**
 * Builds kept per option. A build lives until its blockhash expires (~60–90 s) and a quote about
 * five minutes, so a quote sees a handful; the bound keeps a stored state small whatever happens.
 */
export const MAX_WALLET_BUILDS = 16;

/**
 * The option's co-signer: derived from the fee payer's secret, so it needs no storage and no one
 * else can sign for it (a transaction requiring its signature is one the service built).
 */
export function cosignerOf(secret: Keypair, paymentId: string, optionId: string): Keypair {
  if (!paymentId || !optionId) throw new Error('paymentId and optionId are required');
  const seed = createHmac('sha256', Buffer.from(secret.secretKey.subarray(0, 32)))
    .update(`${DOMAIN}\0${paymentId}\0${optionId}`)
    .digest();
  return Keypair.fromSeed(seed);
}

/** The wire transaction for a wallet: the buyer's slot empty, the co-signer's filled. */
export function walletTransaction(messageBase64: string, cosigner: Keypair): string {
  const tx = new VersionedTransaction(VersionedMessage.deserialize(Buffer.from(messageBase64, 'base64')));
  tx.sign([cosigner]);
  return Buffer.from(tx.serialize()).toString('base64');
}

export type WalletBuildOutcome =
  | { status: 'reused' | 'built'; transaction: string; builds: WalletBuild[] }
  /** Too many builds for this option already: ask for a new option. */
  | { status: 'exhausted' }
  /** The buyer holds less than the amount: a transaction would only fail on chain. */
  | { status: 'short'; balance: bigint };

/**
 * The transaction to answer a wallet with for this option: the newest build while it can still
 * land, else a new one (appended to `builds`). "Can still land" is read at `finalized`, so a build
 * is never replaced while a node could still include it.
 */
export async function walletBuildFor(
  connection: SolanaRpc,
  input: Omit<BuildPaymentInput, 'feePayer' | 'reference' | 'connection' | 'referenceSigns'>,
  cosigner: Keypair,
  builds: WalletBuild[],
): Promise<WalletBuildOutcome> {
  const newest = builds[builds.length - 1];
  if (newest) {
    const finalized = await connection.getBlockHeight('finalized');
    if (finalized <= newest.lastValidBlockHeight) return { status: 'reused', transaction: walletTransaction(newest.messageBase64, cosigner), builds };
  }
  if (builds.length >= MAX_WALLET_BUILDS) return { status: 'exhausted' };
  // Checked before each new build only (a reused one is the same transaction, paying at most once):
  // the wallet would show a failing simulation, or a careless one land a failing transfer at the
  // buyer's cost. Not a defence of the fee payer, who is not in the transaction at all.
  const balance = await getTokenBalance(connection, input.buyer, input.mint);
  if (balance < input.amount) return { status: 'short', balance };
  const built = await buildPaymentTransaction({ ...input, connection, feePayer: input.buyer, reference: cosigner.publicKey, referenceSigns: true });
  const build: WalletBuild = { messageBase64: built.messageBase64, lastValidBlockHeight: built.lastValidBlockHeight };
  return { status: 'built', transaction: walletTransaction(build.messageBase64, cosigner), builds: [...builds, build] };
}

/**
 * The transaction, final on the chain, that paid one of these builds, if any: found by the
 * co-signer (the Solana Pay reference), and accepted only when its id (the buyer's fee-payer
 * signature) verifies over one of the exact messages built. An exact message fixes mint, amount,
 * destination and everything else, so a landed transaction without error paid the merchant
 * exactly; a transaction that merely names the reference, or anything else, is ignored.
 */
export async function findWalletPayment(connection: SolanaRpc, cosigner: PublicKey, buyer: PublicKey, builds: WalletBuild[]): Promise<string | null> {
  if (!builds.length) return null;
  const infos = await connection.getSignaturesForAddress(cosigner, { limit: 100 }, 'finalized');
  const messages = builds.map((b) => Buffer.from(b.messageBase64, 'base64'));
  for (const info of [...infos].sort((a, b) => a.slot - b.slot)) {
    if (info.err !== null && info.err !== undefined) continue;
    let signature: Uint8Array;
    try {
      signature = base58Decode(info.signature);
    } catch {
      continue;
    }
    if (signature.length !== 64) continue;
    if (messages.some((m) => ed25519Verify(m, signature, buyer))) return info.signature;
  }
  return null;
}

/** Base units → "10.5" (exact, no trailing zeros): what the wallet's message shows. */
export function tokenUnits(value: bigint, decimals: number): string {
  return formatMinor(value, decimals)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}
