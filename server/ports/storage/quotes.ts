import type { CollectedRecord, QuoteRecord } from '../../domain/payments/quote-records.ts';

/**
 * The options quoted to wallets for a payment, keyed by option id. A quote a payment chose, or
 * any quote of a processing payment, is kept whatever its deadline: it is what was paid with.
 */
/**
 * A bound on the live quotes of one payment, enforced by evicting rather than refusing: a refusing
 * cap would let anyone holding the payment id fill it and lock the real buyer out for a quote's
 * lifetime; evicting makes the flood cost only the oldest quotes, whose buyer asks again.
 */
export interface LiveQuoteCap {
  /** Live (deadline after `now`) unchosen quotes a payment keeps after a save. */
  perPayment: number;
  now: Date;
  /** Live quotes the caller offers again in the same answer: ranked with the newest, so an answer never offers an option it evicted. */
  reoffered?: string[];
}

export interface QuoteRepository {
  /**
   * Stores the quotes. With a cap, in the same transaction, each payment saved to keeps at most
   * `cap.perPayment` live quotes: the oldest (created_at, then option id; `reoffered` counts as newest) beyond it are evicted by
   * ending their deadline at `cap.now`, so a buyer holding one hears 409 `quote_expired` (ask
   * again) and the maintenance purge deletes it later. A chosen quote and every quote of a
   * processing payment are never evicted (nor counted). Concurrent saves to one payment queue.
   */
  save(quotes: QuoteRecord[], cap?: LiveQuoteCap): Promise<void>;
  /** The option of this payment; null for another payment's option. */
  get(paymentId: string, optionId: string): Promise<QuoteRecord | null>;
  updateState(optionId: string, state: Record<string, unknown>, deadline: Date): Promise<void>;
  /**
   * Stores `state` only if the quote's state is still `expected` (the state as read): false when
   * another request changed it first (it then holds that request's state; read it again).
   */
  updateStateIf(optionId: string, expected: Record<string, unknown>, state: Record<string, unknown>, deadline: Date): Promise<boolean>;
  /**
   * The option whose transaction is handed out to `account` (its accountKey) for `asset` of this
   * payment by Solana Pay transaction requests, or null: one per (payment, account, asset) across
   * every process. Gone with its quote.
   */
  walletRequestOption(paymentId: string, account: string, asset: string): Promise<string | null>;
  /**
   * Makes `optionId` that option, atomically: when there is none (`replacing` null) or it is still
   * `replacing` (the spent option the caller read). Answers the option it is afterwards: `optionId`
   * when this call set it, else the one another request set first.
   */
  claimWalletRequest(paymentId: string, account: string, asset: string, optionId: string, replacing: string | null): Promise<string | null>;
  /** The payment's quotes whose deadline is after `deadlineAfter`: what options may offer again instead of quoting anew. */
  live(paymentId: string, deadlineAfter: Date): Promise<QuoteRecord[]>;
  /**
   * Deletes at most `limit` quotes whose deadline is before `deadlineBefore`, keeping every quote
   * a payment has chosen (`optionId`) and every quote of a processing payment; answers how many.
   * With `lateFundsSince`, also keeps each quote funds can reach the merchant for without a confirm
   * (an EVM direct transfer or EIP-3009 authorization, a Solana Pay transaction handed out) of a
   * payment still open, or expired, failed or succeeded with the later of the quote's deadline and
   * the payment's last change at or after `lateFundsSince`: the late-funds watcher's reach (late
   * funds for an unpaid payment, a second payment of a succeeded one).
   * Safe to run from several processes at once.
   */
  purgeExpired(deadlineBefore: Date, limit: number, lateFundsSince?: Date): Promise<number>;
  /**
   * Quotes on `chain` (CAIP-2) of payments that ended expired, failed or succeeded, ordered by
   * (deadline, option id), strictly after `after` and with a deadline before `until`: where funds
   * that arrived late (or a second time, for a succeeded one) may be looked for, a page of at most `limit` from a cursor (so a long list is walked, not starved).
   */
  ofEndedPayments(chain: string, after: { deadline: Date; optionId: string }, until: Date, limit: number): Promise<QuoteRecord[]>;
  /**
   * The quotes `purgeExpired` keeps for late funds (with `lateFundsSince` = `since`) on `chain` whose
   * deadline is before `until`: of payments open, or expired, failed or succeeded with the later of
   * the quote's deadline and the payment's last change at or after `since` (a succeeded payment's
   * chosen quote included: it is kept anyway). By option id, strictly after `afterOptionId`, at most
   * `limit`: the watcher's long reach, walked a page a run.
   */
  withinReach(chain: string, afterOptionId: string, since: Date, until: Date, limit: number): Promise<QuoteRecord[]>;
  /** Stores the buyer data of one option of this payment (replacing earlier data); false when there is no such option. */
  saveCollected(paymentId: string, optionId: string, collected: CollectedRecord): Promise<boolean>;
}
