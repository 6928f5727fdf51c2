import { Wallet, type HDNodeWallet } from 'ethers';
import type { RequestHandler } from 'express';
import { pino, type Logger } from 'pino';
import { openEmbeddedStorage } from './embedded-storage.ts';
import { createInlineQueue } from '../../adapters/queue/inline/index.ts';
import { createEvmChainAdapter, type EvmChainConfig } from '../../adapters/chains/evm/gateway-adapter.ts';
import type { MetricsPort } from '../../server/ports/metrics.ts';
import { createSolanaChainAdapter } from '../../adapters/chains/solana/gateway-adapter.ts';
import { openChains } from '../../server/composition/chains.ts';
import { loadConfig } from '../../server/config.ts';
import type { SandboxChainsServer } from '../../tools/sandbox-chains/server.ts';
import { toEthersTypedData, type Eip712TypedData } from '../../adapters/chains/evm/typed-data.ts';
import { createSandboxChains, type SandboxChains } from '../../server/composition/sandbox/index.ts';
import { createAssetRegistry, type AssetConfig } from '../../server/domain/assets.ts';
import { createPriceTable } from '../../server/domain/prices.ts';
import { buildJobHandlers } from '../../server/jobs/handlers.ts';
import { scheduleLateFunds, type LateFundsOptions } from '../../server/domain/payments/late-funds-job.ts';
import { webhookSettings } from '../../server/composition/webhooks.ts';
import { startJobs, type RunningJobs } from '../../server/jobs/start-jobs.ts';
import { createExpirySweep } from '../../server/jobs/expiry-sweep.ts';
import { createChainRegistry, type ChainPort } from '../../server/ports/chains.ts';
import { systemClock, type Clock } from '../../server/ports/clock.ts';
import type { RelayerNonces } from '../../server/ports/storage/relayer-nonces.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import type { TestStorage } from './backends.ts';
import { createWebhookDispatcher } from '../../server/jobs/webhook-dispatcher.ts';
import { traceLogFields } from '../../server/domain/trace-context.ts';
import type { DashboardOptions } from '../../server/dashboard/index.ts';
import type { RateLimiter } from '../../server/ports/rate-limiter.ts';
import type { WalletChains } from '../../server/pages/browser-wallet-section.ts';

/**
 * The whole service on the sandbox chains, as a wallet meets it: PGlite, the inline job queue
 * running submissions and confirmations, and real contracts. `assets` may override the sandbox
 * registry (e.g. a token offered by direct transfer only). `clock` (default the system's) is the
 * service's time everywhere, the EVM adapter's included, so a test can move time on.
 *
 * Two transports: by default the adapters hold the in-process sandbox objects; with `rpc` (a
 * started standalone chains server) they are built as production builds them, from `loadConfig`
 * of the server's env through `openChains`, and speak JSON-RPC over HTTP to it. `chains` is then
 * the server's: the test's world (funding, balances, time) still reaches the chains directly.
 */
export interface GatewayEnv {
  t: TestApp;
  chains: SandboxChains;
  transport: Transport;
  jobs: RunningJobs;
  /** The chain adapters the app and the jobs share (their accounts, their balances read now). */
  ports: ChainPort[];
  close(): Promise<void>;
}

export type Transport = 'sandbox' | 'rpc';

export interface GatewayEnvOptions {
  chains?: SandboxChains;
  rpc?: SandboxChainsServer;
  assets?: (a: AssetConfig[]) => AssetConfig[];
  quoteTtlS?: number;
  extraRoutes?: RequestHandler;
  clock?: Clock;
  /** The store (default a fresh PGlite); the caller disposes of one it gives. */
  storage?: TestStorage;
  /** The logger of the app and the jobs (default silent, with the production mixin). */
  logger?: Logger;
  /** Loopback webhook endpoints allowed, and a webhook dispatcher running beside the jobs. */
  webhooks?: { schedule: number[] };
  /** The partner dashboard served too (its sign-in limiters). */
  dashboard?: DashboardOptions;
  /** The sandbox EVM chain's finality and heal window (default: final once confirmed, no heal window), relayer pool and batches (default one key, none). */
  evm?: Pick<EvmChainConfig, 'finality' | 'healWindowMs' | 'relayers' | 'minRelayerBalance' | 'batchMax' | 'batchWindowMs' | 'replaceAfterMs'>;
  /** The service's relayer nonce counter (production's, on PostgreSQL); absent: the node's pending count in the key's section. */
  relayerNonces?: RelayerNonces;
  /** Jobs run at once (default 1): batches of relayer payments need several advance jobs running together. */
  jobConcurrency?: number;
  /** Where the job handlers count (payment transitions, finality). */
  metrics?: MetricsPort;
  /** The late-funds watcher runs on the sandbox EVM chain, at this pace (absent: not scheduled). */
  lateFunds?: LateFundsOptions;
  /** Options calls per payment (the composition root always limits them; absent here: not limited). */
  optionsPerPayment?: RateLimiter;
  /** How the payment page's browser wallet adds EVM chains (the composition root gives the sandbox's). */
  walletChains?: WalletChains;
  /** Buyer pages counted per address (absent: not limited). */
  rateLimiter?: RateLimiter;
  /** Where buyer links point (default https://pay.example.test, which nothing serves). */
  payBaseUrl?: string;
}

/** The in-process wiring: adapters over the sandbox objects, on the given clock. */
function sandboxPorts(chains: SandboxChains, clock: Clock, tuning: GatewayEnvOptions['evm'] = {}, nonces?: RelayerNonces): ChainPort[] {
  const evm = chains.evm;
  return [
    createEvmChainAdapter(
      [
        {
          caip2: evm.caip2,
          provider: evm.ethersProvider,
          relayer: new Wallet(evm.relayer.privateKey, evm.ethersProvider),
          permit2: evm.permit2Address,
          confirmations: 1,
          clock,
          ...tuning,
        },
      ],
      nonces ? { nonces } : {},
    ),
    createSolanaChainAdapter([{ caip2: chains.solana.caip2, connection: chains.solana.connection, feePayer: chains.solana.feePayer, openDestinationAccounts: true }]),
  ];
}

/** The production wiring: the server's env read by `loadConfig`, its chains opened by `openChains`. */
async function rpcPorts(server: SandboxChainsServer): Promise<Wired> {
  const config = loadConfig({ ...server.env });
  if (config.mode !== 'production') throw new Error(`the chains server's env is not production (${config.mode})`);
  const opened = await openChains(config);
  return { ports: opened.ports, assets: config.assets, close: opened.close };
}

interface Wired {
  ports: ChainPort[];
  assets: AssetConfig[];
  close(): Promise<void>;
}

/** `extraRoutes` is passed to the app as is (e.g. the sandbox router, for tools that need `/sandbox`). */
export async function startGatewayEnv(opts: GatewayEnvOptions = {}): Promise<GatewayEnv> {
  // Production adapters run on the system clock; a test moving time cannot reach them.
  if (opts.rpc && opts.clock) throw new Error('the rpc transport builds its adapters as production does, on the system clock');
  if (opts.rpc && opts.chains) throw new Error('give chains or rpc (whose chains are used), not both');
  const chains = opts.rpc?.chains ?? opts.chains ?? (await createSandboxChains());
  const clock = opts.clock ?? systemClock;
  const wired: Wired = opts.rpc
    ? await rpcPorts(opts.rpc)
    : { ports: sandboxPorts(chains, clock, opts.evm, opts.relayerNonces), assets: chains.assetConfigs(), close: async () => {} };
  const storage = opts.storage ?? (await openEmbeddedStorage());
  const assets = createAssetRegistry((opts.assets ?? ((a) => a))(wired.assets));
  const registry = createChainRegistry(wired.ports);
  const logger = opts.logger ?? pino({ level: 'silent', mixin: traceLogFields });
  const allowLoopback = opts.webhooks !== undefined;
  const delivery = webhookSettings({ allowLoopback, ...(opts.webhooks ? { delivery: { timeoutMs: 2000, schedule: opts.webhooks.schedule } } : {}) }).delivery;
  const jobs = await startJobs({
    storage,
    queue: createInlineQueue({ clock }),
    handlers: buildJobHandlers({
      storage,
      clock,
      logger,
      assets,
      chains: registry,
      webhooks: delivery,
      ...(opts.metrics ? { metrics: opts.metrics } : {}),
      ...(opts.lateFunds ? { lateFunds: opts.lateFunds } : {}),
    }),
    clock,
    logger,
    relayIntervalMs: 200,
    ...(opts.jobConcurrency ? { concurrency: opts.jobConcurrency } : {}),
    // Payments expire in the background as in every process that runs jobs.
    loops: [createExpirySweep({ storage, clock, logger, assets, ...(opts.metrics ? { metrics: opts.metrics } : {}) })],
  });
  if (opts.lateFunds) await scheduleLateFunds(storage, clock, [chains.evm.caip2]);
  const dispatcher = opts.webhooks ? createWebhookDispatcher({ storage, clock, logger, intervalMs: 100, onJobsWritten: () => jobs.relay.notify() }) : null;
  dispatcher?.start();
  const notify = () => {
    jobs.relay.notify();
    dispatcher?.notify();
  };
  const t = await startTestApp(storage, {
    logger,
    allowLoopbackEndpoints: allowLoopback,
    clock,
    assets,
    chains: registry,
    prices: createPriceTable(),
    payBaseUrl: opts.payBaseUrl ?? 'https://pay.example.test',
    onJobsWritten: () => notify(),
    ...(opts.quoteTtlS ? { quoteTtlS: opts.quoteTtlS } : {}),
    ...(opts.extraRoutes ? { extraRoutes: opts.extraRoutes } : {}),
    ...(opts.dashboard ? { dashboard: opts.dashboard } : {}),
    ...(opts.optionsPerPayment ? { optionsPerPayment: opts.optionsPerPayment } : {}),
    ...(opts.walletChains ? { walletChains: opts.walletChains } : {}),
    ...(opts.rateLimiter ? { rateLimiter: opts.rateLimiter } : {}),
  });
  return {
    t,
    chains,
    transport: opts.rpc ? 'rpc' : 'sandbox',
    jobs,
    ports: wired.ports,
    async close() {
      await dispatcher?.stop();
      await jobs.stop();
      await t.close();
      if (!opts.storage) await storage.close();
      await wired.close();
      if (!opts.chains && !opts.rpc) await chains.close();
    },
  };
}

/** What a wallet does with `eth_signTypedData_v4` params: `[from, JSON string]`. */
export async function signTypedDataParams(wallet: Wallet | HDNodeWallet, params: unknown[]): Promise<string> {
  const td = JSON.parse(String(params[1])) as Eip712TypedData;
  const { domain, types, message } = toEthersTypedData(td);
  return wallet.signTypedData(domain, types, message);
}

/** A merchant of partner A with settlements in the given assets, paid to a fresh address. */
export async function sandboxMerchant(t: TestApp, assetIds: string[], key = t.a.key): Promise<{ merchantId: string; destination: string }> {
  const destination = Wallet.createRandom().address;
  const m = await t.call('POST', '/v1/merchants', {
    key,
    headers: { 'Idempotency-Key': `gm-${Math.random()}` },
    body: { merchantName: 'Sandbox Shop', merchantEmail: 'shop@sandbox.test' },
  });
  const merchantId = m.body.merchant.id as string;
  const s = await t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
    key,
    headers: { 'Idempotency-Key': `gs-${Math.random()}` },
    body: { settlements: assetIds.map((asset) => ({ asset, destination: `${asset.split('/')[0]}:${destination}` })) },
  });
  if (s.status !== 201) throw new Error(JSON.stringify(s.body));
  return { merchantId, destination };
}
