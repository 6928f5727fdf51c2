/**
 * `npm run bench -- memory`: the resident memory (VmRSS from /proc) of one API process idle and at
 * its peak under create/status load (autocannon: MEMORY_LOAD_S seconds of POST /v1/payments, then
 * half as long of GET status across 200 payments, MEMORY_CONNECTIONS connections), on PostgreSQL.
 * Four processes in turn: production mode (chains over JSON-RPC on the standalone sandbox chains)
 * as `npm start` runs it (V8's young generation capped at 16 MB semi-spaces: server/v8-flags.ts),
 * the same with V8's defaults (Node 24 sizes semi-spaces from the machine's memory: 64 MB each here,
 * which an idle process keeps committed), then also with the old generation capped at 192 MB (V8 otherwise lets it grow
 * towards a limit sized from the machine's memory before collecting it), and sandbox mode (chains inside the process), whose idle difference with production
 * is what the in-process chains cost. Throughput under each is printed as a ratio against the
 * first, so a memory saving that costs speed shows.
 */
import autocannon from 'autocannon';
import { SERVER_V8_FLAGS } from '../../server/v8-flags.ts';
import { memoryOf, startApiProcess } from './api-process.ts';

const seconds = Number(process.env.MEMORY_LOAD_S ?? 10);
const connections = Number(process.env.MEMORY_CONNECTIONS ?? 16);
const GOAL_MB = 256;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Measured {
  title: string;
  idleMb: number;
  peakMb: number;
  creates: number;
  createRps: number;
  statusRps: number;
}

async function measure(title: string, mode: 'production' | 'sandbox', nodeFlags: readonly string[]): Promise<Measured> {
  const api = await startApiProcess('memory', mode, {}, nodeFlags);
  try {
    const headers = { 'content-type': 'application/json', 'api-key': api.partnerKey, 'merchant-id': api.merchantId };
    const createBody = { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'bench-memory', expiresAt: null };
    // Settled after start (lazy caches, the first GCs): the figure a deployment sits at.
    await sleep(3_000);
    const idleMb = memoryOf(api.pid).rssMb;
    let peakMb = idleMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, memoryOf(api.pid).rssMb)), 100);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 200; i++) ids.push((await api.call('POST', '/v1/payments', createBody, { 'Merchant-Id': api.merchantId })).body.paymentId!);
      const create = await autocannon({ url: `${api.url}/v1/payments`, method: 'POST', headers, body: JSON.stringify(createBody), connections, duration: seconds });
      let next = 0;
      const status = await autocannon({
        url: api.url,
        headers,
        connections,
        duration: Math.max(1, Math.round(seconds / 2)),
        requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: `/v1/payments/${ids[next++ % ids.length]}/status` }) }],
      });
      if (create.non2xx || create.errors || status.non2xx || status.errors) throw new Error(`${title}: failed requests under load`);
      peakMb = Math.max(peakMb, memoryOf(api.pid).hwmMb);
      return { title, idleMb, peakMb, creates: create.requests.total, createRps: create.requests.average, statusRps: status.requests.average };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await api.close();
  }
}

export async function memoryBench(): Promise<void> {
  console.log(`memory bench: one API process on PostgreSQL, ${seconds} s of creates then ${Math.round(seconds / 2)} s of status, ${connections} connections`);
  const runs = [
    await measure('production, as `npm start` runs it', 'production', SERVER_V8_FLAGS),
    await measure('production, V8 defaults (no flags)', 'production', []),
    await measure('production, + --max-old-space-size=192', 'production', [...SERVER_V8_FLAGS, '--max-old-space-size=192']),
    await measure('sandbox, as `npm start` runs it', 'sandbox', SERVER_V8_FLAGS),
  ];
  const first = runs[0]!;
  for (const r of runs) {
    console.log(
      `  ${r.title.padEnd(40)} idle ${r.idleMb.toFixed(0).padStart(4)} MB   peak ${r.peakMb.toFixed(0).padStart(4)} MB  (goal < ${GOAL_MB} MB) ${r.peakMb < GOAL_MB ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  ${''.padEnd(40)} ${r.creates} creates at ${Math.round(r.createRps)} req/s (×${(r.createRps / first.createRps).toFixed(2)}), status ${Math.round(r.statusRps)} req/s (×${(r.statusRps / first.statusRps).toFixed(2)})`,
    );
  }
  console.log(`  in-process chains (sandbox − production idle, same flags): ${(runs[3]!.idleMb - first.idleMb).toFixed(0)} MB`);
}
