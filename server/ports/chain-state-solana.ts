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
};
export type SolanaQuoteState = SplQuoteState;

/** What confirm hands to the job: the verified signed transaction and its deadline. */
export type SplSubmission = { flow: 'spl'; transaction: string; signature: string; lastValidBlockHeight: number };
export type SolanaSubmission = SplSubmission;
