import { createPassLoop, type PassLoop } from './pass-loop.ts';
import { expireDue } from '../domain/payments/expiry-job.ts';
import type { PaymentDeps } from '../domain/payments/transition.ts';
import { describeError, type Logger } from '../ports/logger.ts';

export interface ExpirySweepOptions {
  /** The longest wait between sweeps; default 1000 ms. A known deadline sooner wakes it then. */
  intervalMs?: number;
  /** Payments expired per unit; default 500. A full unit is followed by the next at once. */
  batch?: number;
}

/**
 * Expires payments at their deadline: every process that runs jobs sweeps (`startJobs`' `loops`),
 * so a payment expires while any one of them lives, whichever was killed, and the schedule is the
 * payments table itself, so nothing is lost with Redis or a queue. Sweeps in several processes
 * expire disjoint sets (`PaymentRepository.expireDue` skips locked rows).
 *
 * After a sweep it sleeps until the earliest open deadline when that comes before `intervalMs`,
 * so a payment expires at its deadline, not up to an interval late; a payment created meanwhile
 * with a sooner deadline waits at most `intervalMs` past it (reads expire it on time regardless).
 * One sweep replaced the relay, the queue and the worker run each payment's own expiry job cost
 * (issue 33: 5–8 % of the API's CPU per create went to handing it to BullMQ).
 */
export function createExpirySweep(deps: PaymentDeps & { logger: Logger }, opts: ExpirySweepOptions = {}): PassLoop {
  const intervalMs = opts.intervalMs ?? 1000;
  const batch = opts.batch ?? 500;
  if (!Number.isInteger(batch) || batch < 1) throw new Error('expiry sweep: batch must be a positive integer');
  let wake: NodeJS.Timeout | null = null;
  const pass = async (stopped: () => boolean): Promise<number> => {
    let total = 0;
    for (;;) {
      const r = await expireDue(deps, batch);
      total += r.expired;
      if (r.expired === batch && !stopped()) continue;
      // A deadline already past here belongs to a payment another unit held (skipped): the next
      // interval looks again.
      const untilNext = r.nextDeadline ? r.nextDeadline.getTime() - deps.clock.now() : Infinity;
      if (wake) clearTimeout(wake);
      wake = null;
      if (untilNext > 0 && untilNext < intervalMs && !stopped()) {
        wake = setTimeout(() => loop.notify(), untilNext);
        wake.unref();
      }
      return total;
    }
  };
  const loop = createPassLoop({
    intervalMs,
    pass,
    onError: (err) => deps.logger.warn({ err: describeError(err) }, 'expiry sweep failed; will retry'),
  });
  return {
    ...loop,
    async stop() {
      if (wake) clearTimeout(wake);
      await loop.stop();
    },
  };
}
