import { AppError } from '../../errors.ts';
import type { ChainRegistry, OptionRequest, Submission } from '../../ports/chains.ts';
import type { Logger } from '../../ports/logger.ts';
import type { JobOutcome } from '../../ports/queue.ts';
import type { NewJob } from '../jobs/records.ts';
import type { QuoteRecord } from './quote-records.ts';
import type { AssetRegistry } from '../assets.ts';
import { formatChainId, parseAssetId } from '../caip.ts';
import { newId } from '../ids.ts';
import { releasePayment, transitionPayment, type PaymentDeps } from './transition.ts';
import { recordSettleStep } from './payment-metrics.ts';
import { recordFeeSpent } from '../fees/fee-budget.ts';

/**
 * A payment attempt from confirm to a final answer: what confirm (server/domain/gateway/confirm.ts)
 * writes and what the `payment.advance` job (server/jobs/handlers.ts) reads and does. Both sides
 * take the quote's chain, the chain request and the job's shape from here, so neither imports the
 * other.
 */

export const ADVANCE_JOB_TYPE = 'payment.advance';

/** The chain an advance job names (jobs written before it named one: none). */
export function chainOfAdvanceJob(payload: Record<string, unknown>): string | undefined {
  return typeof payload.chain === 'string' ? payload.chain : undefined;
}

/** The chain request a stored quote stands for. */
export function optionRequestOf(deps: { assets: AssetRegistry }, quote: QuoteRecord): OptionRequest {
  const asset = deps.assets.get(quote.asset);
  if (!asset) throw new AppError('invalid_state', 'This option’s asset is no longer accepted');
  return {
    paymentId: quote.paymentId,
    optionId: quote.optionId,
    account: quote.account,
    asset,
    amount: quote.amount,
    destination: quote.destination,
    deadline: quote.deadline,
    quotedAt: quote.createdAt,
  };
}

/** The chain a stored quote pays on, or `invalid_state` when this deployment no longer pays there. */
export function chainOfQuote(deps: { chains: ChainRegistry }, quote: QuoteRecord) {
  const caip2 = formatChainId(parseAssetId(quote.asset)!.chain);
  const chain = deps.chains.forChain(caip2);
  if (!chain) throw new AppError('invalid_state', `Payments on ${caip2} are not available`);
  return { caip2, chain };
}

/**
 * The job that submits and follows an attempt. It belongs to this attempt only (`stateVersion`
 * is the one the move to processing creates): a payment released and confirmed again gets a new
 * job, and the old one, finding another state version, does nothing. `chain` (CAIP-2) picks the
 * job pool it runs in (server/jobs/pools.ts); the job itself reads the chain from the quote.
 */
export function advanceJob(attempt: { paymentId: string; optionId: string; stateVersion: number; submission: Submission; chain: string }, now: number): NewJob {
  return { id: newId('job', now), type: ADVANCE_JOB_TYPE, payload: { ...attempt }, runAt: new Date(now) };
}

/** The job that follows a succeeded payment's transaction to its chain's finality (finality-job.ts). */
export const FINALITY_JOB_TYPE = 'payment.finality';

/** The chain a finality job names, for its settlement pool. */
export function chainOfFinalityJob(payload: Record<string, unknown>): string | undefined {
  return typeof payload.chain === 'string' ? payload.chain : undefined;
}

/** The job that follows a payment that just succeeded with `submission` on `chain`, first in a block's time. */
export function finalityJob(attempt: { paymentId: string; optionId: string; submission: Submission; chain: string }, now: number): NewJob {
  return { id: newId('job', now), type: FINALITY_JOB_TYPE, payload: { ...attempt }, runAt: new Date(now + 1000) };
}

/** How soon to look again at a transfer just submitted. */
const FOLLOW_MS = 1000;
/** The longest wait between two looks at a transfer that stays undecided. */
const MAX_FOLLOW_MS = 30_000;

/**
 * Backoff without stored state: wait a tenth of how long the payment has already waited, between
 * one and thirty seconds, so a transfer the chain is slow to decide costs few RPC calls.
 */
export function followDelayMs(waitedMs: number): number {
  return Math.min(MAX_FOLLOW_MS, Math.max(FOLLOW_MS, Math.floor(waitedMs / 10)));
}

export interface AdvanceDeps extends PaymentDeps {
  chains?: ChainRegistry;
  logger: Logger;
}

/**
 * Moves a confirmed payment's transfer forward one step per run: submit (gasless flows), then
 * follow it until final. Only a definite on-chain answer ends the payment: an RPC error, a
 * timeout or a transaction not yet seen keeps it processing and retries later, since funds may
 * already have moved.
 */
export async function advanceAttempt(deps: AdvanceDeps, payload: Record<string, unknown>): Promise<JobOutcome> {
  if (!deps.chains) throw new Error(`${ADVANCE_JOB_TYPE} needs chains`);
  const payment = await deps.storage.payments.get(String(payload.paymentId));
  if (!payment || payment.status !== 'processing' || payment.optionId !== payload.optionId) return;
  // A job of an earlier attempt (released, then confirmed again) must not act on this one.
  if (typeof payload.stateVersion === 'number' && payment.stateVersion !== payload.stateVersion) return;
  const quote = await deps.storage.quotes.get(payment.id, String(payload.optionId));
  if (!quote) throw new Error(`quote ${String(payload.optionId)} missing for ${payment.id}`);
  const { caip2, chain } = chainOfQuote({ chains: deps.chains }, quote);
  // A transaction the relayer signed is recorded (hash and bytes) before it is broadcast, so
  // a crash at any point finds it again by its hash and never sends a second one.
  const recorded = payment.txId ? await deps.storage.payments.getRelayerTx(payment.id) : null;
  // The payload is JSON as confirm wrote it; the adapter checks its shape at its edge.
  const step = await chain.advance(optionRequestOf(deps, quote), payload.submission as Submission, payment.txId, {
    rawTx: recorded?.txId === payment.txId ? recorded.rawTx : null,
    // A processing payment's row changes only when a transaction is recorded for it (the status
    // changes end processing), so its updated time is when the current one was recorded.
    recordedAt: recorded?.txId === payment.txId ? payment.updatedAt : null,
    paymentId: payment.id,
    record: (tx, replaces) => deps.storage.payments.recordRelayerTx(payment.id, tx, replaces, new Date(deps.clock.now())),
  });
  const now = deps.clock.now();
  recordSettleStep(deps.metrics, caip2, (quote.state as { flow?: unknown }).flow, step, payment, now);
  // What the shared fee account paid for this payment is the partner's, whatever the outcome.
  if (step.feeSpent) await recordFeeSpent(deps, { ...step.feeSpent, partnerId: payment.partnerId, paymentId: payment.id, chain: caip2, at: new Date(now) });
  if (step.state === 'submitted') {
    // Relayer flows recorded it already (this is then a no-op); Solana records it here.
    if (step.txId !== payment.txId) await deps.storage.payments.recordTxId(payment.id, step.txId, new Date(now));
    return { retryAt: new Date(now + FOLLOW_MS) };
  }
  if (step.state === 'confirmed') {
    // Deep enough to count, not yet final: followed until the chain's finality covers it (finality-job.ts).
    const follow = chain.followFinality ? [finalityJob({ paymentId: payment.id, optionId: quote.optionId, submission: payload.submission as Submission, chain: caip2 }, now)] : [];
    // A relayer batch's transaction pays each of its payments by its own authorization: shared.
    const moved = await transitionPayment(
      deps,
      payment,
      'succeeded',
      { txId: step.txId, ...(step.shared ? { txShared: true } : {}), succeededAt: new Date(now), ...(follow.length ? { finality: 'pending' as const } : {}) },
      follow,
    );
    // Never silent: a transaction that paid another payment cannot pay this one (an operator must look).
    if (!moved.ok && moved.duplicateTxId) deps.logger.error({ paymentId: payment.id, txId: step.txId }, 'the transaction that paid this payment is recorded on another payment');
    return;
  }
  if (step.state === 'failed') {
    // If a concurrent run of this job recorded another transaction meanwhile (recorded before
    // broadcast, so before the chain could refuse this one because of it), that transaction
    // decides, not this verdict about an older one or about a refused signing.
    if ((await deps.storage.payments.get(payment.id))?.txId !== payment.txId) return { retryAt: new Date(now + FOLLOW_MS) };
    // The chain shows this attempt cannot pay the merchant: give the payment back (or end it).
    deps.logger.warn({ paymentId: payment.id, reason: step.reason, txId: step.txId }, 'payment attempt released');
    await releasePayment(deps, payment, step.reason);
    return;
  }
  return { retryAt: new Date(now + followDelayMs(now - payment.updatedAt.getTime())) };
}
