// The sandbox cluster's state beside LiteSVM's accounts, shared by its connection and its clock.
import type { TransactionError } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';

/** Where and how a transaction landed. */
export interface Landed {
  slot: number;
  err: TransactionError | null;
}

/** Mutable chain bookkeeping LiteSVM does not keep: slots, block height, signature and address index. */
export interface SandboxLedger {
  svm: LiteSVM;
  slot: number;
  blockHeight: number;
  /** Block height at which the current blockhash was issued. */
  blockhashIssuedAt: number;
  /** Every blockhash issued, with the last block height at which it may land. */
  blockhashes: Map<string, number>;
  /** A block clock runs: transactions land in the current slot and commitment follows depth. */
  clockRunning: boolean;
  landed: Map<string, Landed>;
  byAddress: Map<string, string[]>;
  /** What `getRecentPrioritizationFees` answers (micro-lamports per CU, newest slot first); none: []. */
  priorityFees?: number[];
}
