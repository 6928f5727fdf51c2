import type { Clock } from '../ports/clock.ts';
import type { JobHandler, JobOutcome, PoolConcurrency, QueuedJob, QueuePort } from '../ports/queue.ts';
import type { JobRecord } from '../domain/jobs/records.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { describeError, type Logger } from '../ports/logger.ts';
import { runInTrace } from '../domain/trace-context.ts';

export interface JobWorkerOptions {
  storage: Pick<StoragePort, 'jobs'>;
  queue: QueuePort;
  handlers: Record<string, JobHandler>;
  clock: Clock;
  logger: Logger;
  /** The default pool's slots (all jobs run there when no pools are given). */
  concurrency?: number;
  /** Slots per pool (see pools.ts); overrides `concurrency` for the pools it names. */
  pools?: PoolConcurrency;
}

/**
 * Wraps a handler with the outbox bookkeeping that makes at-least-once delivery run a job's
 * effect once: a job the outbox marks completed is skipped; success marks it completed; a throw
 * is recorded (`attempts`, `lastError`) and rethrown so the queue retries; a `retryAt` answer
 * leaves it unfinished. The window this cannot close is a crash (or a failed `markCompleted`)
 * after the handler's effect and before the mark: the job then runs again, so each handler must
 * itself be idempotent for that window (check state first, use ON CONFLICT, conditional updates).
 */
export function wrapJobHandler(type: string, handler: JobHandler, deps: Pick<JobWorkerOptions, 'storage' | 'clock' | 'logger'>): JobHandler {
  const { storage, clock, logger: log } = deps;
  // Each job runs in its own trace, never in whatever context the queue called it from (the
  // inline queue runs jobs from the relay's pass, which a request may have nudged).
  return (job) => runInTrace({ paymentId: paymentIdOf(job.payload) }, () => run(job));
  async function run(job: QueuedJob): Promise<JobOutcome> {
    const record = await storage.jobs.get(job.id);
    // A job written in a trace (server/domain/trace-context.ts) runs in it; one written outside any
    // trace, or before traces were kept, runs without.
    if (record?.traceId) return runInTrace({ traceId: record.traceId, paymentId: paymentIdOf(job.payload) }, () => runRecorded(job, record));
    return runRecorded(job, record);
  }
  async function runRecorded(job: QueuedJob, record: JobRecord | null): Promise<JobOutcome> {
    if (record?.completedAt) {
      log.debug({ jobId: job.id, type }, 'job already completed; duplicate delivery skipped');
      return undefined;
    }
    if (!record) log.warn({ jobId: job.id, type }, 'job is not in the outbox; running it anyway');
    const started = performance.now();
    const ms = () => Math.round((performance.now() - started) * 10) / 10;
    let outcome;
    try {
      outcome = await handler(job);
    } catch (err) {
      // Here, in the job's trace: the queue's own failure line is written outside it.
      log.warn({ jobId: job.id, type, ms: ms(), err: err instanceof Error ? err.message : String(err) }, 'job failed');
      await storage.jobs.recordFailure(job.id, describeError(err)).catch((e: unknown) => log.warn({ jobId: job.id, err: describeError(e) }, 'could not record a job failure'));
      throw err;
    }
    if (outcome && outcome.retryAt instanceof Date) {
      log.info({ jobId: job.id, type, ms: ms(), retryAt: outcome.retryAt.toISOString() }, 'job ran; runs again later');
      return outcome;
    }
    if (!(await storage.jobs.markCompleted(job.id, new Date(clock.now())))) log.warn({ jobId: job.id, type }, 'job was completed by a concurrent delivery');
    else log.info({ jobId: job.id, type, ms: ms() }, 'job completed');
    return undefined;
  }
}

/** The payment a job is about, when its payload names one. */
function paymentIdOf(payload: Record<string, unknown>): string | undefined {
  return typeof payload.paymentId === 'string' ? payload.paymentId : undefined;
}

/** Starts consuming the queue in this process with every handler wrapped by `wrapJobHandler`. */
export async function startJobWorker(opts: JobWorkerOptions): Promise<void> {
  const wrapped: Record<string, JobHandler> = {};
  for (const [type, handler] of Object.entries(opts.handlers)) wrapped[type] = wrapJobHandler(type, handler, opts);
  await opts.queue.startWorker(wrapped, { ...(opts.concurrency === undefined ? {} : { concurrency: opts.concurrency }), ...(opts.pools ? { pools: opts.pools } : {}) });
}
