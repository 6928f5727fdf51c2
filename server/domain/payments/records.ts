/** Payments as stored: the record, its events, the changes a transition may make, lists and stats. */
import type { NewJob } from '../jobs/records.ts';
import type { MerchantRecord } from '../merchants/records.ts';
import type { PaymentPrice } from './price.ts';
import type { PaymentStatus } from './state-machine.ts';

export interface PaymentRecord {
  id: string;
  partnerId: string;
  merchantId: string;
  referenceId: string;
  /** What the buyer owes: a fiat price, or a token price paid exactly in that token. */
  price: PaymentPrice;
  status: PaymentStatus;
  /** Grows by one with every state change. */
  stateVersion: number;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  checkout: { successUrl: string; errorUrl: string } | null;
  failureCode: string | null;
  cancelledReason: string | null;
  cancelledAt: Date | null;
  refundedAt: Date | null;
  /** What the buyer chose and paid with, once known. */
  optionId: string | null;
  buyerAccount: string | null;
  /** The wallet app that confirmed the payment (the name and icon of its gateway key's account). */
  buyerProviderName?: string | null;
  buyerProviderIcon?: string | null;
  /** CAIP-19 asset paid in. */
  asset: string | null;
  /** Base units of asset. */
  tokenValue: bigint | null;
  /** CAIP-2 chain. */
  network: string | null;
  txId: string | null;
  succeededAt: Date | null;
  /**
   * A succeeded payment's transaction against its chain's finality (absent or null: not followed).
   * `reversed`: its block was dropped and it could not be sent again; `finalityReason` says why.
   */
  finality?: PaymentFinality | null;
  finalityReason?: string | null;
  /**
   * Final transactions that paid the merchant again for this payment after the one that paid it
   * (paid twice), in the order found; absent when there is none. The service holds no funds, so
   * these are the partner's to settle with the buyer: they are told, never silently kept.
   */
  extraPayments?: ExtraPayment[];
}

export type PaymentFinality = 'pending' | 'final' | 'reversed';

/** One transaction that paid a payment's merchant again (see `PaymentRecord.extraPayments`). */
export interface ExtraPayment {
  txId: string;
  /** CAIP-2 chain. */
  network: string;
  /** CAIP-19 asset and base units it moved to the merchant. */
  asset: string;
  value: bigint;
  /** The option (quote) it paid. */
  optionId: string;
  foundAt: Date;
}

/** Something that happened to a payment, with a full snapshot (the webhook `data`). */
export interface PaymentEventRecord {
  id: string;
  paymentId: string;
  partnerId: string;
  type: string;
  stateVersion: number;
  createdAt: Date;
  data: unknown;
  /** The trace of the change that wrote it (null: none, or written before traces were kept); its deliveries run in it. */
  traceId?: string | null;
}

/** Fields a transition may set besides the status. */
export type PaymentPatch = Partial<
  Pick<
    PaymentRecord,
    | 'failureCode'
    | 'cancelledReason'
    | 'cancelledAt'
    | 'optionId'
    | 'buyerAccount'
    | 'buyerProviderName'
    | 'buyerProviderIcon'
    | 'asset'
    | 'tokenValue'
    | 'network'
    | 'txId'
    | 'succeededAt'
    | 'finality'
  >
> & {
  /**
   * With `txId`: the transaction may pay other payments too, each judged on chain by its own
   * authorization (an EVM relayer batch), so the id is not this payment's alone. Absent with a
   * new `txId`: it is (a buyer's transfer), and no other payment may hold it.
   */
  txShared?: boolean;
};

export interface PaymentTransition {
  /** Apply only if the payment is in one of these states. */
  from: PaymentStatus[];
  to: PaymentStatus;
  patch: PaymentPatch;
  at: Date;
  /** The event announcing the change, built from the updated payment. */
  event: { id: string; type: string; snapshot(p: PaymentRecord): unknown };
  jobs?: NewJob[];
}

/** The created event: its data built by the domain from the payment and its merchant, as stored. */
export interface CreatedPaymentEvent {
  id: string;
  type: string;
  snapshot(p: PaymentRecord, merchant: MerchantRecord): unknown;
}

export type CreatePaymentResult = { ok: true } | { ok: false; reason: 'merchant_not_found' | 'merchant_deleted' | 'merchant_not_payable' };

export interface PaymentListQuery {
  merchantIds?: string[];
  statuses?: PaymentStatus[];
  createdFrom?: Date;
  createdBefore?: Date;
  /** Paid on one of these CAIP-2 chains. */
  networks?: string[];
  /** Paid in one of these CAIP-19 assets; an empty list matches nothing. */
  assets?: string[];
  /** The merchant's reference contains this, in any letter case. */
  referenceId?: string;
  sortBy: 'date' | 'amount';
  sortDir: 'asc' | 'desc';
  /**
   * Keyset position: the last row of the previous page. `price`: its price, what `amount` sorts by.
   * Amounts in different units do not compare (a token's base units, a currency's minor units), so
   * the amount order groups payments by unit, fiat currencies first then tokens, each by its code
   * (CAIP-19 id), and sorts by value within a unit; `desc` reverses the whole order.
   */
  after?: { id: string; price?: PaymentPrice };
  limit: number;
}

export interface PaymentStatsRecord {
  /** Per fiat currency; payments priced in a token have no fiat price and are not in it. */
  revenue: Array<{ currency: string; minor: bigint }>;
  transactions: number;
  customers: number;
}
