/**
 * `npm run bench -- settle [--quick]`: settlement throughput through real RPC latency (issue 32).
 * The standalone sandbox chains mine a block (and a Solana slot) every 2 s; the service reaches
 * them only through a proxy that delays every JSON-RPC call by 0, 25, 50 or 100 ms; 2 API
 * processes and 2 workers run as `npm start` and `npm run worker` run them, on the bench's own
 * PostgreSQL and Redis. Per flow and latency, N payments are prepared untimed (signed by fresh
 * buyers), then confirmed as fast as the API takes them, and followed until they end. Printed:
 * settled payments/s, confirm → `succeeded` p50/p99 (in seconds and in blocks after the first
 * block the payment could be in), the relayer's transactions and gas per payment, and the same
 * with the relayer pool and batching off (one key, batch of one) as the baseline, with the ratio.
 *
 * BENCH_SETTLE_PAYMENTS (default 2,000; `--quick` 40), BENCH_SETTLE_LATENCIES (`0,25,50,100`),
 * BENCH_SETTLE_FLOWS (`eip3009,permit2,spl`), BENCH_SETTLE_KEYS (relayer keys in the pool, 4),
 * BENCH_SETTLE_BATCH (largest batch, 16), BENCH_SETTLE_CONFIGS (`baseline` or `pool` for one of the two).
 * The processes inherit the bench's environment, so e.g. JOB_CONCURRENCY reaches them.
 */
import { loadavg } from 'node:os';
import type { Flow } from '../faults/load.ts';
import { feePayerLamports, evmHead, relayerSpend, startBlockClock, type BlockClock } from './settle-chain.ts';
import { relayerKeys, startDeployment, startServices, type Deployment } from './settle-cluster.ts';
import { confirmAndFollow, openShop, prepare, type Settled } from './settle-payments.ts';

const GOALS: Record<Flow, number> = { eip3009: 100, permit2: 50, spl: 100 };
const FLOW_NAMES: Record<Flow, string> = { eip3009: 'EIP-3009', permit2: 'Permit2', spl: 'Solana' };
/** The latency the goals are set at. */
const GOAL_LATENCY_MS = 50;

interface Row {
  flow: Flow;
  latencyMs: number;
  config: string;
  perS: number;
  settled: number;
  n: number;
  p50s: number;
  p99s: number;
  p50blocks: number;
  p99blocks: number;
  txPerPayment: number;
  feePerPayment: string;
  rpcPerPayment: string;
  problems: string[];
}

const percentile = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

function list(raw: string | undefined, fallback: string): string[] {
  return (raw ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The most called RPC methods of the run, per payment: where the service's round trips go. */
function rpcPerPayment(d: Deployment, since: number, chain: 'evm' | 'solana', n: number): string {
  const counts = new Map<string, number>();
  for (const c of d.proxy.calls({ chain, since })) counts.set(c.method, (counts.get(c.method) ?? 0) + 1);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const top = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([m, k]) => `${m.replace(/^eth_/, '')} ${(k / n).toFixed(1)}`);
  return `${(total / n).toFixed(1)} (${top.join(', ')})`;
}

async function measure(
  d: Deployment,
  clock: BlockClock,
  flow: Flow,
  run: { latencyMs: number; config: string; keys: string[]; settled: Settled; n: number; head0: number; lamports0: bigint },
): Promise<Row> {
  const { settled: s, n } = run;
  const ids = [...s.succeededAt.keys()];
  const chain = flow === 'spl' ? 'solana' : 'evm';
  const lat = ids.map((id) => s.succeededAt.get(id)! - s.confirmedAt.get(id)!);
  const blocks = ids.map((id) => Math.max(0, clock.between(chain, s.confirmedAt.get(id)!, s.succeededAt.get(id)!) - 1));
  const last = Math.max(...ids.map((id) => s.succeededAt.get(id)!));
  const perS = ids.length ? ids.length / ((last - s.start) / 1000) : 0;
  let txPerPayment: number;
  let feePerPayment: string;
  if (flow === 'spl') {
    // Each payment is its own transaction, signed by the buyer and the fee payer: what it costs is lamports.
    const spent = run.lamports0 - (await feePayerLamports(d.chainsUrl, d.env.SOLANA_FEE_PAYER_KEY!));
    txPerPayment = 1;
    feePerPayment = ids.length ? `${(Number(spent) / ids.length).toFixed(0)} lamports` : '-';
  } else {
    const spend = await relayerSpend(d.chainsUrl, run.keys, run.head0 + 1, await evmHead(d.chainsUrl));
    txPerPayment = ids.length ? spend.txs / ids.length : NaN;
    feePerPayment = ids.length ? `${(Number(spend.gas) / ids.length / 1000).toFixed(1)}k gas` : '-';
  }
  return {
    flow,
    latencyMs: run.latencyMs,
    config: run.config,
    perS,
    settled: ids.length,
    n,
    p50s: percentile(lat, 50) / 1000,
    p99s: percentile(lat, 99) / 1000,
    p50blocks: percentile(blocks, 50),
    p99blocks: percentile(blocks, 99),
    txPerPayment,
    feePerPayment,
    rpcPerPayment: rpcPerPayment(d, s.start, chain, Math.max(1, ids.length)),
    problems: s.problems,
  };
}

function goalNote(r: Row): string {
  if (r.latencyMs !== GOAL_LATENCY_MS || r.config === 'baseline') return '';
  const notes = [`${r.perS >= GOALS[r.flow] ? 'met' : 'NOT met'}: ≥ ${GOALS[r.flow]}/s`];
  if (r.flow === 'eip3009') notes.push(`p99 ${r.p99blocks <= 3 ? '≤' : '>'} 3 blocks`, `tx/payment ${r.txPerPayment <= 0.25 ? '≤' : '>'} 0.25`);
  return notes.join(', ');
}

function printTable(rows: Row[]): void {
  console.log(
    '\n| flow | RPC latency | configuration | settled/s | ratio to baseline | confirm → succeeded p50 / p99 | blocks after the first possible, p50 / p99 | relayer tx per payment | fee per payment | RPC calls per payment (top) | goal at 50 ms |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const base = rows.find((b) => b.flow === r.flow && b.latencyMs === r.latencyMs && b.config === 'baseline');
    const ratio = base && base.perS > 0 ? `×${(r.perS / base.perS).toFixed(2)}` : '-';
    console.log(
      `| ${FLOW_NAMES[r.flow]} | ${r.latencyMs} ms | ${r.config} | ${r.perS.toFixed(1)} (${r.settled}/${r.n}) | ${ratio} | ${r.p50s.toFixed(2)} / ${r.p99s.toFixed(2)} s | ${r.p50blocks} / ${r.p99blocks} | ${r.txPerPayment.toFixed(2)} | ${r.feePerPayment} | ${r.rpcPerPayment} | ${goalNote(r)} |`,
    );
  }
}

export async function settleBench(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const n = Number(process.env.BENCH_SETTLE_PAYMENTS ?? (quick ? 40 : 2000));
  const latencies = list(process.env.BENCH_SETTLE_LATENCIES, '0,25,50,100').map(Number);
  const flows = list(process.env.BENCH_SETTLE_FLOWS, 'eip3009,permit2,spl') as Flow[];
  const poolKeys = Number(process.env.BENCH_SETTLE_KEYS ?? 4);
  const batchMax = Number(process.env.BENCH_SETTLE_BATCH ?? 16);
  if (!Number.isInteger(n) || n < 1 || latencies.some((l) => !Number.isInteger(l) || l < 0) || flows.some((f) => !(f in GOALS))) {
    throw new Error('BENCH_SETTLE_PAYMENTS must be a positive integer, BENCH_SETTLE_LATENCIES non-negative ms, BENCH_SETTLE_FLOWS of eip3009, permit2, spl');
  }
  // At least 2 settled a second, plus a minute: a run that falls behind that is cut and says so.
  const boundMs = 60_000 + n * 500;
  const started = Date.now();
  const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${line}`);
  log(`settle bench: ${n} payments per flow (${flows.join(', ')}) at ${latencies.join(', ')} ms per RPC call, 2 s blocks; load average ${loadavg()[0]!.toFixed(1)}`);
  const d = await startDeployment();
  const clock = startBlockClock(d.chainsUrl);
  let services: Awaited<ReturnType<typeof startServices>> | null = null;
  // Ctrl-C or a kill stops what the bench started (the PostgreSQL cluster is a daemon of its own).
  const interrupted = (signal: string) => {
    console.log(`${signal}: stopping the bench's processes`);
    void Promise.allSettled([services?.stop(), d.stop()]).then(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const rows: Row[] = [];
  try {
    const keys = await relayerKeys(d, poolKeys);
    const configs = [
      { name: `pool of ${poolKeys} keys, batches of ≤ ${batchMax}`, env: { EVM_RELAYER_KEYS: keys.join(','), EVM_RELAYER_BATCH_MAX: String(batchMax) }, keys },
      { name: 'baseline', env: { EVM_RELAYER_KEYS: keys[0]!, EVM_RELAYER_BATCH_MAX: '1' }, keys },
    ];
    const only = process.env.BENCH_SETTLE_CONFIGS;
    for (const config of configs.filter((c) => only === undefined || (only === 'baseline') === (c.name === 'baseline'))) {
      services = await startServices(d, config.env);
      try {
        log(`${config.name}: 2 API processes and 2 workers up; the service reports: ${services.reported}`);
        const shop = await openShop(services.apis, d.partnerKey, d.walletKey, d.chainsUrl);
        for (const latencyMs of latencies) {
          for (const flow of flows) {
            d.proxy.clear();
            const { signed, failures } = await prepare(shop, flow, n);
            if (failures.length) log(`${FLOW_NAMES[flow]}: ${failures.length} of ${n} payments could not be prepared (left out), first: ${failures[0]}`);
            if (latencyMs > 0) {
              d.proxy.set('evm:*', { kind: 'latency', ms: latencyMs });
              d.proxy.set('solana:*', { kind: 'latency', ms: latencyMs });
            }
            d.proxy.clearCalls();
            const head0 = await evmHead(d.chainsUrl);
            const lamports0 = await feePayerLamports(d.chainsUrl, d.env.SOLANA_FEE_PAYER_KEY!);
            const settled = await confirmAndFollow(shop, d.postgres.url, signed, boundMs);
            const row = await measure(d, clock, flow, { latencyMs, config: config.name, keys: config.keys, settled, n, head0, lamports0 });
            rows.push(row);
            const trips = clock.roundTrips(settled.start);
            log(
              `${FLOW_NAMES[flow]} at ${latencyMs} ms: ${row.perS.toFixed(1)}/s, ${row.settled}/${n} settled, p99 ${row.p99s.toFixed(2)} s, confirms all answered after ${((settled.confirmsDone - settled.start) / 1000).toFixed(1)} s, the chains process answered the bench's own reads in p50 ${trips.p50} / p99 ${trips.p99} ms, load ${loadavg()[0]!.toFixed(1)}${row.problems.length ? `; ${row.problems.length} problem(s), first: ${row.problems[0]}` : ''}`,
            );
          }
        }
      } finally {
        d.proxy.clear();
        await services.stop();
        services = null;
      }
    }
  } finally {
    clock.stop();
    await d.stop();
  }
  printTable(rows);
  console.log(
    `\nload average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}; the whole run took ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}
