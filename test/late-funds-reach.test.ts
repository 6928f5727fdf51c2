// The late-funds watcher's long reach on the sandbox EVM, its handler run by hand one pass at a time:
// - a second tagged transfer for a payment that succeeded days ago (past the last hour's window) is
//   still told, exactly once: the reach (LATE_FUNDS_REACH_DAYS) covers succeeded payments too, and
//   the purge keeps their tagged quotes for it;
// - a pass reads the chain's final head once, however many quotes it looks at.
import { BrowserProvider, Wallet, type HDNodeWallet } from 'ethers';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemoryMetrics } from '../adapters/metrics/memory/index.ts';
import { createEvmChainAdapter } from '../adapters/chains/evm/gateway-adapter.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { createAssetRegistry, type AssetConfig } from '../server/domain/assets.ts';
import { lateFundsJob, lateFundsJobId, LATE_FUNDS_JOB_TYPE } from '../server/domain/payments/late-funds-job.ts';
import { maintenanceJob } from '../server/jobs/maintenance.ts';
import { createChainRegistry, type ChainPort } from '../server/ports/chains.ts';
import { chainTime, fundedBuyer, sendTransfer } from './helpers/chain-time.ts';
import { sandboxMerchant, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import { waitFor } from './helpers/wait-for.ts';

let chains: SandboxChains;
let env: GatewayEnv;
let usdt: string;
const time = chainTime(() => chains.evm);
const { clock, travel } = time;
const metrics = createMemoryMetrics();
const logger = pino({ level: 'silent' });
const FINAL_DEPTH = 3;
const AMOUNT = 7_000_000n;
const DAY = 86_400_000;
// USDT by direct transfer only: every option is a tagged transfer.
const assetsOf = (a: AssetConfig[]): AssetConfig[] => a.map((x) => (x.symbol === 'USDT' ? { ...x, flows: ['transfer' as const] } : x));

beforeAll(async () => {
  chains = await createSandboxChains();
  // No watcher scheduled: each test runs its passes itself.
  env = await startGatewayEnv({ chains, clock, evm: { finality: { kind: 'depth', blocks: FINAL_DEPTH } }, assets: assetsOf });
  usdt = chains.assetConfigs().find((a) => a.symbol === 'USDT')!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

const token = () => usdt.split(':').pop()!;
const mineFinal = () => time.mine(FINAL_DEPTH);
const funded = () => fundedBuyer(chains.evm, [token()]);
const send = (wallet: HDNodeWallet, to: string, value: bigint, reference: string) => sendTransfer(wallet, token(), to, value, reference);

/** A payment of 7 USD with its merchant, and an option (the tagged transfer) per buyer asking. */
async function payment() {
  const { t } = env;
  const { merchantId, destination } = await sandboxMerchant(t, [usdt]);
  const created = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '700' }, referenceId: `reach-${Math.random()}`, expiresAt: Math.floor(clock.now() / 1000) + 600 },
  });
  expect(created.status).toBe(201);
  const id = created.body.paymentId as string;
  const quote = async () => {
    const buyer = await funded();
    const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${buyer.address}`] } });
    const option = opts.body.options[0] as { id: string; actions: Array<{ data: { params: Array<{ data: string }> } }> };
    return { buyer, optionId: option.id, reference: `0x${option.actions[0]!.data.params[0]!.data.slice(-64)}` };
  };
  const details = () => t.call('GET', `/v1/payments/${id}`, { key: t.a.key, headers: { 'Merchant-Id': merchantId } });
  return { id, destination, quote, details };
}

/** One pass of the watcher over the sandbox EVM chain, on the given adapters. */
function watcher(ports: ChainPort[]) {
  const handler = lateFundsJob({
    storage: env.t.storage,
    clock,
    logger,
    metrics,
    assets: createAssetRegistry(assetsOf(chains.assetConfigs())),
    chains: createChainRegistry(ports),
  });
  return () => handler({ id: lateFundsJobId(chains.evm.caip2), type: LATE_FUNDS_JOB_TYPE, payload: { chain: chains.evm.caip2 }, runAt: new Date(clock.now()) });
}

const paidTwiceCount = async () => {
  const line = (await metrics.exposition()).text.split('\n').find((l) => l.startsWith('payment_paid_twice_total'));
  return line ? Number(line.split(' ').pop()) : 0;
};

it('a pass reads the final head once for all its quotes (before: once per quote and page, 2 × quotes)', async () => {
  // The watcher's own adapter over a provider that counts what it asks the node.
  const counts = new Map<string, number>();
  const counting = {
    request: (args: { method: string; params?: unknown[] }) => {
      counts.set(args.method, (counts.get(args.method) ?? 0) + 1);
      return chains.evm.provider.request({ method: args.method, params: args.params ?? [] });
    },
  };
  const provider = new BrowserProvider(counting, 31337, { staticNetwork: true, cacheTimeout: -1 });
  const adapter = createEvmChainAdapter([
    {
      caip2: chains.evm.caip2,
      provider,
      relayer: new Wallet(chains.evm.relayer.privateKey, provider),
      permit2: chains.evm.permit2Address,
      confirmations: 1,
      clock,
      finality: { kind: 'depth', blocks: FINAL_DEPTH },
    },
  ]);
  const QUOTES = 4;
  const payments = [];
  for (let i = 0; i < QUOTES; i++) payments.push(await payment());
  for (const p of payments) await p.quote();
  // Expired, past their deadlines: in the last hour's window and in the long reach, each quote is looked at twice a pass.
  await travel(700_000);
  await mineFinal();
  for (const p of payments) await waitFor('expired', async () => (await p.details()).body.status === 'expired', 10_000);
  const pass = watcher([adapter]);
  counts.clear();
  await pass();
  // The quotes were really searched: their logs read, each from its own start block.
  expect(counts.get('eth_getLogs') ?? 0).toBeGreaterThanOrEqual(QUOTES);
  expect(counts.get('eth_blockNumber') ?? 0).toBe(1);
  counts.clear();
  await pass();
  expect(counts.get('eth_blockNumber') ?? 0).toBe(1);
}, 90_000);

it('a second tagged transfer two days after a succeeded payment’s deadline is told exactly once, for its chosen option and another it quoted (before: only within an hour of the deadline)', async () => {
  const p = await payment();
  const chosen = await p.quote();
  const other = await p.quote();
  const first = await send(chosen.buyer, p.destination, AMOUNT, chosen.reference);
  const confirmed = await env.t.call('POST', `/v1/gateway/payment/${p.id}/confirm?maxPollMs=5000`, {
    key: env.t.a.walletKey,
    body: { optionId: chosen.optionId, results: [{ type: 'walletRpc', data: [first] }] },
  });
  expect(confirmed.status).toBe(200);
  await mineFinal();
  await waitFor('paid by the confirmed transfer', async () => (await p.details()).body.status === 'succeeded', 20_000);

  // Two days past the deadline; the maintenance purge runs as it does every ten minutes.
  await travel(2 * DAY + 700_000);
  const purge = maintenanceJob({ storage: env.t.storage, clock, logger });
  await purge({ id: 'job_maintenance_purge', type: 'maintenance.purge', payload: {}, runAt: new Date(clock.now()) });
  expect(await env.t.storage.quotes.get(p.id, other.optionId), 'the unchosen tagged quote is kept for the reach').not.toBeNull();

  const before = await paidTwiceCount();
  const again = await send(chosen.buyer, p.destination, AMOUNT, chosen.reference);
  const byOther = await send(other.buyer, p.destination, AMOUNT, other.reference);
  await mineFinal();
  const pass = watcher(env.ports);
  for (let i = 0; i < 3; i++) await pass();
  // Read from the record: which versions show `extraPayments` is the wire's business (late-funds-paid-twice.test.ts).
  const after = (await env.t.storage.payments.get(p.id))!;
  expect(after).toMatchObject({ status: 'succeeded', txId: first });
  expect((after.extraPayments ?? []).map((e) => e.txId).sort()).toEqual([again, byOther].sort());
  expect((await env.t.storage.payments.events(p.id)).filter((e) => e.type === 'payment.paid_twice')).toHaveLength(2);
  expect((await paidTwiceCount()) - before).toBe(2);
}, 90_000);
