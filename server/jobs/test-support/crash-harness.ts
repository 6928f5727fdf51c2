import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { SqlClient } from '../../../adapters/storage/postgres/sql-db.ts';
import type { JobHandler } from '../../ports/queue.ts';

/**
 * Runs outbox-child.ts until it prints `ready`, then SIGKILLs it: no shutdown hook, no flush, the
 * way a crashed process ends. Answers once the process is gone.
 */
export async function runChildAndKill(env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'outbox-child.ts')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((res) => child.on('exit', (code, signal) => res(signal ?? code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child never became ready; stderr: ${err}`)), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${String(code)}) before ready; stderr: ${err}`));
    });
  });
  child.kill('SIGKILL');
  const how = await exited;
  if (how !== 'SIGKILL') throw new Error(`child ended by ${String(how)}, not SIGKILL`);
}

/** Tables the effect handler writes: one row per execution, and the effect itself, once by key. */
export async function createEffectTables(db: SqlClient): Promise<void> {
  await db.exec(`CREATE TABLE IF NOT EXISTS crash_runs (n serial PRIMARY KEY, job_id text NOT NULL);
    CREATE TABLE IF NOT EXISTS crash_effects (job_id text PRIMARY KEY, marker text NOT NULL)`);
}

/** An idempotent handler (ON CONFLICT DO NOTHING) that also counts every execution. */
export function effectHandler(db: SqlClient): JobHandler {
  return async (job) => {
    await db.query('INSERT INTO crash_runs (job_id) VALUES ($1)', [job.id]);
    await db.query('INSERT INTO crash_effects (job_id, marker) VALUES ($1, $2) ON CONFLICT DO NOTHING', [job.id, String(job.payload.marker)]);
  };
}

export async function countRuns(db: SqlClient, jobId: string): Promise<{ runs: number; effects: number }> {
  const runs = await db.query<{ c: number }>('SELECT count(*)::int AS c FROM crash_runs WHERE job_id = $1', [jobId]);
  const effects = await db.query<{ c: number }>('SELECT count(*)::int AS c FROM crash_effects WHERE job_id = $1', [jobId]);
  return { runs: Number(runs.rows[0]?.c), effects: Number(effects.rows[0]?.c) };
}
