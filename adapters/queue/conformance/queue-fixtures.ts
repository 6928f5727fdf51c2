import type { JobHandler, QueuedJob, QueuePort } from '../../../server/ports/queue.ts';

/**
 * A fresh, isolated queue, built with the named pools given (see `QueuedJob.pool`). Its retry
 * backoff should be short (tens of ms) so the retry case finishes quickly.
 */
export type QueueFactory = (opts?: { pools?: string[] }) => Promise<QueuePort>;

let seq = 0;
export const job = (type: string, payload: Record<string, unknown> = {}, runAt = new Date(), pool?: string): QueuedJob => ({
  id: `job_${process.pid}_${Date.now().toString(36)}_${++seq}`,
  type,
  payload,
  runAt,
  ...(pool === undefined ? {} : { pool }),
});

/** Records runs per job id; `marker` jobs let a test know earlier jobs had their turn. */
export function recorder() {
  const runs: Array<{ id: string; at: number; job: QueuedJob }> = [];
  const handler: JobHandler = async (j) => {
    runs.push({ id: j.id, at: Date.now(), job: j });
  };
  const count = (id: string) => runs.filter((r) => r.id === id).length;
  return { runs, handler, count };
}
