import type { JobOutcome } from '../../ports/queue.ts';
import { newId } from '../ids.ts';
import { EVENT_TYPE } from './state-machine.ts';
import { recordTransition } from './payment-metrics.ts';
import { expireIfDue, type PaymentDeps } from './transition.ts';
import { eventSnapshot } from './view.ts';

/**
 * Payments expire by sweep (`expireDue`, run by server/jobs/expiry-sweep.ts in every process that
 * runs jobs): the deadline in the payment's own row is the schedule, so a create writes no job for
 * it, and no queue, relay or Redis restart can lose one. Reads expire a due payment lazily too
 * (`expireIfDue`), so nobody sees a payment open past its deadline while a sweep is on its way.
 */
export async function expireDue(deps: PaymentDeps, limit: number): Promise<{ expired: number; nextDeadline: Date | null }> {
  const now = deps.clock.now();
  const { expired, nextDeadline } = await deps.storage.payments.expireDue(new Date(now), limit, {
    type: EVENT_TYPE.expired,
    newId: () => newId('event', now),
    snapshot: (p, merchant) => eventSnapshot(p, merchant ?? undefined, deps.assets),
  });
  for (const p of expired) recordTransition(deps.metrics, 'requires_action', p, now);
  return { expired: expired.length, nextDeadline };
}

/**
 * The job that expired one payment at its deadline, written with each payment before the sweep
 * replaced it. Outboxes of a deployment that ran that version may still hold such jobs, so their
 * handler stays (server/jobs/handlers.ts); nothing writes them any more.
 */
export const EXPIRE_JOB_TYPE = 'payment.expire';

/**
 * Expires a payment nobody paid by its deadline. Idempotent: a payment that moved on (paid,
 * cancelled, already expired) is left alone; one whose deadline is not yet reached by this
 * process's clock is retried at the deadline.
 */
export async function runExpiry(deps: PaymentDeps, payload: Record<string, unknown>): Promise<JobOutcome> {
  const payment = await deps.storage.payments.get(String(payload.paymentId));
  if (!payment || payment.status !== 'requires_action') return;
  if (payment.expiresAt.getTime() > deps.clock.now()) return { retryAt: payment.expiresAt };
  await expireIfDue(deps, payment);
}
