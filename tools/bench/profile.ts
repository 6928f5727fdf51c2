/**
 * `npm run bench -- profile`: where one create and one status request spend the API process's
 * CPU, step by step, against the bare baseline's CPU per request profiled the same way. The API runs as `npm start` runs it (tools/bench/api-process.ts) with
 * `--cpu-prof` added; autocannon drives it as the main bench does (PROFILE_SECONDS, default 10,
 * 16 connections), one process per endpoint, and the samples taken during the load are
 * summarised per owner (cpu-profile-summary.ts: the innermost project file on the stack, else the
 * library or V8 category), as µs of CPU per request. PROFILE_ROWS (25) rows are printed;
 * PROFILE_KEEP=<dir> keeps the .cpuprofile files there (Chrome DevTools opens them).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { SERVER_V8_FLAGS } from '../../server/v8-flags.ts';
import { startApiProcess } from './api-process.ts';
import { summariseCpuProfile, type CpuProfile } from './cpu-profile-summary.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const rowsShown = Number(process.env.PROFILE_ROWS ?? 25);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const createBody = JSON.stringify({ amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'bench-order', expiresAt: null });

/** A process under --cpu-prof being driven: where it listens and how to stop it (which writes the profile). */
interface Profiled {
  origin: string;
  headers: Record<string, string>;
  spawnedAt: number;
  stop(): Promise<void>;
}

/**
 * Drives `kind` at `target` (3 s of warm-up, then PROFILE_SECONDS), stops it and prints the
 * profile's samples of the measured part per owner; answers the CPU per request in µs.
 */
async function driveAndSummarise(title: string, target: Profiled, dir: string, kind: 'create' | 'status', ids: string[], rows: number): Promise<number> {
  let next = 0;
  const opts: autocannon.Options =
    kind === 'create'
      ? { url: `${target.origin}/v1/payments`, method: 'POST', headers: target.headers, body: createBody }
      : {
          url: target.origin,
          headers: target.headers,
          requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: `/v1/payments/${ids[next++ % ids.length]}/status` }) }],
        };
  await autocannon({ ...opts, connections: 16, duration: 3 });
  const fromMs = performance.now() - target.spawnedAt;
  const r = await autocannon({ ...opts, connections: 16, duration: seconds });
  const toMs = performance.now() - target.spawnedAt;
  if (r.non2xx || r.errors) throw new Error(`${title}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  await target.stop();
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`${title}: no CPU profile written`);
  const summary = summariseCpuProfile(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, ROOT, { fromMs, toMs });
  const requests = r.requests.total;
  const busy = summary.filter((x) => x.owner !== '(idle)').reduce((a, x) => a + x.ms, 0);
  const perRequest = (busy * 1000) / requests;
  console.log(`\n${title}: ${requests} requests in ${seconds} s (${Math.round(r.requests.average)}/s), CPU ${perRequest.toFixed(0)} µs per request (load average ${load()})`);
  for (const row of summary.slice(0, rows)) {
    const us = ((row.ms * 1000) / requests).toFixed(1).padStart(7);
    const share = row.owner === '(idle)' ? '' : `${((100 * row.ms) / busy).toFixed(1).padStart(5)} %`;
    console.log(`  ${us} µs  ${share.padEnd(7)}  ${row.owner}`);
  }
  return perRequest;
}

/** The service as `npm start` runs it, with --cpu-prof added. */
async function profileService(kind: 'create' | 'status'): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
  const api = await startApiProcess(`profile_${kind}`, 'production', { JOB_WORKERS: 'on' }, [...SERVER_V8_FLAGS, '--cpu-prof', `--cpu-prof-dir=${dir}`]);
  try {
    const ids: string[] = [];
    for (let i = 0; i < 500; i++) ids.push((await api.call('POST', '/v1/payments', JSON.parse(createBody), { 'Merchant-Id': api.merchantId })).body.paymentId!);
    const headers = { 'content-type': 'application/json', 'api-key': api.partnerKey, 'merchant-id': api.merchantId };
    return await driveAndSummarise(`service ${kind}`, { origin: api.url, headers, spawnedAt: api.spawnedAt, stop: () => api.close() }, dir, kind, ids, rowsShown);
  } finally {
    await api.close();
    if (process.env.PROFILE_KEEP) cpSync(dir, join(process.env.PROFILE_KEEP, kind), { recursive: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bare baseline (tools/bench/baseline-server.ts, node's defaults) with --cpu-prof. */
async function profileBaseline(kind: 'create' | 'status'): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-profile-base-'));
  const schema = `bench_profile_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, join(import.meta.dirname, 'baseline-server.ts'), databaseUrl, schema], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const m = /^ready (\d+)/.exec(line);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`baseline exited with ${code}`)));
    });
    const origin = `http://127.0.0.1:${port}`;
    const headers = { 'content-type': 'application/json', 'merchant-id': 'mrch_profile' };
    const ids: string[] = [];
    for (let i = 0; i < 500; i++) {
      const res = await fetch(`${origin}/v1/payments`, { method: 'POST', headers, body: createBody });
      ids.push(((await res.json()) as { paymentId: string }).paymentId);
    }
    const stop = async () => {
      child.kill('SIGTERM');
      await exited;
    };
    return await driveAndSummarise(`baseline ${kind}`, { origin, headers, spawnedAt, stop }, dir, kind, ids, 6);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function profileBench(): Promise<void> {
  console.log(`profile: the API as npm start runs it and the bare baseline, --cpu-prof, ${seconds} s per endpoint, 16 connections; load average ${load()}`);
  const ratios: string[] = [];
  for (const kind of ['create', 'status'] as const) {
    const service = await profileService(kind);
    const baseline = await profileBaseline(kind);
    ratios.push(
      `  ${kind}: service ${service.toFixed(0)} µs, baseline ${baseline.toFixed(0)} µs of CPU per request: ${(baseline / service).toFixed(2)} of the baseline's requests per CPU second (issue 33's goal for ${kind} throughput: ≥ 1.00 of the baseline's)`,
    );
  }
  console.log(`\nCPU per request (less moved by the machine's load than throughput):\n${ratios.join('\n')}`);
}
