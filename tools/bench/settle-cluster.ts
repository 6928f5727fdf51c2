// The settle bench's deployment, started as production runs it: the standalone sandbox chains with
// interval mining, the RPC proxy in front of their JSON-RPC (latency per call is set on it), the
// bench's own PostgreSQL cluster and Redis server, and per configuration 2 API processes
// (`npm start`: server/main.ts) and 2 workers (`npm run worker`: server/worker.ts). The fault
// suite's parts are imported, not copied: the same children, the same services, the same proxy.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { startRpcFaultProxy, type RpcFaultProxy } from '../chain-faults/index.ts';
import { createSandboxApi } from '../demo-wallet/sandbox-api.ts';
import { throughProxy } from '../faults/chain-checks.ts';
import { healthy, proc, ROOT, until, type Proc } from '../faults/cluster.ts';
import { freePort, startPostgres, startRedis, type Postgres } from '../faults/services.ts';
import { SERVER_V8_FLAGS } from '../../server/v8-flags.ts';

/** 2 s blocks, a Solana slot as long: the chain. */
export const BLOCK_MS = 2000;
const METRICS_TOKEN = 'settle-bench-metrics-token-0123456789';

export interface Deployment {
  chainsUrl: string;
  proxy: RpcFaultProxy;
  postgres: Postgres;
  /** The chains' production environment, RPC URLs pointing at the proxy. */
  env: NodeJS.ProcessEnv;
  partnerKey: string;
  walletKey: string;
  stop(): Promise<void>;
}

export interface Services {
  apis: string[];
  /** What the service says of its relayer accounts and configuration (`/readyz`, the workers' start lines). */
  reported: string;
  stop(): Promise<void>;
}

function keys(args: string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const run = spawnSync(process.execPath, ['tools/keys/cli.ts', ...args, '--json'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`keys ${args.join(' ')} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, string>;
}

export async function startDeployment(): Promise<Deployment> {
  const tmp = mkdtempSync(join(tmpdir(), 'settle-bench-'));
  const chainsPort = await freePort();
  const { DATABASE_URL: _d, REDIS_URL: _r, PORT: _p, DATA_DIR: _dd, ...rest } = process.env;
  const chains = proc(
    'sandbox chains',
    ['tools/sandbox-chains/cli.ts', '--', '--port', String(chainsPort), '--env-file', join(tmp, 'chains.env'), '--block-time', String(BLOCK_MS)],
    rest,
  );
  chains.start();
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  let proxy: RpcFaultProxy | null = null;
  const stop = async () => {
    // Each part is stopped even when another fails to: the PostgreSQL cluster is a daemon of its own.
    await Promise.allSettled([proxy?.close(), chains.stop(5000)]);
    postgres.stop();
    redis.stop();
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    await until('the sandbox chains', () => chains.printed('sandbox chains ready at') || !chains.running(), 120_000);
    if (!chains.running()) throw new Error(`the sandbox chains exited:\n${chains.tail()}`);
    const chainsEnv = Object.fromEntries(
      readFileSync(join(tmp, 'chains.env'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    const chainsUrl = `http://127.0.0.1:${chainsPort}`;
    // One node per chain: the latency is the figure, not failover.
    proxy = await startRpcFaultProxy({ evmUpstream: `${chainsUrl}/evm`, solanaUpstream: `${chainsUrl}/solana`, nodes: 1 });
    const evmChains = Object.keys(JSON.parse(chainsEnv.EVM_RPC_URLS ?? '{}') as object);
    const env: NodeJS.ProcessEnv = {
      ...rest,
      ...chainsEnv,
      ...throughProxy(chainsEnv, proxy),
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      HOST: '127.0.0.1',
      LOGO_CHECKS: 'off',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_S: '0',
      METRICS_TOKEN,
      COLLECT_DATA_SECRET: 'settle-bench-collect-data-secret-0123456789',
      // Signed payments wait (untimed) while the rest are prepared: their quotes must outlive that.
      QUOTE_TTL_S: '3600',
      // Final at inclusion (Solana: at `confirmed`, its success): the figure is how soon a payment
      // is settled after its block, not a depth, and no finality follow-up (a Solana payment's
      // would look again ~30 times over the 64 s that 32 slots of 2 s take) shares the workers.
      CHAIN_FINALITY: JSON.stringify({
        ...Object.fromEntries(evmChains.map((c) => [c, 1])),
        ...(chainsEnv.SOLANA_CHAIN_ID ? { [chainsEnv.SOLANA_CHAIN_ID]: 'confirmed' } : {}),
      }),
    };
    const partner = keys(['create-partner', '--name', 'Settle bench shop'], env);
    const walletKey = keys(['create-key', '--partner', partner.partnerId!, '--scope', 'wallet'], env).apiKey!;
    return { chainsUrl, proxy, postgres, env, partnerKey: partner.apiKey!, walletKey, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** What `/readyz` (with the metrics token) says of the relayer and fee payer accounts, one line. */
async function readyAccounts(api: string): Promise<string> {
  try {
    const res = await fetch(`${api}/readyz`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await res.text();
    const relayers = new Set([...text.matchAll(/"(0x[0-9a-fA-F]{40})"/g)].map((m) => m[1]!.toLowerCase()));
    return `${relayers.size} EVM account(s) in /readyz`;
  } catch (err) {
    return `/readyz unreadable (${err instanceof Error ? err.message : String(err)})`;
  }
}

/** 2 API processes and 2 workers with `extra` on top of the deployment's environment. */
export async function startServices(d: Deployment, extra: Record<string, string>): Promise<Services> {
  const ports = [await freePort(), await freePort()];
  const env = { ...d.env, ...extra, PAY_BASE_URL: `http://127.0.0.1:${ports[0]}/pay` };
  // As `npm start` and `npm run worker` run them: the shipped V8 flags, the composition root.
  const apis = ports.map((port, i) => ({
    proc: proc(`API ${i + 1}`, [...SERVER_V8_FLAGS, 'server/main.ts'], { ...env, PORT: String(port), JOB_WORKERS: 'off' }),
    base: `http://127.0.0.1:${port}`,
  }));
  const workers = [1, 2].map((i) => proc(`worker ${i}`, [...SERVER_V8_FLAGS, 'server/worker.ts'], { ...env, LOG_LEVEL: 'info' }));
  const all: Proc[] = [...apis.map((a) => a.proc), ...workers];
  for (const p of all) p.start();
  const stop = () => Promise.all(all.map((p) => p.stop(5000))).then(() => {});
  try {
    await Promise.all(apis.map((a) => until(`${a.proc.name} healthy`, async () => !a.proc.running() || (await healthy(a.base)), 300_000)));
    await until('the workers to start', () => workers.every((w) => w.printed('worker started') || !w.running()), 300_000);
    for (const p of all) if (!p.running()) throw new Error(`${p.name} exited at start:\n${p.tail()}`);
  } catch (err) {
    await stop();
    throw err;
  }
  // Whatever the workers said about their relayer at start (a pool or batching, once they exist).
  const relayerLines = workers[0]!
    .tail()
    .split('\n')
    .filter((l) => /relayer|batch/i.test(l));
  const reported = [await readyAccounts(apis[0]!.base), ...relayerLines.map((l) => l.slice(0, 200))].join('; ');
  return { apis: apis.map((a) => a.base), reported, stop };
}

/** `n` fresh relayer keys; the first is the chain's funded relayer, the others get gas money from the faucet. */
export async function relayerKeys(d: Deployment, n: number): Promise<string[]> {
  const first = d.env.EVM_RELAYER_KEY!;
  const more = Array.from({ length: n - 1 }, () => Wallet.createRandom().privateKey);
  const chain = Object.keys(JSON.parse(d.env.EVM_RPC_URLS ?? '{}') as object)[0]!;
  const faucet = createSandboxApi(d.chainsUrl);
  for (const key of more) await faucet.fund(`${chain}:${new Wallet(key).address}`, null, 10n ** 20n);
  return [first, ...more];
}
