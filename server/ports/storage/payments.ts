import type { IdempotencyCompletion } from '../../domain/idempotency/records.ts';
import type { NewJob } from '../../domain/jobs/records.ts';
import type { CryptoSettlementRecord, MerchantRecord } from '../../domain/merchants/records.ts';
import type { ExtraPayment, PaymentFinality } from '../../domain/payments/records.ts';
import type {
  CreatedPaymentEvent,
  CreatePaymentResult,
  PaymentEventRecord,
  PaymentListQuery,
  PaymentRecord,
  PaymentStatsRecord,
  PaymentTransition,
} from '../../domain/payments/records.ts';

/**
 * Payments, their events and their relayer transactions. A status changes only through
 * `transition` (or `markRefunded`), which writes the payment, its event and its jobs in one unit
 * and only from the states it names; so of two racing changes exactly one wins.
 */
export interface PaymentRepository {
  /** Records the transaction of a processing payment once; false when another is already recorded. */
  recordTxId(id: string, txId: string, at: Date): Promise<boolean>;
  // -- Relayer transactions (EVM gasless flows): recorded before they are broadcast. --
  /**
   * Records the relayer transaction of a processing payment, hash and signed bytes, in place of
   * `replaces` (the tx id recorded now; null when none is). False, writing nothing, when the
   * payment is not processing or another transaction is recorded than `replaces`. `shared`: the
   * transaction may be recorded on other payments too (a relayer batch); else it is this one's alone.
   * `everyHolder` (a replacement at the same nonce): every other processing payment holding
   * `replaces` as shared is moved to it too; the answer is still this payment's.
   */
  recordRelayerTx(id: string, tx: { txId: string; rawTx: string; shared?: true; everyHolder?: true }, replaces: string | null, at: Date): Promise<boolean>;
  /** The relayer transaction recorded for the payment's current tx id; null when none. */
  getRelayerTx(id: string): Promise<{ txId: string; rawTx: string } | null>;
  // -- end relayer transactions --
  /**
   * One atomic unit: the payment (only if the merchant is the partner's, live and has a crypto
   * settlement; for a token price, a settlement in that very asset, else `merchant_not_payable`),
   * its created event, its jobs, and the idempotent answer. The event's data is what
   * `event.snapshot` builds from the payment and the merchant as the unit read it; the event takes
   * the payment's partner, state version and creation time. An adapter may share the round trip
   * and the commit with creates made at the same time, never the outcome.
   */
  create(payment: PaymentRecord, extras: { event: CreatedPaymentEvent; jobs: NewJob[]; idempotency?: IdempotencyCompletion }): Promise<CreatePaymentResult>;
  /**
   * The expiry sweep's unit: expires up to `limit` payments still requiring action whose deadline
   * is at or before `at`, each with its `event` (state version and time as a transition writes
   * them), earliest deadline first. A payment another unit holds at that moment is skipped, so
   * sweeps running at once in several processes expire disjoint sets. Answers the payments
   * expired and the earliest deadline of a payment still requiring action (null when none).
   */
  expireDue(at: Date, limit: number, event: ExpiredEvent): Promise<{ expired: PaymentRecord[]; nextDeadline: Date | null }>;
  /**
   * The payments processing or succeeded with `txId` recorded on `network` (shared or not): what one
   * transaction is counted as paying, for a second payment it may pay too (late-funds-job.ts).
   */
  paidBy(network: string, txId: string): Promise<PaymentRecord[]>;
  /** By id alone: the gateway side, where a wallet knows only the payment id. */
  get(id: string): Promise<PaymentRecord | null>;
  /**
   * By id alone, with its merchant (deleted or not) and the merchant's settlements in id order:
   * everything quoting options needs, in one round trip.
   */
  getForGateway(id: string): Promise<{ payment: PaymentRecord; merchant: MerchantRecord | null; settlements: CryptoSettlementRecord[] } | null>;
  /** By id, within one partner (and merchant, when given). */
  getForPartner(partnerId: string, id: string, merchantId?: string): Promise<PaymentRecord | null>;
  /**
   * Applies the transition if the payment is still in one of `from`, with its event and jobs, in
   * one unit. When it is not, nothing is written and the current payment is returned.
   */
  transition(id: string, t: PaymentTransition): Promise<{ ok: true; payment: PaymentRecord } | { ok: false; current: PaymentRecord | null; duplicateTxId?: boolean }>;
  /** Marks a succeeded payment refunded once, with its event (of the caller's `type`, stored as given). */
  markRefunded(
    partnerId: string,
    merchantId: string,
    id: string,
    at: Date,
    event: { id: string; type: string; snapshot(p: PaymentRecord): unknown },
  ): Promise<{ ok: true; payment: PaymentRecord } | { ok: false; current: PaymentRecord | null }>;
  /**
   * Sets a succeeded payment's finality from `from` (its transaction followed until final); with
   * `event` (a reversal), its event in the same unit. Nothing written when it is no longer `from`.
   */
  markFinality(
    id: string,
    change: { from: PaymentFinality; to: PaymentFinality; reason: string | null; at: Date },
    event?: { id: string; type: string; snapshot(p: PaymentRecord): unknown },
  ): Promise<{ ok: true; payment: PaymentRecord } | { ok: false; current: PaymentRecord | null }>;
  /**
   * Adds a transaction that paid a succeeded payment's merchant again (paid twice), with its event,
   * in one unit. Once per transaction: false, writing nothing, when the payment is not succeeded,
   * the transaction is the one that paid it, or it is already recorded.
   */
  recordExtraPayment(id: string, extra: ExtraPayment, event: { id: string; type: string; snapshot(p: PaymentRecord): unknown }): Promise<boolean>;
  list(partnerId: string, q: PaymentListQuery): Promise<PaymentRecord[]>;
  stats(partnerId: string, q: PaymentListQuery): Promise<PaymentStatsRecord>;
  /** A payment's events in order (webhooks, audit). */
  events(paymentId: string): Promise<PaymentEventRecord[]>;
}

/** The event of each payment `expireDue` expires: a fresh id each, data from the payment and its merchant (null if gone). */
export interface ExpiredEvent {
  type: string;
  newId(): string;
  snapshot(p: PaymentRecord, merchant: MerchantRecord | null): unknown;
}
