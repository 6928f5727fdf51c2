// A buyer paying two payments' direct transfers in ONE transaction (a batch: a smart wallet's
// execute, here Multicall3 moving the buyer's tokens by transferFrom), each inner transfer carrying
// its own option's tag. Both merchants are paid, so both payments must count as paid: the first by
// its confirm, the second (whose confirm finds the transaction already on the first) by the
// late-funds watcher, which records a transaction on a second payment only when its transfers
// cover every payment recorded with it. One transfer carrying two tags pays one of them, never both.
import { Contract, Interface, Wallet, type HDNodeWallet } from 'ethers';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MULTICALL3_ADDRESS } from '../adapters/chains/evm/multicall.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { createAssetRegistry, type AssetConfig } from '../server/domain/assets.ts';
import { lateFundsJob, lateFundsJobId, LATE_FUNDS_JOB_TYPE } from '../server/domain/payments/late-funds-job.ts';
import { createChainRegistry } from '../server/ports/chains.ts';
import { chainTime } from './helpers/chain-time.ts';
import { sandboxMerchant, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import { waitFor } from './helpers/wait-for.ts';

let chains: SandboxChains;
let env: GatewayEnv;
let usdt: string;
const time = chainTime(() => chains.evm);
const { clock } = time;
const FINAL_DEPTH = 3;
const AMOUNT = 7_000_000n;
const assetsOf = (a: AssetConfig[]): AssetConfig[] => a.map((x) => (x.symbol === 'USDT' ? { ...x, flows: ['transfer' as const] } : x));

beforeAll(async () => {
  chains = await createSandboxChains();
  // No watcher scheduled: the test runs its passes itself.
  env = await startGatewayEnv({ chains, clock, evm: { finality: { kind: 'depth', blocks: FINAL_DEPTH } }, assets: assetsOf });
  usdt = chains.assetConfigs().find((a) => a.symbol === 'USDT')!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

const token = () => usdt.split(':').pop()!;
const mineFinal = () => time.mine(FINAL_DEPTH);
/** The service's clock and the chain's moved on together: past the quotes' deadlines, where the watcher looks. */
const travel = (ms: number) => time.travel(ms, FINAL_DEPTH);
const erc20 = new Interface(['function transferFrom(address,address,uint256)', 'function approve(address,uint256)']);

/** A payment of 7 USD at a merchant of its own (or the given one), quoted to `buyer`: its id, destination, option and tag. */
async function quoted(buyer: HDNodeWallet, merchant?: { merchantId: string; destination: string }) {
  const { t } = env;
  const m = merchant ?? (await sandboxMerchant(t, [usdt]));
  const created = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': m.merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '700' }, referenceId: `batch-${Math.random()}` },
  });
  const id = created.body.paymentId as string;
  const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${buyer.address}`] } });
  const option = opts.body.options[0] as { id: string; actions: Array<{ data: { params: Array<{ data: string }> } }> };
  return { id, merchant: m, destination: m.destination, optionId: option.id, reference: option.actions[0]!.data.params[0]!.data.slice(-64) };
}

async function buyerWithAllowance(): Promise<HDNodeWallet> {
  const buyer = Wallet.createRandom().connect(chains.evm.ethersProvider);
  await chains.evm.fund(buyer.address, token(), 50_000_000n);
  await chains.evm.fund(buyer.address, null, 10n ** 17n);
  const approved = await buyer.sendTransaction({ to: token(), data: erc20.encodeFunctionData('approve', [MULTICALL3_ADDRESS, 50_000_000n]) });
  await approved.wait();
  return buyer;
}

/** One transaction of the buyer: Multicall3 runs each transferFrom(buyer, to, value), its calldata followed by the tags given. */
async function batch(buyer: HDNodeWallet, transfers: Array<{ to: string; value: bigint; tags: string[] }>): Promise<string> {
  const calls = transfers.map((x) => ({
    target: token(),
    allowFailure: false,
    callData: `${erc20.encodeFunctionData('transferFrom', [buyer.address, x.to, x.value])}${x.tags.join('')}`,
  }));
  const multicall = new Contract(
    MULTICALL3_ADDRESS,
    ['function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[])'],
    buyer,
  );
  const sent = (await multicall.getFunction('aggregate3').send(calls)) as { hash: string; wait(): Promise<unknown> };
  await sent.wait();
  return sent.hash.toLowerCase();
}

const confirm = (id: string, optionId: string, txId: string) =>
  env.t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=5000`, { key: env.t.a.walletKey, body: { optionId, results: [{ type: 'walletRpc', data: [txId] }] } });

function watcherPass() {
  const handler = lateFundsJob({
    storage: env.t.storage,
    clock,
    logger: pino({ level: 'silent' }),
    assets: createAssetRegistry(assetsOf(chains.assetConfigs())),
    chains: createChainRegistry(env.ports),
  });
  return handler({ id: lateFundsJobId(chains.evm.caip2), type: LATE_FUNDS_JOB_TYPE, payload: { chain: chains.evm.caip2 }, runAt: new Date(clock.now()) });
}

const status = async (id: string) => (await env.t.storage.payments.get(id))!;

it('one batch transaction paying two payments’ tagged transfers to two merchants counts as paying both (before: the second stayed unpaid, its merchant paid)', async () => {
  const buyer = await buyerWithAllowance();
  const first = await quoted(buyer);
  const second = await quoted(buyer);
  const txId = await batch(buyer, [
    { to: first.destination, value: AMOUNT, tags: [first.reference] },
    { to: second.destination, value: AMOUNT, tags: [second.reference] },
  ]);
  expect((await confirm(first.id, first.optionId, txId)).status).toBe(200);
  await mineFinal();
  await waitFor('the first paid', async () => (await status(first.id)).status === 'succeeded', 20_000);
  // The wallet confirms the second with the same transaction: already recorded on the first.
  const again = await confirm(second.id, second.optionId, txId);
  expect(again.body).toMatchObject({ code: 'transaction_already_used' });
  expect(await chains.evm.balanceOf(second.destination, token())).toBe(AMOUNT);
  // The watcher finds the second payment's tagged transfer in that final transaction, and the transaction covers both.
  await travel(400_000);
  await watcherPass();
  await watcherPass();
  // Both rows hold the transaction: the second as shared (the unique index admits one unshared row per transaction).
  expect(await status(second.id)).toMatchObject({ status: 'succeeded', txId, finality: 'final' });
  expect(await status(first.id)).toMatchObject({ status: 'succeeded', txId });
}, 90_000);

it('one transfer carrying two payments’ tags pays one of them only: the second is never counted paid by it', async () => {
  const buyer = await buyerWithAllowance();
  const merchant = await sandboxMerchant(env.t, [usdt]);
  const first = await quoted(buyer, merchant);
  const second = await quoted(buyer, merchant);
  // One amount to the shared destination, both tags in the calldata.
  const txId = await batch(buyer, [{ to: merchant.destination, value: AMOUNT, tags: [first.reference, second.reference] }]);
  expect((await confirm(first.id, first.optionId, txId)).status).toBe(200);
  await mineFinal();
  await waitFor('the first paid', async () => (await status(first.id)).status === 'succeeded', 20_000);
  await travel(400_000);
  await watcherPass();
  await watcherPass();
  expect(['requires_action', 'expired']).toContain((await status(second.id)).status);
  expect(await chains.evm.balanceOf(merchant.destination, token())).toBe(AMOUNT);
}, 90_000);
