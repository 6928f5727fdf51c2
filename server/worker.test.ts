import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../adapters/storage/postgres/index.ts';
import { MAINTENANCE_JOB_ID } from './jobs/maintenance.ts';
import { dropSchema, postgresAvailable, postgresUrl, redisAvailable, redisUrl, uniqueSchema } from '../test/helpers/services.ts';

const entry = join(import.meta.dirname, 'worker.ts');
const services = (await postgresAvailable()) && (await redisAvailable());

/** Runs `npm run worker`'s entry with this environment; `until` decides when to send SIGTERM. */
function runWorker(env: Record<string, string>, until?: (stdout: string) => boolean): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base = { ...process.env };
  for (const k of ['REDIS_URL', 'DATABASE_URL']) delete base[k];
  const child = spawn(process.execPath, [entry], { env: { ...base, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (until?.(stdout)) child.kill('SIGTERM');
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('npm run worker', () => {
  it('refuses sandbox mode, whose chains live in the API process', async () => {
    const r = await runWorker({ DATABASE_URL: postgresUrl, REDIS_URL: redisUrl });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sandbox/);
  }, 60_000);

  it('refuses to start without a durable queue, with exit code 2 and a reason', async () => {
    const r = await runWorker({ DATABASE_URL: postgresUrl, SERVICE_MODE: 'production' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/REDIS_URL must be set.*durable queue/s);
  }, 60_000);

  if (services) {
    const schema = uniqueSchema('worker');
    afterAll(() => dropSchema(schema));

    it('starts against PostgreSQL and Redis and stops cleanly on SIGTERM', async () => {
      const storage = await createPostgresStorage({ url: postgresUrl, schema });
      await storage.close();
      const url = `${postgresUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      const r = await runWorker({ DATABASE_URL: url, REDIS_URL: redisUrl, SERVICE_MODE: 'production' }, (out) => out.includes('worker started'));
      expect({ code: r.code, stderr: r.stderr, stopping: r.stdout.includes('worker shutting down') }).toEqual({ code: 0, stderr: '', stopping: true });
      // It scheduled the periodic purges (quotes, idempotency keys): nobody has to.
      const after = await createPostgresStorage({ url: postgresUrl, schema });
      try {
        expect(await after.jobs.get(MAINTENANCE_JOB_ID)).toMatchObject({ type: 'maintenance.purge', completedAt: null });
      } finally {
        await after.close();
      }
    }, 60_000);
  }
});
