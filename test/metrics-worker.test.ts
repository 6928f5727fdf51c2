import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExposition } from '../adapters/metrics/conformance/exposition.ts';
import { createPostgresStorage } from '../adapters/storage/postgres/index.ts';
import { freePort } from './helpers/free-port.ts';
import { deleteKeysWithPrefix } from './helpers/redis-cleanup.ts';
import { dropSchema, postgresAvailable, postgresUrl, redisAvailable, redisUrl, requireServices, uniqueSchema } from './helpers/services.ts';

const entry = join(import.meta.dirname, '../server/worker.ts');
const services = (await postgresAvailable()) && (await redisAvailable());
if (requireServices && !services) throw new Error('REQUIRE_SERVICES=1 but PostgreSQL or Redis is not reachable');
const TOKEN = 'worker-metrics-token-0123456789';
const ownRedis = `${redisUrl.replace(/\/\d*$/, '')}/13`;

/**
 * `npm run worker` with METRICS_PORT serves its own /metrics (a worker has no API port). Its
 * Redis is a database of its own (index 13), so its queue never takes another suite's jobs.
 */
describe.runIf(services)('worker metrics on METRICS_PORT', () => {
  const schema = uniqueSchema('wmetrics');
  afterAll(async () => {
    await dropSchema(schema);
    await deleteKeysWithPrefix(ownRedis, 'bull:payments-jobs');
  });

  it('serves /metrics to the token holder only, and stops with the worker', async () => {
    await (await createPostgresStorage({ url: postgresUrl, schema })).close();
    const port = await freePort();
    const base = { ...process.env };
    for (const k of ['REDIS_URL', 'DATABASE_URL', 'METRICS_PORT', 'METRICS_TOKEN']) delete base[k];
    const child = spawn(process.execPath, [entry], {
      env: {
        ...base,
        LOG_LEVEL: 'info',
        SERVICE_MODE: 'production',
        HOST: '127.0.0.1',
        DATABASE_URL: `${postgresUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
        REDIS_URL: ownRedis,
        METRICS_PORT: String(port),
        METRICS_TOKEN: TOKEN,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
    try {
      for (let i = 0; i < 400 && !stdout.includes('worker started'); i++) {
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect({ started: stdout.includes('worker started'), stderr }).toEqual({ started: true, stderr: '' });
      const url = `http://127.0.0.1:${port}`;
      const ok = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      const samples = parseExposition(await ok.text());
      const names = new Set(samples.map((s) => s.name));
      for (const name of ['jobs_outbox_lag_seconds', 'db_client_connection_count', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds']) expect(names).toContain(name);

      const none = await fetch(`${url}/metrics`);
      expect({ status: none.status, body: await none.json() }).toEqual({ status: 401, body: { code: 'missing_api_key', message: expect.any(String) } });
      const wrong = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}-` } });
      expect({ status: wrong.status, code: ((await wrong.json()) as { code: string }).code }).toEqual({ status: 401, code: 'invalid_api_key' });
      const other = await fetch(`${url}/v1/payments`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect({ status: other.status, code: ((await other.json()) as { code: string }).code }).toEqual({ status: 404, code: 'not_found' });
      const post = await fetch(`${url}/metrics`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(post.status).toBe(405);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await expect(fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).rejects.toThrow();
    } finally {
      clearTimeout(kill);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 90_000);
});
