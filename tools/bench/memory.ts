/**
 * `npm run bench -- memory`: the resident memory (VmRSS from /proc) of one API process idle and at
 * its peak under create/status load (autocannon: MEMORY_LOAD_S seconds of POST /v1/payments, then
 * half as long of GET status across 200 payments, MEMORY_CONNECTIONS connections), on PostgreSQL.
 * Processes in turn: production mode (chains over JSON-RPC on the standalone sandbox chains) as
 * `npm start` runs it (server/v8-flags.ts: the young generation capped, the old generation growing
 * to 1.75× its live size between full collections), the same with the earlier 16 MB semi-spaces,
 * with V8's defaults (Node 24 sizes the young generation from the machine's memory), and sandbox
 * mode (chains inside the process), whose
 * idle difference with production is what the in-process chains cost. Throughput under each is
 * printed as a ratio against the first, so a memory saving that costs speed shows.
 *
 * Where the memory is: each process runs with tools/bench/memory-probe.ts, which reports
 * `process.memoryUsage()` and V8's committed spaces at idle and at the reading with the highest RSS.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { SERVER_V8_FLAGS } from '../../server/v8-flags.ts';
import { cpuMsOf, memoryOf, startApiProcess } from './api-process.ts';
import type { GcTotals, MemoryReading } from './memory-probe.ts';

const seconds = Number(process.env.MEMORY_LOAD_S ?? 10);
const connections = Number(process.env.MEMORY_CONNECTIONS ?? 16);
// How long after the load RSS is read again: whether the process gives the peak back (issue 33:
// "after a million creates its RSS returns near idle").
const settleSeconds = Number(process.env.MEMORY_SETTLE_S ?? 20);
const GOAL_MB = 256;
const PROBE = resolve(import.meta.dirname, 'memory-probe.ts');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Variant {
  title: string;
  mode: 'production' | 'sandbox';
  nodeFlags: readonly string[];
  env?: Record<string, string>;
}

interface Measured {
  title: string;
  mode: Variant['mode'];
  idleMb: number;
  peakMb: number;
  /** RSS `settleSeconds` after the load ended, the process left alone. */
  afterMb: number;
  fileMb: number;
  idle: MemoryReading;
  peak: MemoryReading;
  /** Collections during the load (the probe's totals after it less those at idle). */
  gc: GcTotals;
  /** CPU the API process used per 1,000 requests under the load (creates and status together). */
  cpuMsPerK: number;
  creates: number;
  createRps: number;
  statusRps: number;
}

function readProbe(file: string): { last: MemoryReading; peak: MemoryReading; gc: GcTotals } {
  return JSON.parse(readFileSync(file, 'utf8')) as { last: MemoryReading; peak: MemoryReading; gc: GcTotals };
}

async function measure({ title, mode, nodeFlags, env = {} }: Variant): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-memory-probe-'));
  const probeFile = join(dir, 'probe.json');
  const api = await startApiProcess('memory', mode, { ...env, MEMORY_PROBE_FILE: probeFile }, [...nodeFlags, '--import', PROBE]);
  try {
    const headers = { 'content-type': 'application/json', 'api-key': api.partnerKey, 'merchant-id': api.merchantId };
    const createBody = { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'bench-memory', expiresAt: null };
    // Settled after start (lazy caches, the first GCs): the figure a deployment sits at.
    await sleep(3_000);
    const idleMem = memoryOf(api.pid);
    const { last: idle, gc: gcAtIdle } = readProbe(probeFile);
    let peakMb = idleMem.rssMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, memoryOf(api.pid).rssMb)), 100);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 200; i++) ids.push((await api.call('POST', '/v1/payments', createBody, { 'Merchant-Id': api.merchantId })).body.paymentId!);
      const cpuBefore = cpuMsOf(api.pid);
      const create = await autocannon({ url: `${api.url}/v1/payments`, method: 'POST', headers, body: JSON.stringify(createBody), connections, duration: seconds });
      let next = 0;
      const status = await autocannon({
        url: api.url,
        headers,
        connections,
        duration: Math.max(1, Math.round(seconds / 2)),
        requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: `/v1/payments/${ids[next++ % ids.length]}/status` }) }],
      });
      const cpuMsPerK = ((cpuMsOf(api.pid) - cpuBefore) / (create.requests.total + status.requests.total)) * 1000;
      if (create.non2xx || create.errors || status.non2xx || status.errors) throw new Error(`${title}: failed requests under load`);
      await sleep(300);
      peakMb = Math.max(peakMb, memoryOf(api.pid).hwmMb);
      const { peak, gc: gcAfter } = readProbe(probeFile);
      const gc = {
        major: gcAfter.major - gcAtIdle.major,
        majorMs: gcAfter.majorMs - gcAtIdle.majorMs,
        minor: gcAfter.minor - gcAtIdle.minor,
        minorMs: gcAfter.minorMs - gcAtIdle.minorMs,
      };
      clearInterval(sampler);
      await sleep(settleSeconds * 1000);
      const afterMb = memoryOf(api.pid).rssMb;
      return {
        title,
        mode,
        idleMb: idleMem.rssMb,
        peakMb,
        afterMb,
        fileMb: idleMem.fileMb,
        idle,
        peak,
        gc,
        cpuMsPerK,
        creates: create.requests.total,
        createRps: create.requests.average,
        statusRps: status.requests.average,
      };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(0).padStart(4);

/** rss = V8 heap (heapTotal) + external + the rest (node binary, malloc, stacks: `other`). */
function breakdown(r: MemoryReading): string {
  return (
    `rss ${mb(r.rss)}  heap used ${mb(r.heapUsed)} of total ${mb(r.heapTotal)} (new ${mb(r.newSpace)}, old ${mb(r.oldSpace)}, code ${mb(r.codeSpace)}, large ${mb(r.largeObjects)})` +
    `  external ${mb(r.external)} (array buffers ${mb(r.arrayBuffers)})  other ${mb(r.rss - r.heapTotal - r.external)}`
  );
}

export async function memoryBench(): Promise<void> {
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`memory bench: one API process on PostgreSQL, ${seconds} s of creates then ${Math.round(seconds / 2)} s of status, ${connections} connections; load average ${load}`);
  // MEMORY_VARIANTS (a JSON list of {title, mode, nodeFlags, env}) measures other settings instead.
  const variants: Variant[] = process.env.MEMORY_VARIANTS
    ? (JSON.parse(process.env.MEMORY_VARIANTS) as Variant[])
    : [
        { title: 'production, as `npm start` runs it', mode: 'production', nodeFlags: SERVER_V8_FLAGS },
        // The flags before issue 33: 16 MB semi-spaces, what the young generation's size costs.
        { title: 'production, 16 MB semi-spaces (before)', mode: 'production', nodeFlags: ['--max-semi-space-size=16', '--heap-growing-percent=75'] },
        { title: 'production, V8 defaults (no flags)', mode: 'production', nodeFlags: [] },
        { title: 'sandbox, as `npm start` runs it', mode: 'sandbox', nodeFlags: SERVER_V8_FLAGS },
      ];
  const runs: Measured[] = [];
  for (const v of variants) runs.push(await measure(v));
  const first = runs[0]!;
  for (const r of runs) {
    console.log(
      `  ${r.title.padEnd(40)} idle ${r.idleMb.toFixed(0).padStart(4)} MB   peak ${r.peakMb.toFixed(0).padStart(4)} MB  ${r.mode === 'production' ? `(goal < ${GOAL_MB} MB) ${r.peakMb < GOAL_MB ? 'met' : 'NOT met'}` : '(the goal is for production)'}`,
    );
    console.log(
      `  ${''.padEnd(40)} ${r.creates} creates at ${Math.round(r.createRps)} req/s (×${(r.createRps / first.createRps).toFixed(2)}), status ${Math.round(r.statusRps)} req/s (×${(r.statusRps / first.statusRps).toFixed(2)}); CPU ${r.cpuMsPerK.toFixed(0)} ms per 1,000 requests (×${(r.cpuMsPerK / first.cpuMsPerK).toFixed(2)})`,
    );
    console.log(`  ${''.padEnd(40)} ${settleSeconds} s after the load ${r.afterMb.toFixed(0)} MB: ${(r.afterMb - r.idleMb).toFixed(0)} MB above idle (goal: back near idle)`);
    console.log(`    idle  ${breakdown(r.idle)}`);
    console.log(`    peak  ${breakdown(r.peak)}`);
    console.log(
      `    GC under load: ${r.gc.major} full (${r.gc.majorMs.toFixed(0)} ms), ${r.gc.minor} young (${r.gc.minorMs.toFixed(0)} ms) = ${(((r.gc.majorMs + r.gc.minorMs) / 1000 / (seconds * 1.5)) * 100).toFixed(1)} % of the load's time`,
    );
    console.log(`    of which mapped files (node binary, libraries; shared between processes) ${r.fileMb.toFixed(0)} MB`);
  }
  const sandbox = runs.find((r) => r.mode === 'sandbox');
  if (sandbox) console.log(`  in-process chains (sandbox − production idle, same flags): ${(sandbox.idleMb - first.idleMb).toFixed(0)} MB`);
}
