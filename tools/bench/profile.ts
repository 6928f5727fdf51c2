/**
 * `npm run bench -- profile`: where one create and one status request spend the API process's
 * CPU, step by step. The API runs as `npm start` runs it (tools/bench/api-process.ts) with
 * `--cpu-prof` added; autocannon drives it as the main bench does (PROFILE_SECONDS, default 10,
 * 16 connections), one process per endpoint, and the samples taken during the load are
 * summarised per owner (cpu-profile-summary.ts: the innermost project file on the stack, else the
 * library or V8 category), as µs of CPU per request. PROFILE_ROWS (25) rows are printed;
 * PROFILE_KEEP=<dir> keeps the .cpuprofile files there (Chrome DevTools opens them).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { SERVER_V8_FLAGS } from '../../server/v8-flags.ts';
import { startApiProcess } from './api-process.ts';
import { summariseCpuProfile, type CpuProfile } from './cpu-profile-summary.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const rowsShown = Number(process.env.PROFILE_ROWS ?? 25);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function profileOne(kind: 'create' | 'status'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
  const api = await startApiProcess(`profile_${kind}`, 'production', { JOB_WORKERS: 'on' }, [...SERVER_V8_FLAGS, '--cpu-prof', `--cpu-prof-dir=${dir}`]);
  let closed = false;
  try {
    const headers = { 'content-type': 'application/json', 'api-key': api.partnerKey, 'merchant-id': api.merchantId };
    const body = JSON.stringify({ amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'bench-order', expiresAt: null });
    const ids: string[] = [];
    for (let i = 0; i < 500; i++) {
      const r = await api.call('POST', '/v1/payments', JSON.parse(body), { 'Merchant-Id': api.merchantId });
      ids.push(r.body.paymentId!);
    }
    let next = 0;
    const opts: autocannon.Options =
      kind === 'create'
        ? { url: `${api.url}/v1/payments`, method: 'POST', headers, body }
        : { url: api.url, headers, requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: `/v1/payments/${ids[next++ % ids.length]}/status` }) }] };
    // Warm-up (V8 tiering up), not profiled below.
    await autocannon({ ...opts, connections: 16, duration: 3 });
    const fromMs = performance.now() - api.spawnedAt;
    const r = await autocannon({ ...opts, connections: 16, duration: seconds });
    const toMs = performance.now() - api.spawnedAt;
    if (r.non2xx || r.errors) throw new Error(`${kind}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    await api.close();
    closed = true;
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('the API process wrote no CPU profile');
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const rows = summariseCpuProfile(profile, ROOT, { fromMs, toMs });
    const requests = r.requests.total;
    const busy = rows.filter((x) => x.owner !== '(idle)').reduce((a, x) => a + x.ms, 0);
    console.log(
      `\n${kind}: ${requests} requests in ${seconds} s (${Math.round(r.requests.average)}/s), API CPU ${((busy * 1000) / requests).toFixed(0)} µs per request (load average ${load()})`,
    );
    for (const row of rows.slice(0, rowsShown)) {
      const us = ((row.ms * 1000) / requests).toFixed(1).padStart(7);
      const share = row.owner === '(idle)' ? '' : `${((100 * row.ms) / busy).toFixed(1).padStart(5)} %`;
      console.log(`  ${us} µs  ${share.padEnd(7)}  ${row.owner}`);
    }
  } finally {
    if (!closed) await api.close();
    if (process.env.PROFILE_KEEP) cpSync(dir, join(process.env.PROFILE_KEEP, kind), { recursive: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function profileBench(): Promise<void> {
  console.log(`profile: the API as npm start runs it, --cpu-prof, ${seconds} s per endpoint, 16 connections; load average ${load()}`);
  await profileOne('create');
  await profileOne('status');
}
