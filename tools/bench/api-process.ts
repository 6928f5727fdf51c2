// Long because: the one harness every process bench starts the shipped service through (its databases, keys, chains, workers and readiness probes).
/**
 * One API process (`node server/main.ts`) as the long-poll and memory benches measure it: its own
 * PostgreSQL database and Redis database, partner and wallet keys from the keys CLI, a merchant
 * with EVM settlements. Production mode runs on the standalone sandbox chains (in the bench's
 * process, over JSON-RPC); sandbox mode has the chains inside the API process.
 */
import { SERVER_V8_FLAGS } from '../../server/v8-flags.ts';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { sandboxAddresses } from '../../adapters/sandbox/evm/index.ts';
import { startSandboxChainsServer, type SandboxChainsServer } from '../sandbox-chains/server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const execFileAsync = promisify(execFile);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The fields of an answer the benches read. */
export interface ApiBody {
  paymentId?: string;
  merchant?: { id: string };
  status?: string;
}

export interface ApiProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** This process's `performance.now()` when the API process was spawned (a CPU profile's time 0, near enough). */
  spawnedAt: number;
  databaseUrl: string;
  database: string;
  partnerKey: string;
  /** The bench partner's id (the keys CLI's answer), for benches that seed rows of their own. */
  partnerId: string;
  walletKey: string;
  merchantId: string;
  /** The standalone sandbox chains' base URL (faucet, `GET /sandbox`); null in sandbox mode. */
  chainsUrl: string | null;
  /**
   * Starts a worker (`node server/worker.ts`) on the same database, Redis and chains, with the
   * flags `npm run worker` passes, and waits until it runs; production mode only. `close` stops it.
   */
  startWorker(): Promise<{ close(): Promise<void>; warnings(): string; /** Its Prometheus text (METRICS_PORT). */ metrics(): Promise<string> }>;
  /** A POST/GET with the partner key and the merchant, answering status and JSON body. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: ApiBody }>;
  /** Another partner (the keys CLI, as an operator makes one): its partner API key. */
  newPartner(name: string): Promise<string>;
  /** The API process's Prometheus text at /metrics (read with the METRICS_TOKEN the bench sets). */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

function withPath(url: string, path: string): string {
  const u = new URL(url);
  u.pathname = path;
  return u.toString();
}

/**
 * Resident and peak resident memory of a process, in MB, from /proc (Linux); `fileMb`: the part of
 * the resident memory that maps files (the node binary and shared libraries, shared with every
 * other process running them).
 */
export function memoryOf(pid: number): { rssMb: number; hwmMb: number; fileMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024, fileMb: kb('RssFile') / 1024 };
}

/**
 * CPU time a process has used so far (user + system, all its threads), in ms, from /proc (Linux):
 * unlike throughput, the CPU spent per request hardly moves with what else the machine runs.
 */
export function cpuMsOf(pid: number): number {
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticksPerS = 100; // USER_HZ: 100 on every Linux architecture Node supports
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerS;
}

/**
 * What the database has done so far: transactions committed or rolled back on it (a statement
 * outside a transaction is one), and reads of the payments table (index and sequential scans).
 * Asked over a connection to another database, so asking adds nothing to either count.
 */
export async function databaseCounters(database: string): Promise<{ transactions: number; paymentReads: number }> {
  return onAdmin(async (c) => {
    // Backends report their counts when a transaction ends (at most about once a second when busy).
    await c.query('SELECT pg_stat_clear_snapshot()');
    const r = await c.query<{ n: string }>('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [database]);
    const t = new pg.Client({ connectionString: withPath(postgresUrl, `/${database}`) });
    await t.connect();
    try {
      const reads = await t.query<{ n: string }>("SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS n FROM pg_stat_user_tables WHERE relname = 'payments'");
      return { transactions: Number(r.rows[0]!.n), paymentReads: Number(reads.rows[0]!.n) };
    } finally {
      await t.end();
    }
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** An empty logical Redis database (1-15), claimed with a marker key so parallel runs never share one. */
async function claimRedisDb(): Promise<number> {
  for (const db of [...Array(15).keys()].map((i) => i + 1).sort(() => Math.random() - 0.5)) {
    const client = new Redis(withPath(redisUrl, `/${db}`), { maxRetriesPerRequest: 1 });
    try {
      if ((await client.dbsize()) > 0) continue;
      if ((await client.set('bench:claimed-by', String(process.pid), 'EX', 3600, 'NX')) === 'OK' && (await client.dbsize()) === 1) return db;
    } finally {
      client.disconnect();
    }
  }
  throw new Error('no empty Redis database (1-15) to claim for the bench');
}

async function onAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: withPath(postgresUrl, '/postgres') });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function keysCli(env: Record<string, string>, args: string[]): Record<string, string> {
  const run = spawnSync(process.execPath, ['tools/keys/cli.ts', ...args, '--json'], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`keys ${args.join(' ')} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, string>;
}

/**
 * The keys CLI without blocking this process: a spawnSync of seconds stalls the event loop, and
 * a keep-alive socket the API closed meanwhile is then reused as if alive ("other side closed").
 */
async function keysCliAsync(env: Record<string, string>, args: string[]): Promise<Record<string, string>> {
  const { stdout } = await execFileAsync(process.execPath, ['tools/keys/cli.ts', ...args, '--json'], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, string>;
}

/** SIGTERM, then SIGKILL after 15 s; resolves once the process has exited. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Waits for a node service's start line (its pino `msg`), or for `probe` to answer true (polled:
 * with LOG_LEVEL=warn there is no start line); fails with its warnings and errors when it exits or
 * takes over 180 s (a loaded machine starts slowly). Answers a reader of the warnings and errors
 * logged so far.
 */
async function untilStarted(child: ChildProcess, what: string, startLine: string, probe?: () => Promise<boolean>): Promise<() => string> {
  let logs = '';
  child.stderr!.on('data', (b: Buffer) => (logs += b.toString()));
  await new Promise<void>((ready, fail) => {
    let started = false;
    const done = () => {
      started = true;
      clearTimeout(timer);
      ready();
    };
    const timer = setTimeout(() => fail(new Error(`${what} did not start in 180 s:\n${logs}`)), 180_000);
    const poll = async () => {
      while (probe && !started && child.exitCode === null) {
        if (await probe().catch(() => false)) return done();
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    void poll();
    child.stdout!.on('data', (b: Buffer) => {
      const text = b.toString();
      if (text.includes(startLine)) done();
      // Only warnings and errors are kept (pino info lines are the start-up's): the run's own noise.
      for (const line of text.split('\n')) if (/"level":(40|50|60)/.test(line)) logs += `${line}\n`;
    });
    child.once('exit', (code) => fail(new Error(`${what} exited with ${code}:\n${logs}`)));
  });
  return () => logs;
}

/** Starts the API in `mode` and waits until it listens; `close` stops it and removes everything it made. */
/** `nodeFlags`: what node runs server/main.ts with; by default the flags `npm start` passes. */
export async function startApiProcess(
  name: string,
  mode: 'production' | 'sandbox',
  extraEnv: Record<string, string> = {},
  nodeFlags: readonly string[] = SERVER_V8_FLAGS,
): Promise<ApiProcess> {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const database = `bench_${name}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`.replace(/[^a-z0-9_]/g, '_');
  const databaseUrl = withPath(postgresUrl, `/${database}`);
  await onAdmin((c) => c.query(`CREATE DATABASE ${database}`));
  const redisDb = await claimRedisDb();
  const metricsToken = `bench-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
  let chains: SandboxChainsServer | null = null;
  let child: ChildProcess | null = null;
  const workers: ChildProcess[] = [];
  const close = async () => {
    await Promise.all(workers.map(stop));
    if (child) await stop(child);
    await chains?.close().catch(() => {});
    const redis = new Redis(withPath(redisUrl, `/${redisDb}`), { maxRetriesPerRequest: 1 });
    await redis.flushdb().catch(() => {});
    redis.disconnect();
    await onAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (mode === 'production') chains = await startSandboxChainsServer({ port: 0, assetsDir: dir });
    const port = await freePort();
    const env: Record<string, string> = {
      ...(chains ? { ...chains.env, JOB_WORKERS: 'off' } : { SERVICE_MODE: 'sandbox' }),
      DATABASE_URL: databaseUrl,
      REDIS_URL: withPath(redisUrl, `/${redisDb}`),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOGO_CHECKS: 'off',
      // The limiter is on every request's path as shipped (shared in Redis), so the benches measure
      // it too: set through its own variables far above any load a bench makes, it counts every
      // request and refuses none (RATE_LIMIT_PER_S=0 would take it off the path).
      RATE_LIMIT_PER_S: '1000000',
      RATE_LIMIT_BURST: '10000000',
      DATA_DIR: join(dir, 'data'),
      // What the benches measure the service with (issue 33): warnings and errors only.
      LOG_LEVEL: 'warn',
      METRICS_TOKEN: metricsToken,
      ...extraEnv,
    };
    const partner = keysCli(env, ['create-partner', '--name', 'Bench shop']);
    const walletKey = keysCli(env, ['create-key', '--partner', partner.partnerId!, '--scope', 'wallet']).apiKey!;
    const { DATABASE_URL: _d, REDIS_URL: _r, JOB_WORKERS: _j, ...inherited } = process.env;
    const spawnedAt = performance.now();
    child = spawn(process.execPath, [...nodeFlags, 'server/main.ts'], { cwd: ROOT, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const answers =
      (url: string, headers: Record<string, string> = {}) =>
      async () =>
        (await fetch(url, { headers })).status === 200;
    await untilStarted(child, 'API', '"msg":"listening"', answers(`http://127.0.0.1:${port}/healthz`));
    const startWorker = async () => {
      if (!chains) throw new Error('startWorker: production mode only (sandbox mode runs its jobs in the API)');
      // Its metrics server starts once it runs: what says so when LOG_LEVEL hides the start line.
      const metricsPort = await freePort();
      const workerEnv = { ...inherited, ...env, METRICS_PORT: String(metricsPort) };
      const worker = spawn(process.execPath, [...SERVER_V8_FLAGS, 'server/worker.ts'], { cwd: ROOT, env: workerEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      workers.push(worker);
      const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      const warnings = await untilStarted(worker, 'worker', '"msg":"worker started"', answers(metricsUrl, { Authorization: `Bearer ${metricsToken}` }));
      const metrics = async () => (await fetch(metricsUrl, { headers: { Authorization: `Bearer ${metricsToken}` } })).text();
      return { close: () => stop(worker), warnings, metrics };
    };
    const url = `http://127.0.0.1:${port}`;
    const call: ApiProcess['call'] = async (method, path, body, headers = {}) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { 'Api-Key': partner.apiKey!, 'Content-Type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as ApiBody };
    };
    const m = await call('POST', '/v1/merchants', { merchantName: 'Bench Shop', merchantEmail: 'shop@bench.test' }, { 'Idempotency-Key': `m-${Math.random()}` });
    if (m.status !== 201) throw new Error(`merchant: ${JSON.stringify(m.body)}`);
    const merchantId = m.body.merchant!.id;
    // Both modes' EVM chain is the sandbox's, at the same addresses.
    const asset = `eip155:31337/erc20:${sandboxAddresses().usdc}`;
    const s = await call(
      'POST',
      `/v1/merchants/${merchantId}/settlements/crypto`,
      { settlements: [{ asset, destination: `${asset.split('/')[0]}:0x1234567890abcdef1234567890abcdef12345678` }] },
      { 'Idempotency-Key': `s-${Math.random()}` },
    );
    if (s.status !== 201) throw new Error(`settlements: ${JSON.stringify(s.body)}`);
    return {
      url,
      pid: child.pid!,
      child,
      spawnedAt,
      databaseUrl,
      database,
      partnerKey: partner.apiKey!,
      partnerId: partner.partnerId!,
      walletKey,
      merchantId,
      chainsUrl: chains?.baseUrl ?? null,
      startWorker,
      call,
      newPartner: async (partnerName) => (await keysCliAsync(env, ['create-partner', '--name', partnerName])).apiKey!,
      metrics: async () => {
        const res = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${env.METRICS_TOKEN}` } });
        if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
        return res.text();
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
