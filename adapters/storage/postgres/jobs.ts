import type { JobRecord, JobToInsert } from '../../../server/domain/jobs/records.ts';
import { currentTraceId } from '../../../server/domain/trace-context.ts';
import type { JobRepository } from '../../../server/ports/storage/jobs.ts';
import type { SqlClient, SqlDb } from './sql-db.ts';
import { scalarText } from './rows.ts';

type Row = Record<string, unknown>;

const COLUMNS = 'id, type, payload, run_at, created_at, relayed_at, completed_at, attempts, last_error, trace_id';
/** Longest stored error text: a stack trace is useful, an unbounded one is not. */
const MAX_ERROR_CHARS = 4000;

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));

function toJob(r: Row): JobRecord {
  const payload = typeof r.payload === 'string' ? (JSON.parse(r.payload) as Record<string, unknown>) : (r.payload as Record<string, unknown>);
  return {
    id: String(r.id),
    type: String(r.type),
    payload,
    runAt: date(r.run_at),
    createdAt: date(r.created_at),
    relayedAt: dateOrNull(r.relayed_at),
    completedAt: dateOrNull(r.completed_at),
    attempts: Number(r.attempts),
    lastError: r.last_error === null || r.last_error === undefined ? null : scalarText(r.last_error),
    traceId: r.trace_id === null || r.trace_id === undefined ? null : scalarText(r.trace_id),
  };
}

/**
 * Writes outbox jobs with a client that may be a transaction: a state change calls this with its
 * own transaction so the change and its jobs commit together. A job id written twice is ignored,
 * so a retried unit of work does not duplicate its jobs. A job without its own `traceId` gets
 * `traceId` (the caller's trace).
 */
export async function insertJobs(tx: SqlClient, jobs: JobToInsert[], traceId: string | undefined): Promise<void> {
  for (const j of jobs) {
    await tx.query(
      `INSERT INTO outbox_jobs (id, type, payload, run_at, created_at, trace_id) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO NOTHING`,
      [j.id, j.type, JSON.stringify(j.payload), j.runAt, j.createdAt, j.traceId !== undefined ? j.traceId : (traceId ?? null)],
    );
  }
}

export interface JobRepositoryOptions {
  /**
   * How long a relay's claim on unrelayed jobs holds before another relay may take them. Long
   * enough to enqueue a batch; a relay that dies holding a claim delays its jobs by this much.
   */
  relayLeaseMs?: number;
}

/**
 * The outbox on PostgreSQL or PGlite. `claimUnrelayed` is one UPDATE whose subquery locks with
 * `FOR UPDATE SKIP LOCKED` and stamps a lease, so relays on several connections or processes get
 * disjoint sets; on single-connection PGlite the same statement is trivially serial.
 */
export function createJobRepository(db: SqlDb, opts: JobRepositoryOptions = {}): JobRepository {
  const leaseMs = opts.relayLeaseMs ?? 30_000;
  if (!Number.isInteger(leaseMs) || leaseMs <= 0) throw new Error('jobs: relayLeaseMs must be a positive integer');
  return {
    insert: (jobs) => insertJobs(db, jobs, currentTraceId()),
    async claimUnrelayed(limit, now) {
      if (!Number.isInteger(limit) || limit <= 0) throw new Error('jobs: claimUnrelayed limit must be a positive integer');
      const { rows } = await db.query<Row>(
        `UPDATE outbox_jobs SET relay_claimed_until = $2
         WHERE id IN (
           SELECT id FROM outbox_jobs
           WHERE relayed_at IS NULL AND completed_at IS NULL AND (relay_claimed_until IS NULL OR relay_claimed_until <= $1)
           ORDER BY created_at, id
           LIMIT $3
           FOR UPDATE SKIP LOCKED)
         RETURNING ${COLUMNS}`,
        [now, new Date(now.getTime() + leaseMs), limit],
      );
      return rows.map(toJob).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
    },
    async markRelayed(ids, at) {
      if (ids.length === 0) return;
      await db.query('UPDATE outbox_jobs SET relayed_at = $2, relay_claimed_until = NULL WHERE id = ANY($1::text[])', [ids, at]);
    },
    async get(id) {
      const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM outbox_jobs WHERE id = $1`, [id]);
      return rows[0] ? toJob(rows[0]) : null;
    },
    async markCompleted(id, at) {
      // A job that ran was handed to the queue: relayed from then on, even when its relay died or
      // timed out between the enqueue and its own mark (no pass claims a completed job again).
      const r = await db.query(
        'UPDATE outbox_jobs SET completed_at = $2, relayed_at = COALESCE(relayed_at, $2), relay_claimed_until = NULL WHERE id = $1 AND completed_at IS NULL',
        [id, at],
      );
      return r.rowCount === 1;
    },
    async recordFailure(id, error) {
      await db.query('UPDATE outbox_jobs SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [id, error.slice(0, MAX_ERROR_CHARS)]);
    },
    async requeueUnfinished() {
      const r = await db.query(
        'UPDATE outbox_jobs SET relayed_at = NULL, relay_claimed_until = NULL WHERE completed_at IS NULL AND (relayed_at IS NOT NULL OR relay_claimed_until IS NOT NULL)',
      );
      return r.rowCount;
    },
    async oldestUnrelayedAt() {
      // The partial index on created_at WHERE relayed_at IS NULL answers this from its first entries.
      const { rows } = await db.query<Row>('SELECT min(created_at) AS oldest FROM outbox_jobs WHERE relayed_at IS NULL AND completed_at IS NULL', [], 'jobs_oldest_unrelayed');
      return dateOrNull(rows[0]?.oldest);
    },
  };
}
