/** Outbox jobs: written with the change that needs them, then handed to the queue. */

/** A job to write to the outbox with a change. */
export interface NewJob {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  runAt: Date;
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
}
