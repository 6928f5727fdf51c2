import type { AssetRegistry } from '../domain/assets.ts';
import { expireIfDue } from '../domain/payments/transition.ts';
import type { Clock } from '../ports/clock.ts';
import type { JobHandler } from '../ports/queue.ts';
import type { StoragePort } from '../ports/storage.ts';
import type { JobLogger } from './logger.ts';

/** What job handlers may use; later capabilities add their chain and webhook ports here. */
export interface JobHandlerDeps {
  storage: StoragePort;
  clock: Clock;
  logger: JobLogger;
  assets: AssetRegistry;
  /** Called when a handler committed new outbox jobs, so the relay hands them on at once. */
  onJobsWritten?: () => void;
}

/**
 * The registry of job types, one entry per type written to the outbox. Both the API process
 * (embedded or same-process workers) and `npm run worker` take their handlers from here, so every
 * process runs the same set. Each handler must be idempotent: see `wrapJobHandler` in
 * run-worker.ts for why.
 */
export function buildJobHandlers(deps: JobHandlerDeps): Record<string, JobHandler> {
  return {
    /**
     * Expires a payment nobody paid by its deadline. Idempotent: a payment that moved on (paid,
     * cancelled, already expired) is left alone; one whose deadline is not yet reached by this
     * process's clock is retried at the deadline.
     */
    async 'payment.expire'(job) {
      const payment = await deps.storage.payments.get(String(job.payload.paymentId));
      if (!payment || payment.status !== 'requires_action') return;
      if (payment.expiresAt.getTime() > deps.clock.now()) return { retryAt: payment.expiresAt };
      await expireIfDue(deps, payment);
    },
  };
}
