// What the Solana adapter stores with a quote and hands to the job. Stored as JSON and read back:
// the adapter checks it at its edge (adapters/chains/solana/state.ts) before use.

/** An SPL `transferChecked` option: what to build (prepare), then what was built (fetch). */
export type SplQuoteState = {
  flow: 'spl';
  mint: string;
  decimals: number;
  destinationOwner: string;
  /** Base units, as a decimal string (JSON has no bigint). */
  amount: string;
  /** Set by fetch: the latest build, the only one confirm accepts. */
  messageBase64?: string;
  signature?: string;
  lastValidBlockHeight?: number;
  /**
   * Solana Pay transaction requests answered for this option (adapters/chains/solana/
   * transaction-request.ts), oldest first: each one a transaction the wallet signs and broadcasts
   * itself, kept so the watcher can recognise whichever of them landed.
   */
  walletBuilds?: WalletBuild[];
};
/** One transaction handed to a wallet that broadcasts it itself: its exact message and its last valid height. */
export type WalletBuild = { messageBase64: string; lastValidBlockHeight: number };
export type SolanaQuoteState = SplQuoteState;

/** What confirm hands to the job: the verified signed transaction and its deadline. */
export type SplSubmission = { flow: 'spl'; transaction: string; signature: string; lastValidBlockHeight: number };
export type SolanaSubmission = SplSubmission;
