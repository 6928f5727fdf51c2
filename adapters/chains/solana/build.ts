import { ComputeBudgetProgram, Transaction, type Keypair, type PublicKey } from '@solana/web3.js';
import { TOKEN_PROGRAM_ID, createAssociatedTokenAccountIdempotentInstruction, createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { SolanaCommitment, SolanaRpc } from './rpc.ts';
import { base58Encode } from './base58.ts';

const U64_MAX = (1n << 64n) - 1n;

export interface BuildPaymentInput {
  connection: SolanaRpc;
  /** The service's key: pays the fee and the destination ATA rent, so the buyer needs no SOL. */
  feePayer: Keypair;
  buyer: PublicKey;
  mint: PublicKey;
  decimals: number;
  /** The merchant's registered destination (a wallet address, not a token account). */
  destinationOwner: PublicKey;
  /** Token base units. */
  amount: bigint;
  /** From `deriveReference(paymentId, optionId)`. */
  reference: PublicKey;
  tokenProgramId?: PublicKey;
  /** Optional priority fee (micro-lamports per compute unit) for congested clusters. */
  priorityMicroLamports?: number;
  commitment?: SolanaCommitment;
}

export interface BuiltPaymentTransaction {
  /** Partially signed (fee payer only) transaction for the wallet's `solana_signTransaction`. */
  transactionBase64: string;
  /** The exact message bytes; keep them to check what the wallet returns. */
  messageBase64: string;
  /** The transaction id (fee payer signature): the service can track it before the wallet answers. */
  signature: string;
  blockhash: string;
  /** After this block height the transaction can never land: answer `quote_expired`. */
  lastValidBlockHeight: number;
}

/**
 * Builds a fresh SPL payment: idempotent creation of the destination's associated token account, then
 * `transferChecked` from the buyer's ATA with the reference key appended as a read-only non-signer.
 *
 * Why this shape: `transferChecked` binds mint and decimals so a wrong-mint or wrong-decimals transfer
 * fails on chain; the reference binds the payment; the service is the fee payer so a buyer holding only
 * USDC can pay; the service signs first so the wallet only adds its signature (rule 6) and the message
 * can be checked byte for byte afterwards.
 */
export async function buildPaymentTransaction(input: BuildPaymentInput): Promise<BuiltPaymentTransaction> {
  if (input.amount <= 0n || input.amount > U64_MAX) throw new RangeError('amount must be in 1..2^64-1 base units');
  if (!Number.isInteger(input.decimals) || input.decimals < 0 || input.decimals > 255) {
    throw new RangeError('decimals must be an integer in 0..255');
  }
  const tokenProgram = input.tokenProgramId ?? TOKEN_PROGRAM_ID;
  const feePayer = input.feePayer.publicKey;
  const { blockhash, lastValidBlockHeight } = await input.connection.getLatestBlockhash(input.commitment ?? 'confirmed');

  const source = getAssociatedTokenAddressSync(input.mint, input.buyer, false, tokenProgram);
  // Destinations may be program-derived (multisig vaults), so off-curve owners are allowed.
  const destination = getAssociatedTokenAddressSync(input.mint, input.destinationOwner, true, tokenProgram);

  const transfer = createTransferCheckedInstruction(source, input.mint, destination, input.buyer, input.amount, input.decimals, [], tokenProgram);
  // Solana Pay convention: the token program ignores extra accounts for a single-key owner.
  transfer.keys.push({ pubkey: input.reference, isSigner: false, isWritable: false });

  const tx = new Transaction({ feePayer, blockhash, lastValidBlockHeight });
  if (input.priorityMicroLamports !== undefined && input.priorityMicroLamports > 0) {
    tx.add(ComputeBudgetProgram.setComputeUnitLimit({ units: 60_000 }));
    tx.add(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: input.priorityMicroLamports }));
  }
  tx.add(createAssociatedTokenAccountIdempotentInstruction(feePayer, destination, input.destinationOwner, input.mint, tokenProgram), transfer);
  tx.partialSign(input.feePayer);

  const signature = tx.signatures[0]?.signature;
  if (!signature) throw new Error('fee payer signature missing after partialSign');
  return {
    transactionBase64: tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64'),
    messageBase64: tx.serializeMessage().toString('base64'),
    signature: base58Encode(signature),
    blockhash,
    lastValidBlockHeight,
  };
}
