// Paid twice on the sandbox EVM: a payment already succeeded whose merchant is paid again by a
// second tagged transfer for one of its options. The funds are the merchant's (the service holds
// none), so the partner must be told: `extraPayments` on details, a `payment.paid_twice` event, a
// counter. Only final, exact, tagged transfers count, and each only once. And an EIP-3009
// authorization the service never got (or let go) that someone else submits: it pays an expired
// payment, or pays a succeeded one twice.
import { Contract, Interface, Signature, Wallet, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemoryMetrics } from '../adapters/metrics/memory/index.ts';
import { MULTICALL3_ADDRESS } from '../adapters/chains/evm/multicall.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { chainTime, fundedBuyer, sendTransfer } from './helpers/chain-time.ts';
import { sandboxMerchant, signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import type { TestPartner } from './helpers/test-app.ts';
import { waitFor } from './helpers/wait-for.ts';
import { startReceiver } from './webhooks-support.ts';

let chains: SandboxChains;
let env: GatewayEnv;
let usdt: string;
let usdc: string;
const time = chainTime(() => chains.evm);
const { clock, travel } = time;
const metrics = createMemoryMetrics();
const FINAL_DEPTH = 3;
const AMOUNT = 7_000_000n;

beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({
    chains,
    clock,
    metrics,
    webhooks: { schedule: [0, 300, 300] },
    evm: { finality: { kind: 'depth', blocks: FINAL_DEPTH } },
    lateFunds: { intervalMs: 200, batch: 5 },
    assets: (a) => a.map((x) => (x.symbol === 'USDT' ? { ...x, flows: ['transfer'] } : x)),
  });
  usdt = chains.assetConfigs().find((a) => a.symbol === 'USDT')!.id;
  usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

const token = () => usdt.split(':').pop()!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mineFinal = () => time.mine(FINAL_DEPTH);
const funded = () => fundedBuyer(chains.evm, [token()]);
const send = (wallet: HDNodeWallet, to: string, value: bigint, reference?: string) => sendTransfer(wallet, token(), to, value, reference);

/** A payment of 7 USD quoted to a fresh buyer by direct transfer: its id, the option and the option's tag. */
async function quoted(p: TestPartner) {
  const { t } = env;
  const { merchantId, destination } = await sandboxMerchant(t, [usdt], p.key);
  const created = await t.call('POST', '/v1/payments', {
    key: p.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '700' }, referenceId: `twice-${Math.random()}`, expiresAt: Math.floor(clock.now() / 1000) + 600 },
  });
  expect(created.status).toBe(201);
  const id = created.body.paymentId as string;
  const buyer = await funded();
  const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: p.walletKey, body: { accounts: [`eip155:31337:${buyer.address}`] } });
  const option = opts.body.options[0] as { id: string; actions: Array<{ data: { params: Array<{ data: string }> } }> };
  const reference = `0x${option.actions[0]!.data.params[0]!.data.slice(-64)}`;
  const details = (version?: string) => t.call('GET', `/v1/payments/${id}`, { key: p.key, headers: { 'Merchant-Id': merchantId, ...(version ? { 'Svc-Version': version } : {}) } });
  return { id, merchantId, destination, buyer, optionId: option.id, reference, details };
}

const paidTwiceCount = async () => {
  const line = (await metrics.exposition()).text.split('\n').find((l) => l.startsWith('payment_paid_twice_total'));
  return line ? Number(line.split(' ').pop()) : 0;
};

const envelopes = (rx: Awaited<ReturnType<typeof startReceiver>>) =>
  rx.received.map((r) => JSON.parse(r.body) as { type: string; api_version: string; data: Record<string, unknown> });

it('(a) a second tagged transfer after the payment succeeded is told once final: extraPayments, payment.paid_twice, the counter; never a short or untagged one', async () => {
  const { t } = env;
  const partner = await t.newPartner('2026-11-28');
  const rx = await startReceiver();
  expect((await t.call('POST', '/v1/webhook-endpoints', { key: partner.key, body: { url: rx.url(), enabledEvents: ['payment.succeeded', 'payment.paid_twice'] } })).status).toBe(
    201,
  );
  const p = await quoted(partner);
  const first = await send(p.buyer, p.destination, AMOUNT, p.reference);
  const confirmed = await t.call('POST', `/v1/gateway/payment/${p.id}/confirm?maxPollMs=5000`, {
    key: partner.walletKey,
    body: { optionId: p.optionId, results: [{ type: 'walletRpc', data: [first] }] },
  });
  expect(confirmed.status).toBe(200);
  await mineFinal();
  await waitFor('paid by the confirmed transfer', async () => (await p.details()).body.status === 'succeeded', 20_000);
  const before = await paidTwiceCount();
  // The watcher looks at a quote once its deadline has passed (late-funds-job.ts): past it, every check below is a real look.
  await travel(400_000);

  // Not a second payment: one unit short, and the exact amount without the tag.
  await send(p.buyer, p.destination, AMOUNT - 1n, p.reference);
  await send(p.buyer, p.destination, AMOUNT);
  await mineFinal();
  await sleep(1_500);
  expect((await p.details()).body).not.toHaveProperty('extraPayments');

  // The buyer pays the same option again: mined but not final yet, nothing is told.
  const second = await send(p.buyer, p.destination, AMOUNT, p.reference);
  await sleep(1_000);
  expect((await p.details()).body).not.toHaveProperty('extraPayments');
  await mineFinal();
  await waitFor('the second payment told', async () => 'extraPayments' in (await p.details()).body, 20_000);
  const after = (await p.details()).body;
  expect(after).toMatchObject({ status: 'succeeded', info: { txId: first } });
  expect(after.extraPayments).toEqual([
    { txId: second, network: 'eip155:31337', amount: expect.objectContaining({ unit: `caip19/${usdt}`, value: AMOUNT.toString() }), foundAt: expect.any(String) },
  ]);
  await waitFor('payment.paid_twice delivered', async () => envelopes(rx).some((e) => e.type === 'payment.paid_twice'), 20_000);
  const told = envelopes(rx).filter((e) => e.data.paymentId === p.id);
  expect(told.map((e) => e.type)).toEqual(['payment.succeeded', 'payment.paid_twice']);
  expect(told[1]).toMatchObject({ api_version: '2026-11-28', data: { status: 'succeeded', extraPayments: [{ txId: second }] } });
  // Told once: later runs pass over what is recorded.
  await sleep(1_500);
  expect((await p.details()).body.extraPayments).toHaveLength(1);
  expect((await t.storage.payments.events(p.id)).filter((e) => e.type === 'payment.paid_twice')).toHaveLength(1);
  expect((await paidTwiceCount()) - before).toBe(1);
  expect(await chains.evm.balanceOf(p.destination, token())).toBe(4n * AMOUNT - 1n);
  await rx.stop();
}, 90_000);

it('(b) two late tagged transfers after expiry: the first pays the payment, the second is told as paid twice; an older pin sees neither field nor event', async () => {
  const { t } = env;
  const older = await t.newPartner('2026-02-18');
  const rx = await startReceiver();
  expect((await t.call('POST', '/v1/webhook-endpoints', { key: older.key, body: { url: rx.url(), enabledEvents: ['payment.succeeded'] } })).status).toBe(201);
  const refused = await t.call('POST', '/v1/webhook-endpoints', { key: older.key, body: { url: rx.url(), enabledEvents: ['payment.paid_twice'] } });
  expect(refused.status).toBe(400);
  const p = await quoted(older);
  await travel(700_000);
  expect((await p.details()).body.status).toBe('expired');

  const [one, two] = [await send(p.buyer, p.destination, AMOUNT, p.reference), await send(p.buyer, p.destination, AMOUNT, p.reference)];
  await mineFinal();
  await waitFor('the late transfers surfaced', async () => 'extraPayments' in (await p.details('2026-11-28')).body, 20_000);
  const newer = (await p.details('2026-11-28')).body;
  expect(newer).toMatchObject({ status: 'succeeded', info: { txId: one }, extraPayments: [{ txId: two }] });
  const pinned = (await p.details()).body;
  expect(pinned).toMatchObject({ status: 'succeeded', info: { txId: one } });
  expect(pinned).not.toHaveProperty('extraPayments');
  // The older pin's endpoint got what it subscribed to, in its version; never the new event or field.
  await waitFor('payment.succeeded delivered', async () => envelopes(rx).some((e) => e.data.paymentId === p.id && e.type === 'payment.succeeded'), 20_000);
  await sleep(1_000);
  const told = envelopes(rx).filter((e) => e.data.paymentId === p.id);
  expect(told.map((e) => e.type)).toEqual(['payment.succeeded']);
  expect(told.every((e) => e.api_version === '2026-02-18' && !('extraPayments' in e.data))).toBe(true);
  expect((await t.storage.payments.events(p.id)).map((e) => e.type).slice(-2)).toEqual(['payment.succeeded', 'payment.paid_twice']);
  await rx.stop();
}, 90_000);

type Option = { id: string; amount: { unit: string; value: string }; actions: Array<{ data: { method?: string; params: unknown[] } }> };

/** A payment in USDC (EIP-3009) and USDT (direct transfer) to one merchant, quoted to a fresh buyer funded in both. */
async function quotedBoth(p: TestPartner, ttlS: number) {
  const { t } = env;
  const { merchantId, destination } = await sandboxMerchant(t, [usdt, usdc], p.key);
  const created = await t.call('POST', '/v1/payments', {
    key: p.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '700' }, referenceId: `auth-${Math.random()}`, expiresAt: Math.floor(clock.now() / 1000) + ttlS },
  });
  const id = created.body.paymentId as string;
  const buyer = Wallet.createRandom().connect(chains.evm.ethersProvider);
  await chains.evm.fund(buyer.address, token(), 50_000_000n);
  await chains.evm.fund(buyer.address, usdc.split(':').pop()!, 50_000_000n);
  await chains.evm.fund(buyer.address, null, 10n ** 17n);
  const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: p.walletKey, body: { accounts: [`eip155:31337:${buyer.address}`] } });
  const options = opts.body.options as Option[];
  const signable = options.find(
    (o) => o.amount.unit === `caip19/${usdc}` && o.actions.some((a) => a.data.method === 'eth_signTypedData_v4' && String(a.data.params[1]).includes('TransferWithAuthorization')),
  );
  const transfer = options.find((o) => o.amount.unit === `caip19/${usdt}`);
  expect(signable, 'an EIP-3009 option').toBeDefined();
  expect(transfer, 'a USDT direct-transfer option').toBeDefined();
  const details = () => t.call('GET', `/v1/payments/${id}`, { key: p.key, headers: { 'Merchant-Id': merchantId } });
  return { id, destination, buyer, signable: signable!, transfer: transfer!, details };
}

/** The buyer signs the option's authorization; a stranger (who pays the gas) submits it to USDC: answers its hash once mined. */
async function submittedByStranger(buyer: HDNodeWallet, option: Option): Promise<string> {
  const action = option.actions.find((a) => a.data.method === 'eth_signTypedData_v4')!;
  const sig = Signature.from(await signTypedDataParams(buyer, action.data.params));
  const m = (JSON.parse(String(action.data.params[1])) as { message: Record<string, string> }).message;
  const stranger = Wallet.createRandom().connect(chains.evm.ethersProvider);
  await chains.evm.fund(stranger.address, null, 10n ** 17n);
  const abi = ['function transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)'];
  const fiat = new Contract(usdc.split(':').pop()!, abi, stranger);
  const sent = (await fiat.getFunction('transferWithAuthorization').send(m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, sig.v, sig.r, sig.s)) as {
    hash: string;
    wait(): Promise<unknown>;
  };
  await sent.wait();
  return sent.hash.toLowerCase();
}

it('(c) an EIP-3009 authorization the service never got, submitted by someone else, pays the payment once it expired and the block is final', async () => {
  const { t } = env;
  const p = await quotedBoth(await t.newPartner('2026-11-28'), 120);
  // The buyer signed; its wallet never confirmed; a stranger submitted the authorization while the payment was open.
  const used = await submittedByStranger(p.buyer, p.signable);
  await travel(200_000);
  expect((await p.details()).body.status).toBe('expired');
  await mineFinal();
  await waitFor('the used authorization paid the payment', async () => (await p.details()).body.status === 'succeeded', 20_000);
  expect((await p.details()).body).toMatchObject({ status: 'succeeded', info: { txId: used, optionAmount: { unit: `caip19/${usdc}` } } });
  expect((await p.details()).body).not.toHaveProperty('extraPayments');
}, 90_000);

/** A stranger submits several buyers' authorizations in one Multicall3 transaction, as a relayer batch does: its hash once mined. */
async function batchedByStranger(signed: Array<{ buyer: HDNodeWallet; option: Option }>): Promise<string> {
  const fiat = new Interface(['function transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)']);
  const calls = [];
  for (const { buyer, option } of signed) {
    const action = option.actions.find((a) => a.data.method === 'eth_signTypedData_v4')!;
    const sig = Signature.from(await signTypedDataParams(buyer, action.data.params));
    const m = (JSON.parse(String(action.data.params[1])) as { message: Record<string, string> }).message;
    const data = fiat.encodeFunctionData('transferWithAuthorization', [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, sig.v, sig.r, sig.s]);
    calls.push({ target: usdc.split(':').pop()!, allowFailure: false, callData: data });
  }
  const stranger = Wallet.createRandom().connect(chains.evm.ethersProvider);
  await chains.evm.fund(stranger.address, null, 10n ** 17n);
  const multicall = new Contract(
    MULTICALL3_ADDRESS,
    ['function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[])'],
    stranger,
  );
  const sent = (await multicall.getFunction('aggregate3').send(calls)) as { hash: string; wait(): Promise<unknown> };
  await sent.wait();
  return sent.hash.toLowerCase();
}

it('(e) two expired payments whose authorizations a stranger submitted in one transaction both count as paid by it (a batch pays each by its own authorization)', async () => {
  const { t } = env;
  const partner = await t.newPartner('2026-11-28');
  const first = await quotedBoth(partner, 120);
  const second = await quotedBoth(partner, 120);
  const used = await batchedByStranger([
    { buyer: first.buyer, option: first.signable },
    { buyer: second.buyer, option: second.signable },
  ]);
  await travel(200_000);
  expect((await first.details()).body.status).toBe('expired');
  expect((await second.details()).body.status).toBe('expired');
  await mineFinal();
  // Before: the second could not record the transaction the first held, so it stayed expired, paid.
  for (const p of [first, second]) {
    await waitFor('the batched authorization paid the payment', async () => (await p.details()).body.status === 'succeeded', 20_000);
    expect((await p.details()).body).toMatchObject({ status: 'succeeded', info: { txId: used } });
  }
}, 90_000);

it('(d) a payment paid by direct transfer whose EIP-3009 authorization a stranger also submits is told as paid twice', async () => {
  const { t } = env;
  const partner = await t.newPartner('2026-11-28');
  const p = await quotedBoth(partner, 120);
  const paid = await send(p.buyer, p.destination, BigInt(p.transfer.amount.value), `0x${String((p.transfer.actions[0]!.data.params[0] as { data: string }).data).slice(-64)}`);
  const confirmed = await t.call('POST', `/v1/gateway/payment/${p.id}/confirm?maxPollMs=5000`, {
    key: partner.walletKey,
    body: { optionId: p.transfer.id, results: [{ type: 'walletRpc', data: [paid] }] },
  });
  expect(confirmed.status).toBe(200);
  await mineFinal();
  await waitFor('paid by the transfer', async () => (await p.details()).body.status === 'succeeded', 20_000);
  const used = await submittedByStranger(p.buyer, p.signable);
  await travel(200_000);
  await mineFinal();
  await waitFor('the second payment told', async () => 'extraPayments' in (await p.details()).body, 20_000);
  expect((await p.details()).body).toMatchObject({ status: 'succeeded', info: { txId: paid }, extraPayments: [{ txId: used, amount: { unit: `caip19/${usdc}` } }] });
}, 90_000);
