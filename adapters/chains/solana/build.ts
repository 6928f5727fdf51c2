import { ComputeBudgetProgram, Transaction, type PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { TOKEN_PROGRAM_ID, createAssociatedTokenAccountIdempotentInstruction, createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { SolanaCommitment, SolanaRpc } from './rpc.ts';
import { DEFAULT_SOLANA_FEE_POLICY, computeUnitLimit, priorityFeeMicroLamports, type SolanaFeePolicy } from './fees.ts';

const U64_MAX = (1n << 64n) - 1n;

export interface BuildPaymentInput {
  connection: SolanaRpc;
  /** The service's key: pays the fee, so the buyer needs no SOL. It signs only at confirm. */
  feePayer: PublicKey;
  buyer: PublicKey;
  mint: PublicKey;
  decimals: number;
  /** The merchant's registered destination (a wallet address, not a token account). */
  destinationOwner: PublicKey;
  /** Token base units. */
  amount: bigint;
  /** From `deriveReference(paymentId, optionId)`, or a Solana Pay co-signer (transaction-request.ts). */
  reference: PublicKey;
  /** The reference signs (a Solana Pay co-signer): its signature pins the transaction the wallet broadcasts. */
  referenceSigns?: boolean;
  tokenProgramId?: PublicKey;
  fees?: SolanaFeePolicy;
  /** Sandbox only (gateway-adapter's `openDestinationAccounts`): open the destination's token account, idempotently. */
  openDestination?: boolean;
  commitment?: SolanaCommitment;
}

export interface BuiltPaymentTransaction {
  /** The transaction for the wallet's `solana_signTransaction`, every signature slot empty. */
  transactionBase64: string;
  /** The exact message bytes; keep them to check what the wallet returns. */
  messageBase64: string;
  blockhash: string;
  /** After this block height the transaction can never land: answer `quote_expired`. */
  lastValidBlockHeight: number;
  computeUnitLimit: number;
  priorityMicroLamports: number;
}

/**
 * Builds a fresh SPL payment: the compute budget (limit from a simulation, price from recent fees),
 * then `transferChecked` from the buyer's ATA to the destination's existing ATA, with the reference
 * key appended as a read-only non-signer.
 *
 * Why this shape: `transferChecked` binds mint and decimals; the reference binds the payment; the
 * service is the fee payer so a buyer holding only USDC can pay, but it does NOT sign here: a
 * transaction the fee payer signed before the buyer could be landed by the buyer alone (a failed one
 * too, paid by us). It signs at confirm, after checking and simulating (cosign.ts). No instruction
 * creates the destination's token account: its rent would be ours and its owner could reclaim it.
 */
export async function buildPaymentTransaction(input: BuildPaymentInput): Promise<BuiltPaymentTransaction> {
  if (input.amount <= 0n || input.amount > U64_MAX) throw new RangeError('amount must be in 1..2^64-1 base units');
  if (!Number.isInteger(input.decimals) || input.decimals < 0 || input.decimals > 255) {
    throw new RangeError('decimals must be an integer in 0..255');
  }
  const tokenProgram = input.tokenProgramId ?? TOKEN_PROGRAM_ID;
  const { blockhash, lastValidBlockHeight } = await input.connection.getLatestBlockhash(input.commitment ?? 'confirmed');

  const source = getAssociatedTokenAddressSync(input.mint, input.buyer, false, tokenProgram);
  // Destinations may be program-derived (multisig vaults), so off-curve owners are allowed.
  const destination = getAssociatedTokenAddressSync(input.mint, input.destinationOwner, true, tokenProgram);
  const transfer = createTransferCheckedInstruction(source, input.mint, destination, input.buyer, input.amount, input.decimals, [], tokenProgram);
  // Solana Pay convention: the token program ignores extra accounts for a single-key owner.
  transfer.keys.push({ pubkey: input.reference, isSigner: input.referenceSigns === true, isWritable: false });

  const policy = input.fees ?? DEFAULT_SOLANA_FEE_POLICY;
  const compose = (units: number, microLamports: number) => {
    const leading: TransactionInstruction[] = [ComputeBudgetProgram.setComputeUnitLimit({ units }), ComputeBudgetProgram.setComputeUnitPrice({ microLamports })];
    if (input.openDestination) leading.push(createAssociatedTokenAccountIdempotentInstruction(input.feePayer, destination, input.destinationOwner, input.mint, tokenProgram));
    return new Transaction({ feePayer: input.feePayer, blockhash, lastValidBlockHeight }).add(...leading, transfer);
  };
  const price = await priorityFeeMicroLamports(input.connection, [source, destination], policy);
  const units = await computeUnitLimit(input.connection, compose(1_400_000, price));
  const tx = compose(units, price);
  return {
    transactionBase64: tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64'),
    messageBase64: tx.serializeMessage().toString('base64'),
    blockhash,
    lastValidBlockHeight,
    computeUnitLimit: units,
    priorityMicroLamports: price,
  };
}
