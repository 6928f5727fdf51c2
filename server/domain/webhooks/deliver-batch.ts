import type { Clock } from '../../ports/clock.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import type { NewJob } from '../jobs/records.ts';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from './records.ts';

/** How long one batch job starts new attempts; what is left then goes on as a job of its own. */
export const BATCH_BUDGET_MS = 10_000;

type Found = { delivery: Omit<WebhookDeliveryRecord, 'attempts'>; endpoint: WebhookEndpointRecord | null };

export interface BatchSenderDeps {
  storage: Pick<StoragePort, 'webhooks' | 'jobs'>;
  clock: Clock;
  /** Attempts of this batch in flight at once: the per-endpoint cap (the slots are shared with every other job of the process). */
  cap: number;
  budgetMs: number;
  /** One attempt (see deliver.ts); `'busy'` when the endpoint has no free slot. */
  attempt(found: Found): Promise<'busy' | { retryAt: Date } | undefined>;
  /** How long to wait for a slot of the endpoint, ms. */
  wait(endpointId: string): number;
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
 * A batch pays them once. Its deliveries are read in one statement, sent `cap` at a time (waiting
 * for the endpoint's slots, which it shares with every other job of the process, so the
 * per-endpoint cap holds), each outcome is recorded as its answer comes (the records of
 * concurrent attempts share statements; a delivery is delivered only once its 2xx is recorded),
 * and only then does the job complete.
 *
 * Crash safety and sharing are the queue's, as for every job: the batch is written to the outbox
 * with its deliveries in the dispatcher's unit; one worker runs a job at a time (BullMQ's lock is
 * the lease: a worker that dies loses it and the job runs again elsewhere; the inline queue's
 * unfinished jobs are requeued at start). A job that runs again skips what is settled, attempts
 * what is due, and writes the retry job of what an earlier run attempted but did not hand on; a
 * delivery attempted by a run that died before recording it is sent again (at least once, the
 * same webhook-id, which receivers dedupe on). A failed attempt's retry is written as a
 * one-delivery job due per the schedule before the batch completes. After `budgetMs` the batch
 * starts nothing new and hands the rest on as a job of its own, so a slow endpoint's batch does
 * not hold a worker slot, or a shutdown, for long.
 */
export function createBatchSender(deps: BatchSenderDeps) {
  return async (endpointId: string, ids: string[]): Promise<void> => {
    const started = performance.now();
    const found = await Promise.all(ids.map((id) => deps.storage.webhooks.getDeliveryToSend(id)));
    const follow: NewJob[] = [];
    let next = 0;
    const lane = async () => {
      while (next < found.length && performance.now() - started < deps.budgetMs) {
        const f = found[next++];
        if (!f || f.delivery.status !== 'pending') continue;
        const due = f.delivery.nextAttemptAt;
        if (f.delivery.attemptCount > 0 && due && due.getTime() > deps.clock.now()) {
          follow.push(retryJob(f.delivery, f.delivery.attemptCount, due));
          continue;
        }
        for (;;) {
          const out = await deps.attempt(f);
          if (out === 'busy') {
            await new Promise((r) => setTimeout(r, deps.wait(endpointId)));
            continue;
          }
          if (out) follow.push(retryJob(f.delivery, f.delivery.attemptCount + 1, out.retryAt));
          break;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(deps.cap, found.length) }, lane));
    const rest = ids.slice(next);
    // Named by its first delivery: the rest is always a tail of this batch, so a second run that
    // stops at the same place writes the same job, once.
    if (rest.length > 0) follow.push({ id: `job_whb_${rest[0]}`, type: 'webhook.deliver', payload: { endpointId, deliveryIds: rest }, runAt: new Date(deps.clock.now()) });
    if (follow.length === 0) return;
    const at = new Date(deps.clock.now());
    await deps.storage.jobs.insert(follow.map((j) => ({ ...j, createdAt: at })));
    deps.onJobsWritten?.();
  };
}
