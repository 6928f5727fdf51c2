// Long because: one script runs both fault suites end to end (services, cluster, load, faults, drain, table, diagnosis, teardown) over one run's shared state.
// `npm run test:faults`: the production path (standalone sandbox chains, 2 API processes and 2
// workers on PostgreSQL + Redis) under a steady load of creates and gateway payments, through a
// schedule of faults; then the checks, printed as a table. Exit 0 only when every row holds.
// `npm run test:chain-faults` (`--chain`) is the same cluster and load with the chains misbehaving
// instead of the processes: interval mining, the fault proxy in front of the chains' JSON-RPC
// (the service reaches the chains only through it), and the chain schedule (chain-schedule.ts).
// Everything it starts (temp dirs, PostgreSQL, Redis, children) is stopped on exit, error, Ctrl-C
// or the global bound.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { Wallet } from 'ethers';
import pg from 'pg';
import { evmDev, startRpcFaultProxy, type RpcFaultProxy } from '../chain-faults/index.ts';
import { createSandboxApi } from '../demo-wallet/sandbox-api.ts';
import { API_VERSIONS } from '../../server/domain/vocabulary.ts';
import { relayerKeys } from '../../server/config.ts';
import { LATE_FUNDS_JOB_TYPE } from '../../server/domain/payments/late-funds-job.ts';
import { createApi } from './api.ts';
import { startLateFunds } from './late-funds-load.ts';
import { startHostileBuyer } from './hostile-buyer-load.ts';
import { feePayerWasteRow, leftoverAllowanceRow } from './buyer-rows.ts';
import { chainRows, permit2FirstTimerRow, phantomSuccesses, relayerRows, sweepAddress, throughProxy } from './chain-checks.ts';
import { runChainFaults } from './chain-schedule.ts';
import { diagnose, formatTable, pending, runChecks, type CheckInput, type Row } from './checks.ts';
import { healthy, proc, ROOT, until, type Proc } from './cluster.ts';
import { runFaults } from './faults.ts';
import { CREATE_TTL_S, FLOWS, PAY_TTL_S, startLoad, type Flow } from './load.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { freePort, MissingToolError, startPostgres, startRedis, type Postgres, type Redis } from './services.ts';

const CHAIN_MODE = process.argv.includes('--chain');
/** The whole run, hard: past it everything is killed and the run fails (issue 29: the chain suite in 6 minutes). */
const HARD_BOUND_MS = (CHAIN_MODE ? 6 : 10) * 60_000;
const LOAD_MS = CHAIN_MODE ? 75_000 : 120_000;
/** After the load: how long confirmed payments may take to go final and events to be delivered. */
const DRAIN_BOUND_MS = CHAIN_MODE ? 90_000 : 120_000;
/** Chain mode: a block a second, as a fast L2 does; transactions wait in the mempool for it. */
const CHAIN_MODE_BLOCK_MS = 1000;
/** Short retries, so deliveries refused while the receiver was down arrive within the drain bound. */
const WEBHOOK_RETRY_SCHEDULE_S = '0,2,5,10,10,10,10,10,10,10,10,10,10,10,10,10,10,10,10,10';

const started = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);

const procs: Proc[] = [];
let postgres: Postgres | null = null;
let redis: Redis | null = null;
let receiver: Receiver | null = null;
let tmp: string | null = null;
let rpcProxy: RpcFaultProxy | null = null;

/** Synchronous parts first, so an exit handler can run it too. */
function killAll(): void {
  for (const p of procs) void p.kill9();
  postgres?.stop();
  redis?.stop();
  postgres = null;
  redis = null;
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = null;
}

/** The relayer's addresses: every key of the pool the chains process hands the service, read as the service reads them. */
function relayerPool(chainsEnv: Record<string, string>): string[] {
  return relayerKeys(chainsEnv).map((k) => new Wallet(k).address);
}

function env(chainsEnv: Record<string, string>, extra: Record<string, string>): NodeJS.ProcessEnv {
  // Nothing from the developer's own environment that would point the processes elsewhere.
  const { DATABASE_URL: _d, REDIS_URL: _r, PORT: _p, DATA_DIR: _dd, ...rest } = process.env;
  return { ...rest, ...chainsEnv, ...extra };
}

function keys(args: string[], processEnv: NodeJS.ProcessEnv): Record<string, string> {
  const run = spawnSync(process.execPath, ['tools/keys/cli.ts', ...args, '--json'], { cwd: ROOT, env: processEnv, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`keys ${args.join(' ')} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, string>;
}

async function main(): Promise<number> {
  tmp = mkdtempSync(join(tmpdir(), 'faults-'));
  log('starting PostgreSQL, Redis and the sandbox chains');
  const chainsPort = await freePort();
  const chainFlags = CHAIN_MODE ? ['--block-time', String(CHAIN_MODE_BLOCK_MS), '--dev-methods'] : [];
  const chains = proc('sandbox chains', ['tools/sandbox-chains/cli.ts', '--', '--port', String(chainsPort), '--env-file', join(tmp, 'chains.env'), ...chainFlags], env({}, {}));
  procs.push(chains);
  chains.start();
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const databaseUrl = postgres.url;
  await until('the sandbox chains', () => chains.printed('sandbox chains ready at') || !chains.running(), 120_000);
  if (!chains.running()) throw new Error(`the sandbox chains exited:\n${chains.tail()}`);
  const chainsEnv = Object.fromEntries(
    readFileSync(join(tmp, 'chains.env'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const chainsUrl = `http://127.0.0.1:${chainsPort}`;
  if (CHAIN_MODE) {
    // The service reaches the chains only through the proxy's nodes; the load's buyers and the
    // checks use the chains directly, as buyers' own wallets and an auditor would.
    rpcProxy = await startRpcFaultProxy({ evmUpstream: `${chainsUrl}/evm`, solanaUpstream: `${chainsUrl}/solana`, nodes: 3 });
    Object.assign(chainsEnv, throughProxy(chainsEnv, rpcProxy));
    log(`the fault proxy presents ${rpcProxy.evmUrls.length} EVM and ${rpcProxy.solanaUrls.length} Solana nodes; the service is pointed at them`);
  }

  const receiverPort = await freePort();
  receiver = await startReceiver(receiverPort);
  const apiPorts = [await freePort(), await freePort()];
  const common = {
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    HOST: '127.0.0.1',
    LOGO_CHECKS: 'off',
    // Warnings and errors only (workers log at info: their start line says they are ready).
    LOG_LEVEL: 'warn',
    // Several API processes hand out links and data-collection tokens that the others must read.
    PAY_BASE_URL: `http://127.0.0.1:${apiPorts[0]}/pay`,
    COLLECT_DATA_SECRET: 'fault-suite-collect-data-secret-0123456789',
    // The load is one partner and one wallet key; this suite is not about rate limits.
    RATE_LIMIT_PER_S: '0',
    WEBHOOK_ALLOW_LOOPBACK: 'on',
    WEBHOOK_RETRY_SCHEDULE_S,
    // The process suite's chains mine only when a transaction arrives: after the load no block
    // would ever bury the last payments, so the sandbox chain is final at inclusion there. The
    // chain suite mines a block a second and reorgs 4 blocks: its finality is deeper than that,
    // as a production chain's depth is deeper than the reorgs in its history.
    CHAIN_FINALITY: JSON.stringify(Object.fromEntries(Object.keys(JSON.parse(chainsEnv.EVM_RPC_URLS ?? '{}') as object).map((c) => [c, CHAIN_MODE ? 8 : 1]))),
  };
  const baseEnv = env(chainsEnv, common);
  // Pinned to the newest version, whose endpoints may subscribe to payment.reversed: a reorg the
  // service could not heal is then announced to the receiver, and the checks count it.
  const partner = keys(['create-partner', '--name', 'Fault suite shop', '--version', API_VERSIONS.at(-1)!], baseEnv);
  const walletKey = keys(['create-key', '--partner', partner.partnerId!, '--scope', 'wallet'], baseEnv).apiKey!;
  const partnerKey = partner.apiKey!;

  const apis = apiPorts.map((port, i) => ({
    proc: proc(`API ${i + 1}`, ['server/main.ts'], { ...baseEnv, PORT: String(port), JOB_WORKERS: 'off' }),
    base: `http://127.0.0.1:${port}`,
  }));
  const workers = [1, 2].map((i) => proc(`worker ${i}`, ['server/worker.ts'], { ...baseEnv, LOG_LEVEL: 'info' }));
  procs.push(...apis.map((a) => a.proc), ...workers);
  for (const p of [...apis.map((a) => a.proc), ...workers]) p.start();
  await Promise.all(apis.map((a) => until(`${a.proc.name} healthy`, async () => !a.proc.running() || (await healthy(a.base)), 90_000)));
  for (const p of procs) if (!p.running()) throw new Error(`${p.name} exited at start:\n${p.tail()}`);
  await until('the workers to start', () => workers.every((w) => w.printed('worker started') || !w.running()), 90_000);
  log('2 API processes and 2 workers up');

  const api = createApi(apis.map((a) => a.base));
  const sandbox = await createSandboxApi(chainsUrl).info();
  const assetOf = {} as Record<Flow, string>;
  for (const flow of FLOWS) {
    // The service pays an asset with its best flow, listed first: USDC EIP-3009, USDT Permit2, Solana SPL.
    const asset = sandbox.assets.find((a) => a.flows[0] === flow);
    if (!asset) throw new Error(`GET /sandbox lists no asset paid with ${flow}`);
    assetOf[flow] = asset.caip19;
  }
  const m = await api.call('POST', '/v1/merchants', partnerKey, { merchantName: 'Fault Shop', merchantEmail: 'shop@faults.test' }, { 'Idempotency-Key': 'faults-merchant' });
  if (m.status !== 201) throw new Error(`create merchant: ${m.status} ${JSON.stringify(m.body)}`);
  const merchantId = (m.body as { merchant: { id: string } }).merchant.id;
  // The merchant's EVM key is kept: the chain suite has it sweep its address during the load.
  const merchantWallet = Wallet.createRandom();
  const evm = merchantWallet.address;
  const sol = Keypair.generate().publicKey.toBase58();
  const destinations = FLOWS.map((flow) => {
    const asset = assetOf[flow];
    // A Solana destination is payable once its token account exists (the fee payer never opens
    // one for an address a partner picks): the merchant's wallet holds one base unit already.
    return { flow, asset, account: `${asset.split('/')[0]}:${flow === 'spl' ? sol : evm}`, initial: flow === 'spl' ? 1n : 0n };
  });
  for (const d of destinations) if (d.initial > 0n) await createSandboxApi(chainsUrl).fund(d.account, d.asset, d.initial);
  const s = await api.call(
    'POST',
    `/v1/merchants/${merchantId}/settlements/crypto`,
    partnerKey,
    { settlements: destinations.map((d) => ({ asset: d.asset, destination: d.account })) },
    { 'Idempotency-Key': 'faults-settle' },
  );
  if (s.status !== 201) throw new Error(`settlements: ${s.status} ${JSON.stringify(s.body)}`);
  const endpointSince = new Date();
  const types = [
    'payment.created',
    'payment.requires_action',
    'payment.processing',
    'payment.succeeded',
    'payment.failed',
    'payment.expired',
    'payment.cancelled',
    'payment.refunded',
    'payment.reversed',
    'payment.paid_twice',
  ];
  const w = await api.call('POST', '/v1/webhook-endpoints', partnerKey, { url: receiver.url, enabledEvents: types });
  if (w.status !== 201) throw new Error(`webhook endpoint: ${w.status} ${JSON.stringify(w.body)}`);
  receiver.setSecret((w.body as { secret: string }).secret);

  let sweep: Promise<void> = Promise.resolve();
  let sweptRow: Row | null = null;
  log(`load for ${LOAD_MS / 1000} s: creates and payments (EIP-3009, Permit2, Solana) over both APIs`);
  const loadStart = Date.now();
  const load = startLoad({ api, partnerKey, walletKey, merchantId, chainsUrl, sandbox, assetOf });
  // Buyers paying by direct transfer after expiry, and twice: the late-funds watcher must surface both under the faults.
  const lateFunds = rpcProxy ? await startLateFunds({ api, partnerKey, walletKey, chainsUrl, sandbox }) : null;
  const feePayer = Keypair.fromSecretKey(Uint8Array.from(JSON.parse(chainsEnv.SOLANA_FEE_PAYER_KEY!) as number[])).publicKey.toBase58();
  // A buyer landing failing transactions on purpose: the relayer must spend nothing on them.
  const hostile = rpcProxy ? await startHostileBuyer({ api, partnerKey, walletKey, chainsUrl, sandbox, feePayer }) : null;
  const progress = setInterval(() => {
    const st = load.stats;
    log(`  creates acked ${st.acked.size}, confirms accepted ${st.confirmed.size}, wallet errors ${st.walletErrors.length}, webhook ids ${receiver!.ids.size}`);
  }, 15_000);
  try {
    // A connection per look: the PostgreSQL restart must not leave the harness a dead one.
    const submissionsInFlight = async () => {
      const c = new pg.Client({ connectionString: databaseUrl });
      try {
        await c.connect();
        const r = await c.query<{ n: string }>("SELECT count(*) AS n FROM payments WHERE status = 'processing'");
        return Number(r.rows[0]!.n);
      } catch {
        return 0;
      } finally {
        await c.end().catch(() => {});
      }
    };
    if (rpcProxy) {
      const faucet = { hold: () => load.holdFaucet(), release: () => load.releaseFaucet() };
      const sweepMerchant = () => {
        const evmDestinations = destinations.filter((d) => d.flow !== 'spl');
        sweep = sweepAddress(chainsUrl, merchantWallet, evmDestinations).then(
          (swept) => {
            // What the merchant took out is no longer on its address: the balance rows expect that much less.
            for (const d of evmDestinations) d.initial -= swept.get(d.asset) ?? 0n;
            const what = [...swept].map(([a, v]) => `${v} of ${a.split(':').at(-1)!.slice(0, 10)}…`).join(', ');
            sweptRow = {
              check: 'the merchant swept its EVM address to zero mid-load (the balance rows subtract it)',
              expected: 'swept',
              actual: what || 'nothing held yet',
              ok: true,
            };
          },
          (err: unknown) => {
            const why = err instanceof Error ? err.message : String(err);
            sweptRow = { check: 'the merchant swept its EVM address to zero mid-load (the balance rows subtract it)', expected: 'swept', actual: `failed: ${why}`, ok: false };
          },
        );
      };
      await runChainFaults({ proxy: rpcProxy, evm: evmDev(`${chainsUrl}/evm`), relayerAddresses: relayerPool(chainsEnv), faucet, sweepMerchant }, loadStart, log);
    } else await runFaults({ apis, workers, postgres, redis, receiver, stats: load.stats, submissionsInFlight }, loadStart, log);
    const left = loadStart + LOAD_MS - Date.now();
    if (left > 0) await new Promise((r) => setTimeout(r, left));
    log('load stopping; waiting for what it launched');
    await load.stop(90_000);
    await sweep;
    await lateFunds?.done;
    await hostile?.done;
  } finally {
    clearInterval(progress);
  }

  const loadEnd = Date.now();
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  try {
    const input: CheckInput = {
      databaseUrl: postgres.url,
      partnerId: partner.partnerId!,
      chainsUrl,
      stats: load.stats,
      httpRetries: api.retries(),
      receiver,
      endpointSince,
      destinations,
      // Jobs that reschedule themselves for ever: never 'done'.
      perpetualJobTypes: ['maintenance.purge', LATE_FUNDS_JOB_TYPE],
    };
    // Every payment created in the load expires by then: its expiry job is due and must be done.
    const allDue = loadEnd + Math.max(CREATE_TTL_S, PAY_TTL_S) * 1000 + 2000;
    log(`drain: waiting (at most ${DRAIN_BOUND_MS / 1000} s) for payments to go final, events to be delivered and due jobs to be done`);
    let lastLog = 0;
    try {
      await until(
        'the drain',
        async () => {
          const p = await pending(db, input);
          if (Date.now() - lastLog > 5000) {
            log(`  not final ${p.notFinal}, undelivered events ${p.undelivered}, due jobs ${p.dueJobs}`);
            lastLog = Date.now();
          }
          // The late-funds watcher runs once a minute: its finds are awaited too (bounded like the rest).
          const lateDone = !lateFunds || (await lateFunds.surfaced(db));
          return Date.now() > allDue && p.notFinal === 0 && p.undelivered === 0 && p.dueJobs === 0 && lateDone;
        },
        DRAIN_BOUND_MS,
      );
    } catch {
      log('drain bound reached; checking what is there');
    }
    const rows = [
      ...(await runChecks(db, input)),
      ...(rpcProxy
        ? [
            ...(await phantomSuccesses(db, chainsUrl, [...load.stats.confirmed.keys()])),
            ...(await relayerRows(db, chainsUrl, {
              relayers: relayerPool(chainsEnv),
              merchant: evm,
              tokens: [assetOf.eip3009, assetOf.permit2].map((a) => a.split(':').at(-1)!),
              confirmed: load.stats.confirmed,
            })),
            await permit2FirstTimerRow(db, load.stats.confirmed, load.stats.permit2FirstTimers.total),
            await leftoverAllowanceRow(db, load.stats.leftoverAllowance, load.stats.walletErrors),
            await feePayerWasteRow(chainsUrl, feePayer),
            ...(sweptRow ? [sweptRow] : []),
            ...chainRows(rpcProxy, load.stats.confirmed.size, load.stats.optionsMs, load.stats.optionsAskedAgain),
            ...(lateFunds ? await lateFunds.rows(db) : []),
            ...(hostile ? await hostile.rows(db) : []),
          ]
        : []),
    ];
    console.log(`\n${formatTable(rows)}\n`);
    const failed = rows.filter((r) => !r.ok);
    for (const e of [...load.stats.createFailures, ...load.stats.walletErrors].slice(0, 10)) console.log(`  ${e}`);
    if (failed.length === 0) {
      log(`all ${rows.length} checks hold`);
      return 0;
    }
    log(`${failed.length} check(s) failed; what the database holds:`);
    for (const line of await diagnose(db, input)) console.log(`  ${line}`);
    // What the processes said about the payments that did not end well (released, failed, given up).
    const stuck = await db.query<{ id: string }>("SELECT id FROM payments WHERE id = ANY($1) AND status NOT IN ('succeeded', 'failed') LIMIT 10", [
      [...load.stats.confirmed.keys()],
    ]);
    for (const { id } of stuck.rows) for (const p of procs) for (const line of p.warnings(id).slice(-3)) console.log(`  ${p.name}: ${line.slice(0, 400)}`);
    log("the processes' last log lines:");
    for (const p of procs) console.log(`--- ${p.name}\n${p.tail() || '(nothing)'}`);
    console.log(`--- PostgreSQL\n${postgres.logTail()}`);
    return 1;
  } finally {
    await db.end().catch(() => {});
    await Promise.all(procs.map((p) => p.stop(5000)));
    await receiver.close();
    await rpcProxy?.close();
  }
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping everything`);
    killAll();
    process.exit(130);
  });
}
setTimeout(() => {
  log(`the run passed its hard bound of ${HARD_BOUND_MS / 60_000} minutes; stopping everything`);
  for (const p of procs) console.log(`--- ${p.name}\n${p.tail() || '(nothing)'}`);
  killAll();
  process.exit(1);
}, HARD_BOUND_MS).unref();

main().then(
  (code) => {
    killAll();
    process.exit(code);
  },
  (err: unknown) => {
    console.error(err instanceof MissingToolError ? `fault suite: ${err.message}` : err);
    for (const p of procs) console.error(`--- ${p.name}\n${p.tail() || '(nothing)'}`);
    killAll();
    process.exit(1);
  },
);
