import { Keypair } from '@solana/web3.js';
import { Wallet, type HDNodeWallet } from 'ethers';
import { pino } from 'pino';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { createInlineQueue } from '../../adapters/queue/inline/index.ts';
import { createEvmChainAdapter } from '../../adapters/chains/evm/gateway-adapter.ts';
import { createSolanaChainAdapter } from '../../adapters/chains/solana/gateway-adapter.ts';
import { createSandboxChains, type SandboxChains } from '../../server/composition/sandbox/index.ts';
import { createAssetRegistry } from '../../server/domain/assets.ts';
import { createPriceTable } from '../../server/domain/prices.ts';
import { buildJobHandlers } from '../../server/jobs/handlers.ts';
import { webhookSettings } from '../../server/composition/webhooks.ts';
import { startJobs, type RunningJobs } from '../../server/jobs/start-jobs.ts';
import { createExpirySweep } from '../../server/jobs/expiry-sweep.ts';
import { createChainRegistry } from '../../server/ports/chains.ts';
import { systemClock, type Clock } from '../../server/ports/clock.ts';
import { signTypedDataParams } from '../../test/helpers/gateway-env.ts';
import { startTestApp, type TestApp, type TestPartner } from '../../test/helpers/test-app.ts';

/**
 * The real service (createApp over PGlite, the inline job queue, the sandbox EVM and Solana chains)
 * as `test/helpers/gateway-env.ts` builds it, with one difference: the app's clock can be moved
 * ahead, so provider states can put a quote or a payment past its deadline without waiting, and
 * responses are not validated against the OpenAPI document (as in production).
 * The chains and the job runner keep real time; only what the HTTP API sees as "now" moves.
 */
export interface ProviderEnv {
  t: TestApp;
  chains: SandboxChains;
  /** Moves the API's clock `ms` ahead of real time (0: back to real time). */
  timeTravel(ms: number): void;
  close(): Promise<void>;
}

export async function startProviderEnv(): Promise<ProviderEnv> {
  const chains = await createSandboxChains();
  const storage = await createPostgresStorage({ embedded: true });
  const assets = createAssetRegistry(chains.assetConfigs());
  const evm = chains.evm;
  const registry = createChainRegistry([
    createEvmChainAdapter([
      { caip2: evm.caip2, provider: evm.ethersProvider, relayer: new Wallet(evm.relayer.privateKey, evm.ethersProvider), permit2: evm.permit2Address, confirmations: 1 },
    ]),
    createSolanaChainAdapter([{ caip2: chains.solana.caip2, connection: chains.solana.connection, feePayer: chains.solana.feePayer, openDestinationAccounts: true }]),
  ]);
  const logger = pino({ level: 'silent' });
  let offset = 0;
  const clock: Clock = { now: () => Date.now() + offset };
  const jobs: RunningJobs = await startJobs({
    storage,
    queue: createInlineQueue({ clock: systemClock }),
    handlers: buildJobHandlers({ storage, clock: systemClock, logger, assets, chains: registry, webhooks: webhookSettings({ allowLoopback: false }).delivery }),
    clock: systemClock,
    logger,
    relayIntervalMs: 200,
    loops: [createExpirySweep({ storage, clock: systemClock, logger, assets })],
  });
  // Responses go out as the service sends them in production (no response validation against the
  // spec), so a renamed field reaches the consumer's expectations instead of turning into a 500.
  const t = await startTestApp(storage, {
    validateResponses: false,
    clock,
    assets,
    chains: registry,
    prices: createPriceTable(),
    payBaseUrl: 'https://pay.example.test',
    onJobsWritten: () => jobs.relay.notify(),
  });
  return {
    t,
    chains,
    timeTravel(ms) {
      offset = ms;
    },
    async close() {
      await jobs.stop();
      await t.close();
      await storage.close();
      await chains.close();
    },
  };
}

/** Data the state handlers build through the public API, as a partner would. */
/** The parts of a gateway option the provider states use. */
interface OfferedOption {
  id: string;
  actions: Array<{ type: 'walletRpc'; data: { params: unknown[] } } | { type: 'build'; data: { data: string } }>;
}

export class Seeder {
  private readonly env: ProviderEnv;

  constructor(env: ProviderEnv) {
    this.env = env;
  }

  get t(): TestApp {
    return this.env.t;
  }

  /** The sandbox's USDC on its EVM chain (EIP-3009) and on its Solana chain. */
  asset(kind: 'evm' | 'solana'): string {
    const configs = this.env.chains.assetConfigs();
    const found = configs.find((a) => a.symbol === 'USDC' && a.id.startsWith(kind === 'evm' ? 'eip155:' : 'solana:'));
    if (!found) throw new Error(`the sandbox has no ${kind} USDC`);
    return found.id;
  }

  private async ok(method: string, path: string, key: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
    const r = await this.t.call(method, path, { key, body, headers });
    if (r.status >= 300) throw new Error(`provider state setup: ${method} ${path} answered ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  async merchant(
    partner: TestPartner,
    idempotencyKey = `seed-${crypto.randomUUID()}`,
    body: Record<string, unknown> = { merchantName: 'Acme Store', merchantEmail: 'billing@acme.store' },
  ): Promise<string> {
    return (await this.ok('POST', '/v1/merchants', partner.key, body, { 'Idempotency-Key': idempotencyKey })).merchant.id as string;
  }

  /** A merchant settled in the sandbox USDC; returns its id and the settlement's. */
  async settledMerchant(partner: TestPartner, kind: 'evm' | 'solana' = 'evm'): Promise<{ merchantId: string; settlementId: string }> {
    const merchantId = await this.merchant(partner);
    const address = kind === 'evm' ? Wallet.createRandom().address : Keypair.generate().publicKey.toBase58();
    const asset = this.asset(kind);
    const r = await this.ok(
      'POST',
      `/v1/merchants/${merchantId}/settlements/crypto`,
      partner.key,
      { settlements: [{ asset, destination: `${asset.split('/')[0]}:${address}` }] },
      { 'Idempotency-Key': `seed-${crypto.randomUUID()}` },
    );
    return { merchantId, settlementId: r.settlements[0].id as string };
  }

  async payment(partner: TestPartner, merchantId: string, extra: Record<string, unknown> = {}): Promise<string> {
    const body = { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `order-${crypto.randomUUID().slice(0, 8)}`, expiresAt: null, ...extra };
    return (await this.ok('POST', '/v1/payments', partner.key, body, { 'Merchant-Id': merchantId })).paymentId as string;
  }

  /** A buyer on the sandbox EVM chain holding 100 USDC (no ETH: EIP-3009 needs none). */
  async evmBuyer(): Promise<HDNodeWallet> {
    const evm = this.env.chains.evm;
    const wallet = Wallet.createRandom().connect(evm.ethersProvider);
    await evm.fund(wallet.address, this.asset('evm').split(':').pop()!, 100_000_000n);
    return wallet;
  }

  /** A buyer on the sandbox Solana chain holding 100 USDC. */
  solanaBuyer(): Keypair {
    const k = Keypair.generate();
    this.env.chains.solana.fund(k.publicKey.toBase58(), this.env.chains.solana.mint.toBase58(), 100_000_000n);
    return k;
  }

  async options(partner: TestPartner, paymentId: string, account: string): Promise<OfferedOption[]> {
    const answer: { options: OfferedOption[] } = await this.ok('POST', `/v1/gateway/payment/${paymentId}/options`, partner.walletKey, { accounts: [account] });
    return answer.options;
  }

  /** What a wallet holds before confirm: the EIP-3009 option of a payable payment and its signature. */
  async signedEvmOption(partner: TestPartner, paymentId: string): Promise<{ optionId: string; signature: string; account: string }> {
    const buyer = await this.evmBuyer();
    const account = `${this.env.chains.evm.caip2}:${buyer.address}`;
    const [option] = await this.options(partner, paymentId, account);
    if (!option) throw new Error('provider state setup: no EVM option offered');
    const action = option.actions[0];
    if (action?.type !== 'walletRpc') throw new Error('provider state setup: expected a walletRpc action');
    const signature = await signTypedDataParams(buyer, action.data.params);
    return { optionId: option.id, signature, account };
  }

  /** Pays the payment on the sandbox EVM chain through the gateway, waiting until it succeeded. */
  async pay(partner: TestPartner, paymentId: string): Promise<void> {
    const { optionId, signature } = await this.signedEvmOption(partner, paymentId);
    const r = await this.ok('POST', `/v1/gateway/payment/${paymentId}/confirm?maxPollMs=20000`, partner.walletKey, {
      optionId,
      results: [{ type: 'walletRpc', data: [signature] }],
    });
    if (r.status !== 'succeeded') throw new Error(`provider state setup: payment ended ${JSON.stringify(r)}`);
  }
}
