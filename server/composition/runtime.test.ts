import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { loadConfig } from '../config.ts';
import { dropSchema, postgresAvailable, postgresUrl, redisAvailable, redisUrl, uniqueSchema } from '../../test/helpers/services.ts';
import { openRuntime, type Runtime } from './runtime.ts';

const services = (await postgresAvailable()) && (await redisAvailable());
const dirs: string[] = [];
const schemas: string[] = [];
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  for (const s of schemas) await dropSchema(s);
});

function embeddedEnv(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'runtime-'));
  dirs.push(dir);
  return { SERVICE_MODE: 'production', DATA_DIR: dir, PORT: '4999', LOGO_CHECKS: 'off' };
}

/** A schema of its own on the test server, created so the runtime finds its tables there. */
async function serverEnv(): Promise<Record<string, string>> {
  const schema = uniqueSchema('runtime');
  schemas.push(schema);
  await (await createPostgresStorage({ url: postgresUrl, schema })).close();
  return {
    SERVICE_MODE: 'production',
    PORT: '4999',
    LOGO_CHECKS: 'off',
    DATABASE_URL: `${postgresUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    REDIS_URL: redisUrl,
  };
}

/** Chains that open nothing but record their close. */
function fakeChains() {
  const close = vi.fn(async () => {});
  return { close, open: async () => ({ assets: [], ports: [], close }) };
}

/** Wraps each closable the runtime holds so the order of the closes is recorded. */
function recordCloses(r: Runtime): string[] {
  const order: string[] = [];
  const watch = (name: string, target: { close(): Promise<void> } | { stop(): Promise<void> } | undefined) => {
    if (!target) return;
    const key = 'close' in target ? 'close' : 'stop';
    const original = (target as Record<string, () => Promise<void>>)[key]!.bind(target);
    (target as Record<string, () => Promise<void>>)[key] = async () => {
      order.push(name);
      await original();
    };
  };
  watch('webhooks', r.webhooks);
  watch('jobs', r.jobs);
  watch('queue', r.queue);
  watch('rateLimiter', r.api?.rateLimiter);
  watch('unauthenticatedLimiter', r.api?.unauthenticatedLimiter);
  watch('paymentChanges', r.api?.paymentChanges);
  watch('storage', r.storage);
  watch('chains', r.chains);
  return order;
}

const logger = pino({ level: 'silent' });

describe('openRuntime', () => {
  it('builds the API process on embedded storage and the inline queue, and close() closes everything once, in order', async () => {
    const chains = fakeChains();
    const r = await openRuntime(loadConfig(embeddedEnv()), { role: 'api', logger, print: () => {}, openChains: chains.open });
    expect(r.api?.app).toBeTypeOf('function');
    expect(r.queue.durable).toBe(false);
    const order = recordCloses(r);
    await r.close();
    await r.close();
    expect(order).toEqual(['paymentChanges', 'webhooks', 'jobs', 'queue', 'rateLimiter', 'unauthenticatedLimiter', 'storage', 'chains']);
    expect(chains.close).toHaveBeenCalledTimes(1);
    await expect(r.storage.ping()).rejects.toThrow();
  }, 60_000);

  it('closes what it opened when a later step fails', async () => {
    const chains = fakeChains();
    const failing = async () => ({
      assets: [{ id: 'not-an-asset', symbol: 'X', name: 'X', decimals: 6, flows: ['transfer' as const], networkName: 'X' }],
      ports: [],
      close: chains.close,
    });
    await expect(openRuntime(loadConfig(embeddedEnv()), { role: 'api', logger, print: () => {}, openChains: failing })).rejects.toThrow(/CAIP-19/);
    expect(chains.close).toHaveBeenCalledTimes(1);
  }, 60_000);

  if (services) {
    it('builds the worker with the API process’s job handlers and webhook settings, and closes its chains and storage', async () => {
      // Webhook settings from the environment reach the delivery job of both processes.
      const env = { ...(await serverEnv()), WEBHOOK_ALLOW_LOOPBACK: 'on', WEBHOOK_RETRY_SCHEDULE_S: '0,2,5' };
      const apiChains = fakeChains();
      const workerChains = fakeChains();
      const api = await openRuntime(loadConfig(env), { role: 'api', logger, print: () => {}, openChains: apiChains.open });
      const worker = await openRuntime(loadConfig(env), { role: 'worker', logger, openChains: workerChains.open });
      try {
        expect(worker.api).toBeUndefined();
        expect(worker.queue.durable).toBe(true);
        expect(Object.keys(worker.jobHandlers).sort()).toEqual(Object.keys(api.jobHandlers).sort());
        const settings = (r: Runtime) => {
          const { fetch: _fetch, ...delivery } = r.webhookSettings.delivery;
          const { lookup: _lookup, addresses: _addresses, ...endpoints } = r.webhookSettings.endpoints;
          return { delivery, endpoints };
        };
        expect(settings(worker)).toEqual(settings(api));
        expect(settings(worker)).toEqual({
          delivery: { allowLoopbackEndpoints: true, ownPort: 4999, schedule: [0, 2000, 5000], maxInFlightPerPartner: 16 },
          endpoints: { allowLoopback: true, ownPort: 4999 },
        });
      } finally {
        const order = recordCloses(worker);
        await worker.close();
        await api.close();
        expect(order).toEqual(['webhooks', 'jobs', 'queue', 'storage', 'chains']);
      }
      expect(workerChains.close).toHaveBeenCalledTimes(1);
      expect(apiChains.close).toHaveBeenCalledTimes(1);
      await expect(worker.storage.ping()).rejects.toThrow();
    }, 60_000);
  }
});

/** Runs the open-close script; resolves when the process ends by itself, or reports it hung. */
function openAndClose(role: 'api' | 'worker', env: Record<string, string>): Promise<{ code: number | null; hung: boolean; stdout: string; stderr: string }> {
  const base = { ...process.env };
  for (const k of ['REDIS_URL', 'DATABASE_URL', 'ASSETS_FILE', 'FX_RATES']) delete base[k];
  const child = spawn(process.execPath, [join(import.meta.dirname, 'test-support/open-close.ts'), role], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let hung = false;
  const kill = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, 45_000);
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(kill);
      resolve({ code, hung, stdout, stderr });
    }),
  );
}

describe('a process that opens and closes the runtime', () => {
  it('ends by itself (no handle left open) in the embedded API', async () => {
    const r = await openAndClose('api', embeddedEnv());
    expect({ code: r.code, hung: r.hung, stderr: r.stderr }).toEqual({ code: 0, hung: false, stderr: '' });
  }, 60_000);

  if (services) {
    it('ends by itself for the API and the worker on PostgreSQL and Redis, both with the same job types and webhook settings', async () => {
      const env = await serverEnv();
      const [api, worker] = [await openAndClose('api', env), await openAndClose('worker', env)];
      for (const r of [api, worker]) expect({ code: r.code, hung: r.hung, stderr: r.stderr }).toEqual({ code: 0, hung: false, stderr: '' });
      const built = (r: { stdout: string }) => {
        const { role: _role, ...rest } = JSON.parse(r.stdout) as Record<string, unknown>;
        return rest;
      };
      expect(built(worker)).toEqual(built(api));
      expect(built(api)).toMatchObject({ jobTypes: expect.arrayContaining(['payment.advance', 'payment.expire', 'webhook.deliver']) });
    }, 120_000);
  }
});
