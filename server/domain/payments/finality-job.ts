import type { Submission } from '../../ports/chains.ts';
import type { JobOutcome } from '../../ports/queue.ts';
import { METRICS } from '../../ports/metric-catalog.ts';
import { newId } from '../ids.ts';
import { FINALITY_JOB_TYPE, chainOfQuote, followDelayMs, optionRequestOf, type AdvanceDeps } from './settle-attempt.ts';
import { eventSnapshot } from './view.ts';
import type { PaymentRecord } from './records.ts';
import type { WebhookEventType } from '../webhooks/event-types.ts';

/**
 * After `succeeded`: the payment's transaction is followed until its chain calls its block final
 * (server/chain-profiles.ts). A block dropped before that is healed by sending the recorded
 * transaction again while the buyer's authorization is valid (its heal window past the quote
 * deadline); when it cannot be, the payment says so: `finality: reversed` with the reason, an
 * event, a counter to alert on and an error in the logs. Never silent, never a status change:
 * `succeeded` is final in every API version's state machine, so the reversal is told beside it.
 */

/**
 * The event a reversal is recorded with. Versions from 2026-11-27 declare it: endpoints of a
 * partner pinned to one that subscribe to it are sent it. Older versions do not: their endpoints
 * are sent nothing new (wire-versions.ts), and their partners learn it from the dashboard, the
 * `payment_finality_total` metric and its alert rule.
 */
export const REVERSED_EVENT_TYPE = 'payment.reversed' satisfies WebhookEventType;

/** One look at a succeeded payment's transaction; see the module comment. */
export async function followPaymentFinality(deps: AdvanceDeps, payload: Record<string, unknown>): Promise<JobOutcome> {
  if (!deps.chains) throw new Error(`${FINALITY_JOB_TYPE} needs chains`);
  const payment = await deps.storage.payments.get(String(payload.paymentId));
  if (!payment || payment.status !== 'succeeded' || payment.finality !== 'pending' || !payment.txId || payment.optionId !== payload.optionId) return;
  const quote = await deps.storage.quotes.get(payment.id, String(payload.optionId));
  if (!quote) throw new Error(`quote ${String(payload.optionId)} missing for ${payment.id}`);
  const { caip2, chain } = chainOfQuote({ chains: deps.chains }, quote);
  const recorded = await deps.storage.payments.getRelayerTx(payment.id);
  const rawTx = recorded?.txId === payment.txId ? recorded.rawTx : null;
  const step = chain.followFinality
    ? await chain.followFinality(optionRequestOf(deps, quote), payload.submission as Submission, payment.txId, rawTx)
    : ({ state: 'final', txId: payment.txId } as const);
  const now = deps.clock.now();
  if (step.state === 'pending') return { retryAt: new Date(now + followDelayMs(now - (payment.succeededAt ?? payment.updatedAt).getTime())) };
  if (step.state === 'final') {
    const reason = step.txId === payment.txId ? null : `paid by ${step.txId}`;
    const done = await deps.storage.payments.markFinality(payment.id, { from: 'pending', to: 'final', reason, at: new Date(now) });
    if (done.ok) deps.metrics?.count(METRICS.paymentFinality, { chain: caip2, outcome: 'final' });
    return;
  }
  await reverse(deps, payment, caip2, step.reason);
}

/** Records a reversal with its event, counts it and logs it as an error: an operator must act (refund, ask the buyer). */
async function reverse(deps: AdvanceDeps, payment: PaymentRecord, chain: string, reason: string): Promise<void> {
  const now = deps.clock.now();
  const merchant = await deps.storage.merchants.get(payment.partnerId, payment.merchantId, { includeDeleted: true });
  const done = await deps.storage.payments.markFinality(
    payment.id,
    { from: 'pending', to: 'reversed', reason, at: new Date(now) },
    { id: newId('event', now), type: REVERSED_EVENT_TYPE, snapshot: (p) => eventSnapshot(p, merchant ?? undefined, deps.assets) },
  );
  if (!done.ok) return;
  deps.metrics?.count(METRICS.paymentFinality, { chain, outcome: 'reversed' });
  deps.logger.error({ paymentId: payment.id, chain, txId: payment.txId, reason }, 'succeeded payment reversed by a reorg: its transaction is no longer on the chain');
}
