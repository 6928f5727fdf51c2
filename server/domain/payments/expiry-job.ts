import type { JobOutcome } from '../../ports/queue.ts';
import type { NewJob } from '../jobs/records.ts';
import { newId } from '../ids.ts';
import { expireIfDue, type PaymentDeps } from './transition.ts';

/**
 * The job that expires a payment at its deadline: written with the payment by create-payment.ts,
 * run by the job registry (server/jobs/handlers.ts). Both take its type and shape from here.
 */
export const EXPIRE_JOB_TYPE = 'payment.expire';

export function expireJob(payment: { id: string; expiresAt: Date }, now: number): NewJob {
  return { id: newId('job', now), type: EXPIRE_JOB_TYPE, payload: { paymentId: payment.id }, runAt: payment.expiresAt };
}

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
