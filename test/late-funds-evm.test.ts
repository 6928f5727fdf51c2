// Late funds on the sandbox EVM: a buyer sends the option's tagged transfer after the payment
// expired. The merchant has the money, so the payment counts as paid with that transaction, once
// its block is final, and the partner hears `payment.succeeded`. Transfers that could not have
// paid the option (short, elsewhere, another token, untagged) never do; a tagged one from another
// account (the buyer's other wallet, an exchange withdrawal carrying the tag) does.
import { Wallet } from 'ethers';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { maintenanceJob } from '../server/jobs/maintenance.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { chainTime, fundedBuyer, sendTransfer as send } from './helpers/chain-time.ts';
import { sandboxMerchant, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import { waitFor } from './helpers/wait-for.ts';
import { startReceiver } from './webhooks-support.ts';

let chains: SandboxChains;
let env: GatewayEnv;
let usdt: string;
let usdc: string;
// The service's clock, moved on together with the chain's by `travel`.
const time = chainTime(() => chains.evm);
const { clock, travel, mine } = time;
const FINAL_DEPTH = 3;

beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({
    chains,
    clock,
    webhooks: { schedule: [0, 300, 300] },
    evm: { finality: { kind: 'depth', blocks: FINAL_DEPTH } },
    // One quote per run: the payment paid late is not the oldest ended one, so the watcher must page past it.
    lateFunds: { intervalMs: 200, batch: 1 },
    // USDT by direct transfer only: the option is the tagged transfer.
    assets: (a) => a.map((x) => (x.symbol === 'USDT' ? { ...x, flows: ['transfer'] } : x)),
  });
  usdt = chains.assetConfigs().find((a) => a.symbol === 'USDT')!.id;
  usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

const tokenOf = (assetId: string) => assetId.split(':').pop()!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const funded = () => fundedBuyer(chains.evm, [tokenOf(usdt), tokenOf(usdc)]);

it('a tagged transfer after expiry pays the payment once final (webhook, details, balance); hostile transfers never do', async () => {
  const { t } = env;
  const rx = await startReceiver();
  expect((await t.call('POST', '/v1/webhook-endpoints', { key: t.a.key, body: { url: rx.url(), enabledEvents: ['payment.succeeded'] } })).status).toBe(201);
  const { merchantId, destination } = await sandboxMerchant(t, [usdt]);
  const newPayment = async (ttlS: number) => {
    const r = await t.call('POST', '/v1/payments', {
      key: t.a.key,
      headers: { 'Merchant-Id': merchantId },
      body: { amount: { unit: 'iso4217/USD', value: '700' }, referenceId: `late-${Math.random()}`, expiresAt: Math.floor(clock.now() / 1000) + ttlS },
    });
    expect(r.status).toBe(201);
    return r.body.paymentId as string;
  };
  // An older payment quoted to another buyer, which expires too and is never paid.
  const older = await newPayment(590);
  const olderOptions = await t.call('POST', `/v1/gateway/payment/${older}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${Wallet.createRandom().address}`] } });
  expect(olderOptions.body.options).toHaveLength(1);
  const created = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '700' }, referenceId: `late-${Math.random()}`, expiresAt: Math.floor(clock.now() / 1000) + 600 },
  });
  expect(created.status).toBe(201);
  const id = created.body.paymentId as string;
  const buyer = await funded();
  const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${buyer.address}`] } });
  const option = opts.body.options[0] as { id: string; actions: Array<{ data: { params: Array<{ to: string; data: string }> } }> };
  // The option's own transaction: the tag is the calldata's last 32 bytes.
  const reference = `0x${option.actions[0]!.data.params[0]!.data.slice(-64)}`;
  const amount = 7_000_000n;

  // The buyer never confirms; the payment expires.
  await travel(700_000);
  const details = () => t.call('GET', `/v1/payments/${id}`, { key: t.a.key, headers: { 'Merchant-Id': merchantId } });
  expect((await details()).body.status).toBe('expired');
  const olderDetails = () => t.call('GET', `/v1/payments/${older}`, { key: t.a.key, headers: { 'Merchant-Id': merchantId } });
  expect((await olderDetails()).body.status).toBe('expired');

  // Hostile or mistaken transfers, all after the quote: none can pay the option.
  await send(buyer, tokenOf(usdt), destination, amount - 1n, reference); // one base unit short
  await send(buyer, tokenOf(usdt), Wallet.createRandom().address, amount, reference); // to another address
  await send(buyer, tokenOf(usdc), destination, amount, reference); // another token
  await send(buyer, tokenOf(usdt), destination, amount); // no tag
  await mine(FINAL_DEPTH);
  await sleep(2_000);
  expect((await details()).body.status).toBe('expired');

  // The buyer's late, exact, tagged transfer: mined, but not final yet, it does not count.
  const paid = await send(buyer, tokenOf(usdt), destination, amount, reference);
  await sleep(1_500);
  expect((await details()).body.status).toBe('expired');
  await mine(FINAL_DEPTH - 1);
  await waitFor('the late transfer paid the payment', async () => (await details()).body.status === 'succeeded', 20_000);

  const after = (await details()).body;
  expect(after).toMatchObject({ status: 'succeeded', info: { txId: paid, optionAmount: { unit: `caip19/${usdt}`, value: amount.toString() } } });
  // On chain the merchant holds what was really sent to it: the short transfer, the untagged one and the paying one.
  expect(await chains.evm.balanceOf(destination, tokenOf(usdt))).toBe(3n * amount - 1n);
  await waitFor('payment.succeeded delivered', async () => rx.received.length > 0, 20_000);
  const told = rx.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> }).filter((e) => e.data.paymentId === id);
  expect(told.map((e) => e.type)).toEqual(['payment.succeeded']);
  expect(told[0]!.data).toMatchObject({ status: 'succeeded', info: { txId: paid } });
  expect((await olderDetails()).body.status).toBe('expired');
  await rx.stop();
}, 90_000);

it('a tagged transfer from another account than the quoted one (the buyer’s other wallet, an exchange) pays the expired payment once final (before: stayed expired)', async () => {
  const { t } = env;
  const { merchantId, destination } = await sandboxMerchant(t, [usdt]);
  const created = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '700' }, referenceId: `late-other-${Math.random()}`, expiresAt: Math.floor(clock.now() / 1000) + 600 },
  });
  const id = created.body.paymentId as string;
  // Quoted to an account that never pays: the funds come from elsewhere, with the option's tag.
  const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${Wallet.createRandom().address}`] } });
  const option = opts.body.options[0] as { actions: Array<{ data: { params: Array<{ data: string }> } }> };
  const reference = `0x${option.actions[0]!.data.params[0]!.data.slice(-64)}`;
  await travel(700_000);
  const details = () => t.call('GET', `/v1/payments/${id}`, { key: t.a.key, headers: { 'Merchant-Id': merchantId } });
  expect((await details()).body.status).toBe('expired');
  const other = await funded();
  // Short by one unit from the other account: nothing.
  await send(other, tokenOf(usdt), destination, 6_999_999n, reference);
  const paid = await send(other, tokenOf(usdt), destination, 7_000_000n, reference);
  await mine(FINAL_DEPTH);
  await waitFor('the other account’s tagged transfer paid the payment', async () => (await details()).body.status === 'succeeded', 20_000);
  expect((await details()).body).toMatchObject({ status: 'succeeded', info: { txId: paid } });
}, 90_000);

it('a tagged transfer two days after the payment expired still pays it: the maintenance purge keeps the quote within the late-funds reach (before: purged after an hour, stayed expired)', async () => {
  const { t } = env;
  const { merchantId, destination } = await sandboxMerchant(t, [usdt]);
  const created = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '700' }, referenceId: `late-days-${Math.random()}`, expiresAt: Math.floor(clock.now() / 1000) + 600 },
  });
  const id = created.body.paymentId as string;
  const buyer = await funded();
  const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${buyer.address}`] } });
  const option = opts.body.options[0] as { id: string; actions: Array<{ data: { params: Array<{ data: string }> } }> };
  const reference = `0x${option.actions[0]!.data.params[0]!.data.slice(-64)}`;
  await travel(700_000);
  const details = () => t.call('GET', `/v1/payments/${id}`, { key: t.a.key, headers: { 'Merchant-Id': merchantId } });
  expect((await details()).body.status).toBe('expired');
  // Two days on; the maintenance purge runs as it does every ten minutes.
  await travel(2 * 86_400_000);
  const purge = maintenanceJob({ storage: t.storage, clock, logger: pino({ level: 'silent' }) });
  await purge({ id: 'job_maintenance_purge', type: 'maintenance.purge', payload: {}, runAt: new Date(clock.now()) });
  expect(await t.storage.quotes.get(id, option.id), 'the quote is kept for the late-funds reach').not.toBeNull();
  const paid = await send(buyer, tokenOf(usdt), destination, 7_000_000n, reference);
  await mine(FINAL_DEPTH);
  await waitFor('the transfer two days late paid the payment', async () => (await details()).body.status === 'succeeded', 20_000);
  expect((await details()).body).toMatchObject({ status: 'succeeded', info: { txId: paid } });
}, 90_000);
