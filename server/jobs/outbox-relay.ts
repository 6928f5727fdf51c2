import { createPassLoop, type PassLoop } from './pass-loop.ts';
import type { Clock } from '../ports/clock.ts';
import type { QueuePort } from '../ports/queue.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { describeError, type Logger } from '../ports/logger.ts';
import type { MetricsPort } from '../ports/metrics.ts';
import { METRICS } from '../ports/metric-catalog.ts';

export interface OutboxRelayOptions {
  storage: Pick<StoragePort, 'jobs'>;
  queue: QueuePort;
  clock: Clock;
  logger: Logger;
  /** How often to look for unrelayed jobs without being nudged; default 1000 ms. */
  intervalMs?: number;
  /** Jobs claimed per round trip, and handed to the queue at once; default 500. */
  batch?: number;
  /**
   * An enqueue that has not answered by then counts as failed (default 10 s), so a queue whose
   * server is down cannot hold a pass, or shutdown, forever. If it lands later, the next relay's
   * enqueue of the same id is a no-op.
   */
  enqueueTimeoutMs?: number;
  /** Relayed jobs counted per type (`jobs_queued_total`); absent: not counted. */
  metrics?: MetricsPort;
  /** The pool each job is queued in (see pools.ts); absent: the queue's default pool. */
  poolOf?: (type: string, payload: Record<string, unknown>) => string;
}

/** Call `notify()` after committing work that wrote jobs, so they reach the queue at once. */
export type OutboxRelay = PassLoop;

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`enqueue did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Moves jobs from the outbox to the queue: claim (disjoint across relays), enqueue, mark relayed.
 * A relay that dies after enqueue and before the mark leaves the claim to expire and the job is
 * enqueued again later; that is harmless, since the queue ignores a known id and the worker skips
 * a job the outbox marks completed. A failed enqueue stops the pass and leaves the job to the
 * next one (its claim lapses after the lease).
 */
export function createOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const intervalMs = opts.intervalMs ?? 1000;
  const batch = opts.batch ?? 500;
  if (!Number.isInteger(intervalMs) || intervalMs < 10) throw new Error('outbox relay: intervalMs must be an integer of at least 10');
  if (!Number.isInteger(batch) || batch < 1) throw new Error('outbox relay: batch must be a positive integer');
  const enqueueTimeoutMs = opts.enqueueTimeoutMs ?? 10_000;
  if (!Number.isInteger(enqueueTimeoutMs) || enqueueTimeoutMs < 1) throw new Error('outbox relay: enqueueTimeoutMs must be a positive integer');
  const { storage, queue, clock, logger: log } = opts;
  const passOnce = async (): Promise<number> => {
    let relayed = 0;
    for (;;) {
      const jobs = await storage.jobs.claimUnrelayed(batch, new Date(clock.now()));
      if (jobs.length === 0) return relayed;
      const queued = jobs.map((job) => {
        const pool = opts.poolOf?.(job.type, job.payload);
        return { id: job.id, type: job.type, payload: job.payload, runAt: job.runAt, ...(pool ? { pool } : {}) };
      });
      // The whole claim at once (one round trip per pool with BullMQ): one enqueue per job was
      // the relay's ceiling under a steady load of creates (each writes an expiry job).
      let failed = false;
      try {
        await withTimeout(queue.enqueueMany(queued), enqueueTimeoutMs);
      } catch (err) {
        failed = true;
        log.warn({ jobs: jobs.length, firstJobId: jobs[0]!.id, err: describeError(err) }, 'enqueue failed; the jobs stay in the outbox for a later pass');
      }
      if (failed) return relayed;
      await storage.jobs.markRelayed(
        jobs.map((j) => j.id),
        new Date(clock.now()),
      );
      relayed += jobs.length;
      for (const job of jobs) opts.metrics?.count(METRICS.jobsQueued, { job_type: job.type });
      if (jobs.length < batch) return relayed;
    }
  };

  return createPassLoop({
    intervalMs,
    pass: passOnce,
    onError: (err) => log.warn({ err: describeError(err) }, 'outbox relay pass failed; will retry'),
  });
}
