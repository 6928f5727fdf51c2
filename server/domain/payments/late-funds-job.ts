import type { JobHandler } from '../../ports/queue.ts';
import type { LateFundsPass } from '../../ports/chains.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import type { Clock } from '../../ports/clock.ts';
import { describeError } from '../../ports/logger.ts';
import { chainOfQuote, optionRequestOf, type AdvanceDeps } from './settle-attempt.ts';
import { transitionPayment } from './transition.ts';
import type { QuoteRecord } from './quote-records.ts';
import type { PaymentRecord } from './records.ts';
import { METRICS } from '../../ports/metric-catalog.ts';
import { newId } from '../ids.ts';
import { eventSnapshot } from './view.ts';
import type { WebhookEventType } from '../webhooks/event-types.ts';

/**
 * Late funds: a buyer may send a tagged direct transfer after the payment expired (or failed);
 * the merchant then has the money, so the payment counts as paid with that transaction rather
 * than staying expired while the funds sit unexplained. A payment already succeeded that is paid
 * again (a second tagged transfer) is told to the partner as paid twice. One self-rescheduling job per chain (like
 * `maintenance.purge`, with a fixed id per chain) asks the chain's adapter for a final transaction
 * that paid one of the quotes it looks at, in two pages a run: the quotes of payments that ended
 * within the last hour (every quote, succeeded payments' included, so a second payment is told
 * soon), and, walked in turn over the long reach (`reachMs`, 7 days by default), the quotes funds
 * can arrive for without a confirm of payments open, ended unpaid (expired, failed: late funds) or
 * succeeded (a second payment, told however long after the deadline within the reach), which the
 * maintenance purge keeps that long. Each run is bounded: at most `batch` quotes a page, each one
 * bounded search of the chain (the EVM adapter reads a quote's final blocks once, then new ones).
 */
export const LATE_FUNDS_JOB_TYPE = 'payment.late_funds';

/**
 * The event a second payment is told with. Versions from 2026-11-28 declare it (2026-11-27 was
 * already published, and a published version never changes); older pins learn it from the
 * dashboard, the `payment_paid_twice_total` metric and its alert rule, or by reading the payment
 * under `Svc-Version: 2026-11-28`.
 */
export const PAID_TWICE_EVENT_TYPE = 'payment.paid_twice' satisfies WebhookEventType;

/** The job's fixed id on one chain: every process writes it, the queue runs one copy. */
export const lateFundsJobId = (chain: string) => `job_late_funds_${chain.replace(/[^A-Za-z0-9]/g, '_')}`;

/**
 * How long after a quote's deadline every quote of an ended payment is looked at. Unchosen quotes
 * are purged an hour past their deadline (maintenance.ts QUOTE_PURGE_GRACE_MS), except those the
 * long reach keeps (DEFAULT_LATE_FUNDS_REACH_MS), which the second page walks.
 */
export const LATE_FUNDS_WINDOW_MS = 3600_000;

/**
 * How long after a payment ended unpaid (expired, failed), or after its quote's deadline if later,
 * the quotes funds can still arrive for are kept, so the late-funds watcher can recognise a
 * transfer by its tag or reference (LATE_FUNDS_REACH_DAYS). A buyer paying from an exchange or a
 * forgotten wallet tab may take days; a week is the default.
 */
export const DEFAULT_LATE_FUNDS_REACH_MS = 7 * 86_400_000;

export interface LateFundsOptions {
  /** Between runs; default 60 s. */
  intervalMs?: number;
  /** Quotes looked at per page (two pages a run); default 50. */
  batch?: number;
  /** How long after a payment ended (unpaid or succeeded) its quotes are still looked at; default 7 days (LATE_FUNDS_REACH_DAYS), as the purge keeps them. */
  reachMs?: number;
}

/** The chain a late-funds job names, for its settlement pool. */
export function chainOfLateFundsJob(payload: Record<string, unknown>): string | undefined {
  return typeof payload.chain === 'string' ? payload.chain : undefined;
}

/** A fresh pass: each key read once, its promise shared (a failure too: that run's searches fail alike, the next run reads again). */
export function createLateFundsPass(): LateFundsPass {
  const reads = new Map<string, Promise<unknown>>();
  return {
    once<T>(key: string, read: () => Promise<T>): Promise<T> {
      let answer = reads.get(key) as Promise<T> | undefined;
      if (!answer) reads.set(key, (answer = read()));
      return answer;
    },
  };
}

/** Writes each chain's late-funds job unless it is already in the outbox; due at once. */
export async function scheduleLateFunds(storage: Pick<StoragePort, 'jobs'>, clock: Clock, chains: readonly string[]): Promise<void> {
  const now = new Date(clock.now());
  if (!chains.length) return;
  await storage.jobs.insert(chains.map((chain) => ({ id: lateFundsJobId(chain), type: LATE_FUNDS_JOB_TYPE, payload: { chain }, runAt: now, createdAt: now })));
}

/**
 * The `payment.late_funds` handler. Never throws (a throw would end the job after its retries, and
 * the watching with it): a quote whose chain cannot be read now is looked at again next run.
 */
export function lateFundsJob(deps: AdvanceDeps, opts: LateFundsOptions = {}): JobHandler {
  const intervalMs = opts.intervalMs ?? 60_000;
  const batch = opts.batch ?? 50;
  const reachMs = opts.reachMs ?? DEFAULT_LATE_FUNDS_REACH_MS;
  // Where the last run stopped, per chain: each run takes the next page, so more quotes than one
  // batch are all looked at in turn rather than the oldest ones only. Kept in memory: a process
  // that starts over begins at the window's start, which costs one extra pass, never a quote.
  const cursors = new Map<string, { deadline: Date; optionId: string }>();
  const reachCursors = new Map<string, string>();
  return async (job) => {
    const chain = chainOfLateFundsJob(job.payload);
    const now = deps.clock.now();
    if (!chain || !deps.chains) return;
    // One pass per run: the chain's final head is read once for every quote of both pages.
    const pass = createLateFundsPass();
    try {
      const windowStart = { deadline: new Date(now - LATE_FUNDS_WINDOW_MS), optionId: '' };
      const cursor = cursors.get(chain);
      const after = cursor && cursor.deadline > windowStart.deadline ? cursor : windowStart;
      const quotes = await deps.storage.quotes.ofEndedPayments(chain, after, new Date(now), batch);
      for (const quote of quotes) await settleLate(deps, quote, pass);
      const last = quotes[quotes.length - 1];
      // A short page reached the window's end: the next run starts over from its start.
      if (last && quotes.length === batch) cursors.set(chain, { deadline: last.deadline, optionId: last.optionId });
      else cursors.delete(chain);
      // The long reach, by option id: a page a run, from the start again once a short page ends it.
      const reached = await deps.storage.quotes.withinReach(chain, reachCursors.get(chain) ?? '', new Date(now - reachMs), new Date(now), batch);
      for (const quote of reached) await settleLate(deps, quote, pass);
      if (reached.length === batch) reachCursors.set(chain, reached[reached.length - 1]!.optionId);
      else reachCursors.delete(chain);
    } catch (err) {
      deps.logger.warn({ chain, err: describeError(err) }, 'late funds: run failed; next run as scheduled');
    }
    return { retryAt: new Date(deps.clock.now() + intervalMs) };
  };
}

/**
 * Asks the chain about one quote: late funds pay an ended payment, a second payment of a succeeded
 * one is told (paid twice). Also the Solana Pay watcher's step (wallet-transfer-job.ts): a
 * transaction the wallet broadcast itself pays an open payment (`requires_action`) the same way,
 * found and judged alike. True once funds were found (whether or not the payment could still take them).
 */
export async function settleLate(deps: AdvanceDeps, quote: QuoteRecord, pass?: LateFundsPass): Promise<boolean> {
  const { caip2, chain } = chainOfQuote({ chains: deps.chains! }, quote);
  if (!chain.findLateFunds) return false;
  const payment = await deps.storage.payments.get(quote.paymentId);
  if (!payment) return false;
  // What already paid it is passed over: a succeeded payment's own transaction, and extra ones already told.
  const known = new Set([payment.txId, ...(payment.extraPayments ?? []).map((e) => e.txId)].filter((t) => t !== null).map((t) => t.toLowerCase()));
  let found;
  try {
    found = await chain.findLateFunds(optionRequestOf(deps, quote), quote.state, known, pass);
  } catch (err) {
    deps.logger.warn({ paymentId: quote.paymentId, optionId: quote.optionId, err: describeError(err) }, 'late funds: chain not read; next run');
    return false;
  }
  if (!found.found || known.has(found.txId.toLowerCase())) return false;
  if (payment.status === 'succeeded') {
    await tellPaidTwice(deps, payment, quote, caip2, found.txId);
    return true;
  }
  // Another attempt is in flight: what it ends as decides whether this one paid it or paid it twice; look again later.
  if (payment.status === 'processing') return false;
  if (payment.status !== 'expired' && payment.status !== 'failed' && payment.status !== 'requires_action') return true;
  const now = new Date(deps.clock.now());
  // Found only in final blocks: nothing left to follow, so its finality is final at once.
  const patch = {
    optionId: quote.optionId,
    buyerAccount: quote.account,
    asset: quote.asset,
    tokenValue: quote.amount,
    network: caip2,
    txId: found.txId,
    ...(found.shared ? { txShared: true } : {}),
    succeededAt: now,
    finality: 'final' as const,
    failureCode: null,
  };
  let moved = await transitionPayment(deps, payment, 'succeeded', patch);
  // Recorded on another payment already: a batch wallet's one transaction may pay both, when its transfers cover both.
  const batch = !moved.ok && moved.duplicateTxId === true && (await paidTogether(deps, quote, caip2, found.txId));
  if (batch) moved = await transitionPayment(deps, payment, 'succeeded', { ...patch, txShared: true });
  const paidBy = payment.status === 'requires_action' ? 'a transaction its wallet broadcast' : 'a transaction after it ended';
  if (moved.ok) deps.logger.info({ paymentId: payment.id, from: payment.status, txId: found.txId, batch }, `late funds: payment paid by ${paidBy}`);
  else if (moved.duplicateTxId) deps.logger.error({ paymentId: payment.id, txId: found.txId }, 'late funds: the transaction already paid another payment');
  // Another transaction paid it meanwhile (two wallets' Solana Pay transactions landing together): this one paid it twice.
  else if (moved.current?.status === 'succeeded') return settleLate(deps, quote, pass);
  else if (moved.current?.status === 'processing') return false;
  return true;
}

/**
 * Whether `txId`, already recorded on other payments, pays this quote's payment too: the chain
 * judges all of them together (each one's tag, and the transfers covering the sum due to each
 * destination), so one transfer is never counted for two payments. Only the watcher records such
 * a share, one run per chain at a time, so two payments cannot both be added on one judgement.
 */
async function paidTogether(deps: AdvanceDeps, quote: QuoteRecord, caip2: string, txId: string): Promise<boolean> {
  const { chain } = chainOfQuote({ chains: deps.chains! }, quote);
  if (!chain.paysTogether) return false;
  const options = [{ req: optionRequestOf(deps, quote), state: quote.state }];
  for (const other of await deps.storage.payments.paidBy(caip2, txId)) {
    const chosen = other.optionId ? await deps.storage.quotes.get(other.id, other.optionId) : null;
    if (other.id === quote.paymentId || !chosen) return false;
    options.push({ req: optionRequestOf(deps, chosen), state: chosen.state });
  }
  try {
    return await chain.paysTogether(options, txId);
  } catch (err) {
    deps.logger.warn({ paymentId: quote.paymentId, txId, err: describeError(err) }, 'late funds: a shared transaction not judged; next run');
    return false;
  }
}

/**
 * A final transaction paid a succeeded payment's merchant again: recorded on the payment (its
 * details' `extraPayments`), with a `payment.paid_twice` event, a counter to alert on and a warning
 * in the logs. The funds are the merchant's already (the service holds none): the partner settles
 * with the buyer, so it must be told, never left to find it in its wallet.
 */
async function tellPaidTwice(deps: AdvanceDeps, payment: PaymentRecord, quote: QuoteRecord, chain: string, txId: string): Promise<void> {
  const now = deps.clock.now();
  const merchant = await deps.storage.merchants.get(payment.partnerId, payment.merchantId, { includeDeleted: true });
  // As the adapter found it: EVM hashes come lowercase, a Solana signature is base58, whose case is part of it.
  const extra = { txId, network: chain, asset: quote.asset, value: quote.amount, optionId: quote.optionId, foundAt: new Date(now) };
  const told = await deps.storage.payments.recordExtraPayment(payment.id, extra, {
    id: newId('event', now),
    type: PAID_TWICE_EVENT_TYPE,
    snapshot: (p) => eventSnapshot(p, merchant ?? undefined, deps.assets),
  });
  if (!told) return;
  deps.metrics?.count(METRICS.paymentPaidTwice, { chain });
  deps.logger.warn({ paymentId: payment.id, chain, txId: extra.txId, paidBy: payment.txId }, 'paid twice: a second transaction paid a succeeded payment');
}
