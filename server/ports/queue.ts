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
}

/** What a handler answers: done, or run again later (e.g. a transaction not yet confirmed). */
export type JobOutcome = void | { retryAt: Date };

export type JobHandler = (job: QueuedJob) => Promise<JobOutcome>;

export interface QueuePort {
  /** True when the queue keeps jobs across process restarts (BullMQ); the inline queue does not. */
  readonly durable: boolean;
  enqueue(job: QueuedJob): Promise<void>;
  /**
   * Starts consuming in this process. A handler that throws is retried with backoff; one that
   * answers `retryAt` is run again at that time.
   */
  startWorker(handlers: Record<string, JobHandler>, opts?: { concurrency?: number }): Promise<void>;
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
