import type { Clock } from '../../ports/clock.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import type { NewJob } from '../jobs/records.ts';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from './records.ts';

/** How long one batch job starts new attempts; the job then runs again for what is left. */
export const BATCH_BUDGET_MS = 10_000;

type Found = { delivery: Omit<WebhookDeliveryRecord, 'attempts'>; endpoint: WebhookEndpointRecord | null };

/** What one started attempt comes to: nothing more to do, or the retry due at `retryAt`. */
export type AttemptOutcome = { retryAt: Date } | undefined;

/**
 * How long a batch waits in its slot for one of its endpoint's (or partner's) attempts to end
 * before it gives the slot back and comes again later: a fast endpoint frees one within
 * milliseconds; one that does not within this is slow, and its batch must not hold a slot waiting.
 */
export const IN_JOB_WAIT_MS = 1000;

export interface BatchSenderDeps {
  storage: Pick<StoragePort, 'webhooks' | 'jobs'>;
  clock: Clock;
  budgetMs: number;
  /**
   * Starts one attempt (see deliver.ts): `'busy'` when the endpoint or its partner has no free
   * slot, else the attempt's outcome, once its answer is recorded.
   */
  start(found: Found): 'busy' | Promise<AttemptOutcome>;
  /** Resolves when a slot of the endpoint (or of its partner) may have freed, or after `maxMs`. */
  nextRelease(endpoint: { id: string; partnerId: string }, maxMs: number): Promise<void>;
  /** How long until a slot of the endpoint is likely free, ms; and whether it is slow (then the batch comes back later at once). */
  wait(endpointId: string): { ms: number; slow: boolean };
  /** Called after follow-up jobs were written, so the relay hands them on at once. */
  onJobsWritten?: () => void;
}

/** The one-delivery job a failed attempt's retry runs as. Its id is fixed by delivery and attempt, so writing it twice writes it once. */
export function retryJob(d: Pick<WebhookDeliveryRecord, 'id' | 'endpointId' | 'traceId'>, attempted: number, runAt: Date): NewJob {
  return { id: `job_whr_${d.id}_${attempted}`, type: 'webhook.deliver', payload: { deliveryId: d.id, endpointId: d.endpointId }, runAt, traceId: d.traceId ?? null };
}

/**
 * What a batch job does with the deliveries of one endpoint the dispatcher wrote together. Why a
 * batch rather than a queue job per delivery: per delivery, that job cost an outbox row, a relay
 * claim and mark, the queue's own round trips (several Redis commands with BullMQ), and the
 * worker's outbox read and completion mark: most of the time of an attempt to a fast receiver.
 * A batch pays them once. Its deliveries are read in one statement and started in order,
 * **pipelined**: each as soon as the endpoint has a free slot (its in-flight cap, and its
 * partner's), without waiting for earlier outcomes to be recorded; each outcome is recorded as
 * its answer comes (the records of concurrent attempts share statements; a delivery is delivered
 * only once its 2xx is recorded), and the job completes only once every outcome is recorded.
 *
 * Crash safety and sharing are the queue's, as for every job: the batch is written to the outbox
 * with its deliveries in the dispatcher's unit; one worker runs a job at a time (BullMQ's lock is
 * the lease: a worker that dies loses it and the job runs again elsewhere; the inline queue's
 * unfinished jobs are requeued at start). A job that runs again skips what is settled, attempts
 * what is due, and writes the retry job of what an earlier run attempted but did not hand on; a
 * delivery attempted by a run that died before recording it is sent again (at least once, the
 * same webhook-id, which receivers dedupe on). A failed attempt's retry is written as a
 * one-delivery job due per the schedule before the batch completes.
 *
 * A batch never holds its slot waiting on a slow endpoint: when no slot of the endpoint frees
 * within `IN_JOB_WAIT_MS` (or the endpoint is slow: it timed out), or after `budgetMs`, it starts
 * nothing new, waits for the attempts it started, and answers `retryAt` for the rest (the job runs
 * again then, from the outbox's point of view unfinished; the settled ones are skipped).
 */
export function createBatchSender(deps: BatchSenderDeps) {
  return async (endpointId: string, ids: string[]): Promise<AttemptOutcome> => {
    const started = performance.now();
    const found = await Promise.all(ids.map((id) => deps.storage.webhooks.getDeliveryToSend(id)));
    const follow: NewJob[] = [];
    const outcomes: Promise<void>[] = [];
    let comeBackAt: number | null = null;
    sending: for (const f of found) {
      if (!f || f.delivery.status !== 'pending') continue;
      const due = f.delivery.nextAttemptAt;
      if (f.delivery.attemptCount > 0 && due && due.getTime() > deps.clock.now()) {
        follow.push(retryJob(f.delivery, f.delivery.attemptCount, due));
        continue;
      }
      for (;;) {
        if (performance.now() - started >= deps.budgetMs) {
          comeBackAt = deps.clock.now();
          break sending;
        }
        const attempt = deps.start(f);
        if (attempt !== 'busy') {
          outcomes.push(attempt.then((out) => void (out && follow.push(retryJob(f.delivery, f.delivery.attemptCount + 1, out.retryAt)))));
          break;
        }
        const wait = deps.wait(endpointId);
        const endpoint = f.endpoint ?? { id: endpointId, partnerId: f.delivery.partnerId };
        const waitStarted = performance.now();
        if (!wait.slow) await deps.nextRelease(endpoint, IN_JOB_WAIT_MS);
        if (wait.slow || performance.now() - waitStarted >= IN_JOB_WAIT_MS) {
          comeBackAt = deps.clock.now() + deps.wait(endpointId).ms;
          break sending;
        }
      }
    }
    const settled = await Promise.allSettled(outcomes);
    if (follow.length > 0) {
      const at = new Date(deps.clock.now());
      await deps.storage.jobs.insert(follow.map((j) => ({ ...j, createdAt: at })));
      deps.onJobsWritten?.();
    }
    // A record that failed (the database) fails the job: the queue runs it again, which skips
    // what was recorded and sends the rest.
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    return comeBackAt === null ? undefined : { retryAt: new Date(comeBackAt) };
  };
}
