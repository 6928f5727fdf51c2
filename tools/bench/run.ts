/**
 * `npm run bench`: the service as `npm start` runs it (tools/bench/api-process.ts: `node
 * server/main.ts` with the shipped flags, production mode, PostgreSQL + Redis, LOG_LEVEL=warn, the
 * Redis-shared rate limiter set far above the load) and the bare baselines side by side on this
 * machine's PostgreSQL (BENCH_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/test),
 * each in its own process, driven by autocannon from this one; prints throughput, latency and the
 * ratios. Rounds alternate service and baseline so drift in the machine's load hits both alike.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { Wallet } from 'ethers';
import { loadavg } from 'node:os';
import { startApiProcess } from './api-process.ts';
import { steadyLoad } from './steady-load.ts';

// Named sub-benches: `npm run bench -- <name>` runs only that one; no name runs the main bench below.
const SUB_BENCHES: Record<string, () => Promise<void>> = {
  pages: async () => (await import('./pages.ts')).benchPages(),
  webhooks: async () => (await import('./webhooks.ts')).runWebhookBench(),
  longpoll: async () => (await import('./longpoll.ts')).longPollBench(),
  memory: async () => (await import('./memory.ts')).memoryBench(),
  tail: async () => (await import('./tail.ts')).benchTail(),
  background: async () => (await import('./background.ts')).backgroundBench(),
  fairness: async () => (await import('./fairness.ts')).fairnessBench(),
  profile: async () => (await import('./profile.ts')).profileBench(),
  settle: async () => (await import('./settle.ts')).settleBench(),
};
const subBench = process.argv[2];
if (subBench !== undefined) {
  const run = SUB_BENCHES[subBench];
  if (!run) {
    console.error(`unknown bench "${subBench}"; one of: ${Object.keys(SUB_BENCHES).join(', ')} (or none for the main bench)`);
    process.exit(2);
  }
  await run();
  process.exit(0);
}

const url = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const schema = `bench_${Date.now().toString(36)}`;
// The machine's 1, 5 and 15 minute load averages: figures from a busy machine are mostly its other work.
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The bare baseline (its own process, node's default flags): `ready <port>` once it listens. */
function startBaseline(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'baseline-server.ts'), url, schema], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const m = /^ready (\d+)/.exec(line);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`baseline-server.ts exited with ${code}`)));
  });
}

async function measure(title: string, opts: autocannon.Options): Promise<autocannon.Result> {
  process.stdout.write(`  ${title.padEnd(38)} `);
  const r = await autocannon({ connections, duration: seconds, ...opts });
  if (r.non2xx || r.errors) throw new Error(`${title}: ${r.non2xx} non-2xx responses, ${r.errors} errors`);
  console.log(`${Math.round(r.requests.average).toString().padStart(6)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms`);
  return r;
}

async function post(port: number, path: string, headers: Record<string, string>, body: unknown): Promise<{ paymentId: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { paymentId: string };
}

/** CPU time on Linux as [busy, steal] ticks, to say how much the host took from this VM during the run. */
function cpuTicks(): [number, number] | null {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return [f[0]! + f[1]! + f[2]! + f[5]! + f[6]!, f[7] ?? 0];
  } catch {
    return null;
  }
}
const ticksAtStart = cpuTicks();

const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`CREATE SCHEMA ${schema}`);
console.log(`bench: ${rounds} rounds × ${seconds} s, ${connections} connections; baseline on PostgreSQL schema ${schema}; load average ${load()}`);
// `npm start` as shipped: its job workers run in the API process (JOB_WORKERS's default).
const service = await startApiProcess('main', 'production', { JOB_WORKERS: 'on' });
const baseline = await startBaseline();
try {
  const servicePort = Number(new URL(service.url).port);
  const merchantId = service.merchantId;
  const createBody = { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'bench-order', expiresAt: null };
  const svcHeaders = { 'content-type': 'application/json', 'api-key': service.partnerKey, 'merchant-id': merchantId };
  // Status is polled across many payments, as wallets and partners do, not one payment over and
  // over: a batched read of one repeated id would be cheaper than any real traffic.
  const paid: string[] = [];
  const base: string[] = [];
  for (let i = 0; i < 500; i++) {
    paid.push((await post(servicePort, '/v1/payments', svcHeaders, createBody)).paymentId);
    base.push((await post(baseline.port, '/v1/payments', { 'merchant-id': merchantId }, createBody)).paymentId);
  }
  const polling = (ids: string[]) => {
    let next = 0;
    return [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: `/v1/payments/${ids[next++ % ids.length]}/status` }) }];
  };

  // Gateway options on the sandbox EVM chain (over JSON-RPC, as production reads its nodes) at a
  // steady 100 requests/s: latency, not throughput. The service allows a payment a few options
  // calls a second (OPTIONS_PER_PAYMENT_LIMIT), as a wallet makes them, so the calls go round 400
  // payments. It runs before the throughput rounds, whose tens of thousands of inserts leave
  // PostgreSQL checkpointing and vacuuming for a while afterwards: that is the harness's own
  // noise, not the steady state this figure describes.
  const expiresAt = Math.floor(Date.now() / 1000) + 3600;
  const payable: string[] = [];
  for (let i = 0; i < 400; i++) payable.push((await post(servicePort, '/v1/payments', svcHeaders, { ...createBody, expiresAt })).paymentId);
  const optionsReq = {
    url: `${service.url}/v1/gateway/payment/${payable[0]}/options`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'api-key': service.walletKey },
    body: JSON.stringify({ accounts: [`eip155:31337:${Wallet.createRandom().address}`] }),
    path: (i: number) => `/v1/gateway/payment/${payable[i % payable.length]}/options`,
  };
  // Warm up as the measurement runs (token domain cache, V8 tiering up), then measure long
  // enough that p99 rests on twenty requests, not on one stray pause.
  await steadyLoad({ ...optionsReq, rate: 100, seconds: 5 });
  const optionSeconds = Math.max(seconds, 20);
  process.stdout.write(`  gateway options, steady 100 req/s for ${optionSeconds} s `);
  const o = await steadyLoad({ ...optionsReq, rate: 100, seconds: optionSeconds, path: (i) => optionsReq.path(i + 500) });
  if (o.failed) throw new Error(`options: ${o.failed} failed requests`);
  console.log(`  ${o.sent} requests   p50 ${o.p50} ms   p90 ${o.p90} ms   p99 ${o.p99} ms   max ${o.max} ms  (goal p99 < 10 ms)\n`);
  const results = { svcCreate: [] as number[], baseCreate: [] as number[], svcStatus: [] as number[], baseStatus: [] as number[] };
  const body = JSON.stringify(createBody);
  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round} (load average ${load()})`);
    const baseCreate = {
      url: `http://127.0.0.1:${baseline.port}/v1/payments`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json', 'merchant-id': merchantId },
      body,
    };
    results.baseCreate.push((await measure('baseline POST (one INSERT)', baseCreate)).requests.average);
    results.svcCreate.push((await measure('service POST /v1/payments', { url: `${service.url}/v1/payments`, method: 'POST', headers: svcHeaders, body })).requests.average);
    results.baseStatus.push((await measure('baseline GET status (one SELECT)', { url: `http://127.0.0.1:${baseline.port}`, requests: polling(base) })).requests.average);
    results.svcStatus.push((await measure('service GET /v1/payments/{id}/status', { url: service.url, headers: svcHeaders, requests: polling(paid) })).requests.average);
  }
  const best = (xs: number[]) => Math.max(...xs);
  const createRatio = best(results.svcCreate) / best(results.baseCreate);
  const statusRatio = best(results.svcStatus) / best(results.baseStatus);
  console.log(`\nratios (service as shipped / baseline, best round each; load average ${load()}):`);
  console.log(`  create payment: ${createRatio.toFixed(2)}  (goal ≥ 1.00)  ${Math.round(best(results.svcCreate))} vs ${Math.round(best(results.baseCreate))} req/s`);
  console.log(`  payment status: ${statusRatio.toFixed(2)}  (goal ≥ 1.00)  ${Math.round(best(results.svcStatus))} vs ${Math.round(best(results.baseStatus))} req/s`);
  console.log(`  gateway options latency at 100 req/s: p50 ${o.p50} ms, p99 ${o.p99} ms  (goal p99 < 10 ms)`);
  const ticksAtEnd = cpuTicks();
  if (ticksAtStart && ticksAtEnd) {
    const [busy, steal] = [ticksAtEnd[0] - ticksAtStart[0], ticksAtEnd[1] - ticksAtStart[1]];
    // Stolen time is CPU the host gave other guests: a run with much of it measured a slower machine.
    console.log(
      `  host steal during the run: ${((100 * steal) / Math.max(1, busy + steal)).toFixed(1)} % of this VM's CPU time${steal > busy * 0.05 ? '  (noisy: compare with a quieter run)' : ''}`,
    );
  }
} finally {
  baseline.child.kill('SIGTERM');
  await service.close();
  await new Promise((r) => setTimeout(r, 500));
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
}
