/** Quotes: the payment options offered to a wallet, and the buyer data given for one. */
import type { QuoteState } from '../../ports/chains.ts';

/** A payment option as quoted to a wallet. */
export interface QuoteRecord {
  optionId: string;
  paymentId: string;
  /** The buyer's CAIP-10 account. */
  account: string;
  /** CAIP-19 asset. */
  asset: string;
  /** Base units of the asset. */
  amount: bigint;
  /** The merchant's CAIP-10 destination at quote time. */
  destination: string;
  deadline: Date;
  /** The chain adapter's record of what was prepared (typed data, transaction, flow). */
  state: QuoteState;
  createdAt: Date;
  /** This option needs buyer data before confirm (the merchant's dataCollection at quote time). */
  collectData?: boolean;
  /** The buyer data given for this option, once given (page or confirm). */
  collected?: CollectedRecord | null;
}

/** Buyer data of one option, valid against the collect schema, and when the terms were accepted. */
export interface CollectedRecord {
  data: Record<string, string | boolean>;
  termsAcceptedAt: Date;
  at: Date;
}
