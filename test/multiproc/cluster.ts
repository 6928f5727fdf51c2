// A production deployment on this machine for one test file: the standalone sandbox chains (in
// this process), a fresh PostgreSQL database and an empty Redis database of its own, partner and
// wallet keys made by the keys CLI, and API / worker child processes started on demand.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Wallet } from 'ethers';
import { Redis } from 'ioredis';
import pg from 'pg';
import { startSandboxChainsServer, type SandboxChainsServer } from '../../tools/sandbox-chains/server.ts';
import { freePort } from '../helpers/free-port.ts';
import { startService, type ServiceProcess } from '../helpers/processes.ts';
import { postgresUrl, redisUrl } from '../helpers/services.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface Cluster {
  chains: SandboxChainsServer;
  /** The env every API and worker of this cluster starts with. */
  env: Record<string, string>;
  partnerKey: string;
  walletKey: string;
  merchantId: string;
  /** The merchant's EVM settlement address. */
  destination: string;
  api(extra?: Record<string, string>): Promise<ServiceProcess>;
  worker(extra?: Record<string, string>): Promise<ServiceProcess>;
  /** SQL on the cluster's database. */
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

function withPath(url: string, path: string): string {
  const u = new URL(url);
  u.pathname = path;
  return u.toString();
}

/**
 * Claims an empty logical Redis database (1-15) with a marker key set only if absent, so two test
 * files never share BullMQ keys or rate-limit counters; `flushdb` at the end leaves it empty again.
 */
async function claimRedisDb(): Promise<number> {
  for (const db of [...Array(15).keys()].map((i) => i + 1).sort(() => Math.random() - 0.5)) {
    const client = new Redis(withPath(redisUrl, `/${db}`), { maxRetriesPerRequest: 1 });
    try {
      if ((await client.dbsize()) > 0) continue;
      if ((await client.set('test:claimed-by', String(process.pid), 'EX', 3600, 'NX')) === 'OK' && (await client.dbsize()) === 1) return db;
    } finally {
      client.disconnect();
    }
  }
  throw new Error('no empty Redis database (1-15) to claim for this test file');
}

async function onPostgres<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function keysCli(env: Record<string, string>, args: string[]): Record<string, string> {
  const run = spawnSync(process.execPath, ['tools/keys/cli.ts', ...args, '--json'], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`keys ${args.join(' ')} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, string>;
}

export async function startCluster(name: string): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const database = `${name}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`.replace(/[^a-z0-9_]/g, '_');
  const admin = withPath(postgresUrl, '/postgres');
  await onPostgres(admin, (c) => c.query(`CREATE DATABASE ${database}`));
  const redisDb = await claimRedisDb();
  const chains = await startSandboxChainsServer({ port: 0, assetsDir: dir });
  const databaseUrl = withPath(postgresUrl, `/${database}`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const env: Record<string, string> = {
    ...chains.env,
    // One relayer key (the sandbox offers a pool of four): these tests read what it sent by its nonce.
    EVM_RELAYER_KEYS: chains.env.EVM_RELAYER_KEY!,
    DATABASE_URL: databaseUrl,
    REDIS_URL: withPath(redisUrl, `/${redisDb}`),
    JOB_WORKERS: 'off',
    HOST: '127.0.0.1',
    LOGO_CHECKS: 'off',
    // These tests send hundreds of requests at once from one key; the limiter has its own tests.
    RATE_LIMIT_PER_S: '0',
    // A dead worker's job runs again within ~2 locks (BullMQ's default 30 s lock: about a minute).
    QUEUE_LOCK_S: '5',
    DATA_DIR: join(dir, 'data'),
  };
  const close = async () => {
    await pool.end().catch(() => {});
    await chains.close().catch(() => {});
    const redis = new Redis(env.REDIS_URL!, { maxRetriesPerRequest: 1 });
    await redis.flushdb().catch(() => {});
    redis.disconnect();
    await onPostgres(admin, (c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const partner = keysCli(env, ['create-partner', '--name', 'Multi-process shop']);
    const walletKey = keysCli(env, ['create-key', '--partner', partner.partnerId!, '--scope', 'wallet']).apiKey!;
    const partnerKey = partner.apiKey!;
    const api = async (extra: Record<string, string> = {}) => startService('api', { ...env, PORT: String(await freePort()), ...extra });
    const first = await api();
    const call = async (path: string, body: unknown, headers: Record<string, string>) => {
      const res = await fetch(`${first.url}${path}`, {
        method: 'POST',
        headers: { 'Api-Key': partnerKey, 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const m = await call('/v1/merchants', { merchantName: 'Multi Shop', merchantEmail: 'shop@multi.test' }, { 'Idempotency-Key': `m-${Math.random()}` });
    if (m.status !== 201) throw new Error(`merchant: ${JSON.stringify(m.body)}`);
    const merchantId = m.body.merchant.id as string;
    const destination = Wallet.createRandom().address;
    const evmAssets = chains.chains.assetConfigs().filter((a) => a.id.startsWith('eip155'));
    const settlements = evmAssets.map((a) => ({ asset: a.id, destination: `${a.id.split('/')[0]}:${destination}` }));
    const s = await call(`/v1/merchants/${merchantId}/settlements/crypto`, { settlements }, { 'Idempotency-Key': `s-${Math.random()}` });
    if (s.status !== 201) throw new Error(`settlements: ${JSON.stringify(s.body)}`);
    await first.stop('SIGTERM');
    return {
      chains,
      env,
      partnerKey,
      walletKey,
      merchantId,
      destination,
      api,
      worker: (extra = {}) => startService('worker', { ...env, ...extra }),
      query: async (sql, params) => (await pool.query(sql, params)).rows,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
