/**
 * The job queue port. Jobs are first written to storage (the outbox, in the same transaction as
 * the change that needs them) and then handed to a queue by the relay; so a crash between commit
 * and enqueue, or a queue that loses its memory, loses no job. Delivery is at least once: a job
 * handler must be idempotent, and the worker skips a job storage already marks completed.
 * No connection type crosses this port.
 */
export interface QueuedJob {
  /** The outbox id; a queue treats a second enqueue of the same id as a no-op while it knows it. */
  id: string;
  type: string;
  payload: Record<string, unknown>;
  /** Not before this time. */
  runAt: Date;
  /**
   * The pool that runs it (see `QueuePools`): its own slots, so a job of one pool never waits for
   * another pool's. Absent, or a pool the queue was not built with: the default pool.
   */
  pool?: string;
}

/** The pool of a job that names none, or one the queue does not know. */
export const DEFAULT_POOL = 'default';

/** Pool names: safe in a Redis key and a queue name. */
export const POOL_NAME = /^[A-Za-z0-9_.-]{1,80}$/;

/**
 * What `startWorker` runs: concurrency per pool (each pool its own slots). `default` is the
 * default pool's; a pool the queue knows but the map leaves out runs one job at a time.
 */
export type PoolConcurrency = Record<string, number>;

/** What a handler answers: done, or run again later (e.g. a transaction not yet confirmed). */
export type JobOutcome = void | { retryAt: Date };

export type JobHandler = (job: QueuedJob) => Promise<JobOutcome>;

export interface QueuePort {
  /** True when the queue keeps jobs across process restarts (BullMQ); the inline queue does not. */
  readonly durable: boolean;
  enqueue(job: QueuedJob): Promise<void>;
  /**
   * `enqueue` of each, in as few round trips as the queue allows (the relay hands over a claimed
   * batch at once). On a failure some may have been added: the relay enqueues the batch again,
   * and a known id is a no-op.
   */
  enqueueMany(jobs: QueuedJob[]): Promise<void>;
  /**
   * Starts consuming in this process, every pool the queue knows. A handler that throws is
   * retried with backoff; one that answers `retryAt` is run again at that time (in its pool).
   * `concurrency` is the default pool's slots (default 1); `pools` the other pools', by name.
   */
  startWorker(handlers: Record<string, JobHandler>, opts?: { concurrency?: number; pools?: PoolConcurrency }): Promise<void>;
  /**
   * Calls `listener` whenever the queue finds it no longer holds the jobs it was given: its
   * server came back empty (a Redis restart without persistence, a failover to an empty replica,
   * a flush) or was empty when this process first reached it. The caller hands it every
   * unfinished outbox job again. A queue that forgets only with its process (inline) never calls
   * it: its process start is when that is done.
   */
  onMemoryLost(listener: () => void): void;
  /**
   * Resolves once the queue's store answers (Redis PING); rejects when it cannot be reached. A
   * queue kept in the process (inline) has nothing to reach and resolves at once. Callers bound
   * the wait themselves (readiness, doctor).
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}
