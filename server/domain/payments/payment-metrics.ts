import type { TransferState } from '../../ports/chains.ts';
import type { MetricsPort } from '../../ports/metrics.ts';
import { METRICS } from '../../ports/metric-catalog.ts';
import type { PaymentRecord } from './records.ts';
import { isFinal, type PaymentStatus } from './state-machine.ts';

/** The flows a label may name; a stored quote is JSON, so anything else is `other`, never a new series. */
const FLOWS = new Set(['eip3009', 'permit2', 'transfer', 'spl']);

/** A transition just applied: counted by from/to, and a final one timed from the payment's creation. */
export function recordTransition(metrics: MetricsPort | undefined, from: PaymentStatus, to: PaymentRecord, now: number): void {
  if (!metrics) return;
  metrics.count(METRICS.paymentTransitions, { from, to: to.status });
  if (isFinal(to.status)) metrics.observe(METRICS.paymentTimeToFinal, { status: to.status }, Math.max(0, now - to.createdAt.getTime()) / 1000);
}

/**
 * One step of following a transfer: a submission, or its end (confirmed, failed), or both (a step
 * that waited for what it submitted). A confirmed one is timed from the processing payment's last
 * update: when its transaction was recorded, or, confirmed by the step that submitted it, the confirm.
 */
export function recordSettleStep(metrics: MetricsPort | undefined, chain: string, flow: unknown, step: TransferState, payment: PaymentRecord, now: number): void {
  if (!metrics) return;
  const f = typeof flow === 'string' && FLOWS.has(flow) ? flow : 'other';
  if (step.submittedNow && step.state !== 'submitted') metrics.count(METRICS.chainSubmissions, { chain, flow: f, outcome: 'submitted' });
  if (step.state === 'pending') return;
  metrics.count(METRICS.chainSubmissions, { chain, flow: f, outcome: step.state });
  if (step.state === 'confirmed') metrics.observe(METRICS.chainTimeToFinality, { chain, flow: f }, Math.max(0, now - payment.updatedAt.getTime()) / 1000);
}
