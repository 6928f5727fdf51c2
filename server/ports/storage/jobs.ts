import type { JobRecord, JobToInsert } from '../../domain/jobs/records.ts';

/**
 * The job outbox. A job is relayed to the queue by one relay only, and completed once: a
 * duplicate delivery of a job finds it done.
 */
export interface JobRepository {
  /**
   * Writes jobs on their own (jobs that go with a state change are written by that change's unit).
   * Every job write, here and in those units, keeps the job's `traceId`, or when it is unset the
   * trace current at the call (server/domain/trace-context.ts), so the job runs in that trace.
   */
  insert(jobs: JobToInsert[]): Promise<void>;
  /**
   * Up to `limit` jobs not yet handed to the queue, oldest first. Concurrent relays (several
   * processes) get disjoint sets.
   */
  claimUnrelayed(limit: number, now: Date): Promise<JobRecord[]>;
  markRelayed(ids: string[], at: Date): Promise<void>;
  get(id: string): Promise<JobRecord | null>;
  /** Marks the job done, and relayed if its relay never marked it; false when it already was done, so a duplicate delivery does nothing. */
  markCompleted(id: string, at: Date): Promise<boolean>;
  recordFailure(id: string, error: string): Promise<void>;
  /** Makes every unfinished job relayable again: for a queue that lost its memory (inline, at start). */
  requeueUnfinished(): Promise<number>;
  /** When the oldest job not yet handed to the queue (claimed or not) was written; null when none waits. Cheap: read at every metrics scrape. */
  oldestUnrelayedAt(): Promise<Date | null>;
}
