import type {
  AccountInfo,
  Commitment,
  ConfirmedSignatureInfo,
  Finality,
  RpcResponseAndContext,
  SendOptions,
  SignatureStatus,
  SignatureStatusConfig,
  SignaturesForAddressOptions,
  PublicKey,
  RecentPrioritizationFees,
  SimulateTransactionConfig,
  SimulatedTransactionResponse,
  VersionedTransaction,
} from '@solana/web3.js';

/**
 * The part of a Solana JSON-RPC client the chain functions use, and nothing more.
 *
 * Why a subset: the same functions must run against `new Connection(url)` (production, or the sandbox's
 * HTTP facade) and against the in-process LiteSVM sandbox connection. A real `Connection` satisfies this
 * interface structurally (checked in `rpc.test.ts`), so callers never wrap it.
 */
export interface SolanaRpc {
  getLatestBlockhash(commitment?: Commitment): Promise<{ blockhash: string; lastValidBlockHeight: number }>;
  getBlockHeight(commitment?: Commitment): Promise<number>;
  /** Slot and block height read together from one node: the height's freshness is known. */
  getEpochInfo(commitment?: Commitment): Promise<{ absoluteSlot: number; blockHeight?: number }>;
  sendRawTransaction(rawTransaction: Buffer | Uint8Array | Array<number>, options?: SendOptions): Promise<string>;
  getSignatureStatuses(signatures: string[], config?: SignatureStatusConfig): Promise<RpcResponseAndContext<(SignatureStatus | null)[]>>;
  getAccountInfo(publicKey: PublicKey, commitment?: Commitment): Promise<AccountInfo<Buffer> | null>;
  getSignaturesForAddress(address: PublicKey, options?: SignaturesForAddressOptions, commitment?: Finality): Promise<ConfirmedSignatureInfo[]>;
  /** Runs a transaction without landing it: the service's own preflight (fees.ts, cosign.ts). */
  simulateTransaction(transaction: VersionedTransaction, config?: SimulateTransactionConfig): Promise<RpcResponseAndContext<SimulatedTransactionResponse>>;
  /** Recent per-slot priority fees (micro-lamports per compute unit) paid to lock these accounts. */
  getRecentPrioritizationFees(config?: { lockedWritableAccounts?: PublicKey[] }): Promise<RecentPrioritizationFees[]>;
  /** Base58; its first 32 characters are the cluster's CAIP-2 reference. */
  getGenesisHash(): Promise<string>;
}

/** Commitment levels the service may ask for, weakest first. */
export type SolanaCommitment = 'processed' | 'confirmed' | 'finalized';

const RANK: Record<SolanaCommitment, number> = { processed: 0, confirmed: 1, finalized: 2 };

/** True when an observed confirmation status is at least the requested one. */
export function meetsCommitment(observed: string | null | undefined, wanted: SolanaCommitment): boolean {
  if (observed !== 'processed' && observed !== 'confirmed' && observed !== 'finalized') return false;
  return RANK[observed] >= RANK[wanted];
}
