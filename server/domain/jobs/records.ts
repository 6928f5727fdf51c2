/** Outbox jobs: written with the change that needs them, then handed to the queue. */

/** A job to write to the outbox with a change. */
export interface NewJob {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  runAt: Date;
  /**
   * The trace (request id) that caused it, for its log lines (server/domain/trace-context.ts).
   * Unset: the storage stamps the trace current when it is written; null: none.
   */
  traceId?: string | null;
}

/** An outbox job as stored. */
export interface JobRecord {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  runAt: Date;
  createdAt: Date;
  relayedAt: Date | null;
  completedAt: Date | null;
  attempts: number;
  lastError: string | null;
  /** Null for jobs written outside any trace, and for those written before traces were kept. */
  traceId: string | null;
}

/** A job to write on its own (`JobRepository.insert`). */
export type JobToInsert = Pick<JobRecord, 'id' | 'type' | 'payload' | 'runAt' | 'createdAt'> & Pick<NewJob, 'traceId'>;
