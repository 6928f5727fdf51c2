import { Wallet, type HDNodeWallet } from 'ethers';
import type { RequestHandler } from 'express';
import { pino } from 'pino';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { createInlineQueue } from '../../adapters/queue/inline/index.ts';
import { createEvmChainAdapter } from '../../adapters/chains/evm/gateway-adapter.ts';
import { createSolanaChainAdapter } from '../../adapters/chains/solana/gateway-adapter.ts';
import { toEthersTypedData, type Eip712TypedData } from '../../adapters/chains/evm/typed-data.ts';
import { createSandboxChains, type SandboxChains } from '../../server/composition/sandbox/index.ts';
import { createAssetRegistry, type AssetConfig } from '../../server/domain/assets.ts';
import { createPriceTable } from '../../server/domain/prices.ts';
import { buildJobHandlers } from '../../server/jobs/handlers.ts';
import { webhookSettings } from '../../server/composition/webhooks.ts';
import { startJobs, type RunningJobs } from '../../server/jobs/start-jobs.ts';
import { createChainRegistry } from '../../server/ports/chains.ts';
import { systemClock, type Clock } from '../../server/ports/clock.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The whole service on the sandbox chains, as a wallet meets it: PGlite, the inline job queue
 * running submissions and confirmations, and real contracts. `assets` may override the sandbox
 * registry (e.g. a token offered by direct transfer only). `clock` (default the system's) is the
 * service's time everywhere, the EVM adapter's included, so a test can move time on.
 */
export interface GatewayEnv {
  t: TestApp;
  chains: SandboxChains;
  jobs: RunningJobs;
  close(): Promise<void>;
}

/** `extraRoutes` is passed to the app as is (e.g. the sandbox router, for tools that need `/sandbox`). */
export async function startGatewayEnv(
  opts: { chains?: SandboxChains; assets?: (a: AssetConfig[]) => AssetConfig[]; quoteTtlS?: number; extraRoutes?: RequestHandler; clock?: Clock } = {},
): Promise<GatewayEnv> {
  const chains = opts.chains ?? (await createSandboxChains());
  const storage = await createPostgresStorage({ embedded: true });
  const assets = createAssetRegistry((opts.assets ?? ((a) => a))(chains.assetConfigs()));
  const evm = chains.evm;
  const clock = opts.clock ?? systemClock;
  const registry = createChainRegistry([
    createEvmChainAdapter([
      { caip2: evm.caip2, provider: evm.ethersProvider, relayer: new Wallet(evm.relayer.privateKey, evm.ethersProvider), permit2: evm.permit2Address, confirmations: 1, clock },
    ]),
    createSolanaChainAdapter([{ caip2: chains.solana.caip2, connection: chains.solana.connection, feePayer: chains.solana.feePayer }]),
  ]);
  const logger = pino({ level: 'silent' });
  let notify = () => {};
  const jobs = await startJobs({
    storage,
    queue: createInlineQueue({ clock }),
    handlers: buildJobHandlers({ storage, clock, logger, assets, chains: registry, webhooks: webhookSettings({ allowLoopback: false }).delivery }),
    clock,
    logger,
    relayIntervalMs: 200,
  });
  notify = () => jobs.relay.notify();
  const t = await startTestApp(storage, {
    clock,
    assets,
    chains: registry,
    prices: createPriceTable(),
    payBaseUrl: 'https://pay.example.test',
    onJobsWritten: () => notify(),
    ...(opts.quoteTtlS ? { quoteTtlS: opts.quoteTtlS } : {}),
    ...(opts.extraRoutes ? { extraRoutes: opts.extraRoutes } : {}),
  });
  return {
    t,
    chains,
    jobs,
    async close() {
      await jobs.stop();
      await t.close();
      await storage.close();
      if (!opts.chains) await chains.close();
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
export async function sandboxMerchant(t: TestApp, assetIds: string[]): Promise<{ merchantId: string; destination: string }> {
  const destination = Wallet.createRandom().address;
  const m = await t.call('POST', '/v1/merchants', {
    key: t.a.key,
    headers: { 'Idempotency-Key': `gm-${Math.random()}` },
    body: { merchantName: 'Sandbox Shop', merchantEmail: 'shop@sandbox.test' },
  });
  const merchantId = m.body.merchant.id as string;
  const s = await t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
    key: t.a.key,
    headers: { 'Idempotency-Key': `gs-${Math.random()}` },
    body: { settlements: assetIds.map((asset) => ({ asset, destination: `${asset.split('/')[0]}:${destination}` })) },
  });
  if (s.status !== 201) throw new Error(JSON.stringify(s.body));
  return { merchantId, destination };
}
