// The whole service on the sandbox EVM: a relayer payment succeeds, then its block is dropped
// (evm_snapshot / evm_revert). The finality job follows it: within the heal window it sends the
// recorded transaction again and the payment ends final with the merchant paid; once the
// authorization has lapsed and the relayer's nonce went elsewhere, the payment says it was
// reversed (finality, event, metric) and stays `succeeded` in every API version's state machine.
// A partner pinned to 2026-11-27 is told by a `payment.reversed` webhook and `finality` on the
// payment; one pinned to an older version is sent nothing its version does not declare.
import { Wallet } from 'ethers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemoryMetrics } from '../adapters/metrics/memory/index.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { createManualClock } from '../server/ports/clock.ts';
import { sandboxMerchant, signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import type { TestPartner } from './helpers/test-app.ts';
import { startReceiver } from './webhooks-support.ts';
import { waitFor } from './helpers/wait-for.ts';

const HEAL_MS = 10 * 60_000;
const clock = createManualClock(Date.now());
const metrics = createMemoryMetrics();
let chains: SandboxChains;
let env: GatewayEnv;
beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({ chains, clock, metrics, webhooks: { schedule: [0, 300, 300] }, evm: { finality: { kind: 'depth', blocks: 3 }, healWindowMs: HEAL_MS } });
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

const rpc = (method: string, params: unknown[] = []) => chains.evm.provider.request({ method, params });

/** A relayer (EIP-3009) payment paid and succeeded after a snapshot: reverting to it drops the payment's block. */
async function succeededAfterSnapshot(partner: TestPartner = env.t.a) {
  const { t } = env;
  const usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
  const token = usdc.split(':').pop()!;
  const { merchantId, destination } = await sandboxMerchant(t, [usdc], partner.key);
  const created = await t.call('POST', '/v1/payments', {
    key: partner.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `o-${Math.random()}` },
  });
  const id = created.body.paymentId as string;
  const wallet = Wallet.createRandom().connect(chains.evm.ethersProvider);
  await chains.evm.fund(wallet.address, token, 20_000_000n);
  const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: partner.walletKey, body: { accounts: [`eip155:31337:${wallet.address}`] } });
  const option = opts.body.options[0];
  const signature = await signTypedDataParams(wallet, option.actions[0].data.params);
  const snapshot = await rpc('evm_snapshot');
  const r = await t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=0`, {
    key: partner.walletKey,
    body: { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] },
  });
  expect(r.body.status).toBe('processing');
  const payment = () => t.storage.payments.get(id);
  await waitFor('the payment succeeded', async () => (clock.advance(200), (await payment())?.status === 'succeeded'));
  expect((await payment())?.finality).toBe('pending');
  const balance = () => chains.evm.balanceOf(destination, token);
  expect(await balance()).toBe(10_500_000n);
  return { id, merchantId, payment, balance, revert: () => rpc('evm_revert', [snapshot]) };
}

/** Drops the payment's block and lets its authorization lapse with the relayer's nonce taken: nothing can heal it. */
async function reversedForGood(paid: Awaited<ReturnType<typeof succeededAfterSnapshot>>) {
  await paid.revert();
  const relayer = new Wallet(chains.evm.relayer.privateKey, chains.evm.ethersProvider);
  await (await relayer.sendTransaction({ to: relayer.address, value: 0n })).wait();
  clock.advance(5 * 60_000 + HEAL_MS + 5 * 60_000);
  await waitFor('reversed', async () => (clock.advance(1_000), (await paid.payment())?.finality === 'reversed'));
}

const counted = async (outcome: string) => {
  const line = (await metrics.exposition()).text.split('\n').find((l) => l.startsWith('payment_finality_total') && l.includes(`outcome="${outcome}"`));
  return line ? Number(line.split(' ').pop()) : 0;
};

it('(a) a reorg after succeeded, while the authorization is valid: the recorded transaction is sent again and the payment ends final, paid once', async () => {
  const { payment, balance, revert } = await succeededAfterSnapshot();
  const txId = (await payment())!.txId;
  await revert();
  expect(await balance()).toBe(0n);
  // (The heal window past the quote deadline is in adapters/chains/evm/finality.test.ts: the
  // inline queue's retry timers run on real time, so a clock jump here would stall the job.)
  await waitFor('sent again', async () => (clock.advance(200), (await balance()) === 10_500_000n));
  await waitFor('final', async () => (clock.advance(200), await rpc('evm_mine'), (await payment())?.finality === 'final'));
  expect(await payment()).toMatchObject({ status: 'succeeded', finality: 'final', txId });
  expect(await balance()).toBe(10_500_000n);
  expect(await counted('final')).toBeGreaterThanOrEqual(1);
}, 60_000);

it('(b) a reorg whose relayer nonce another transaction took, past the authorization: reversed, with its event and counter', async () => {
  const paid = await succeededAfterSnapshot();
  const { id, payment, balance } = paid;
  await reversedForGood(paid);
  expect(await payment()).toMatchObject({ status: 'succeeded', finality: 'reversed', finalityReason: expect.stringMatching(/lapsed/) });
  expect(await balance()).toBe(0n);
  const events = await env.t.storage.payments.events(id);
  expect(events.at(-1)).toMatchObject({ type: 'payment.reversed', data: expect.objectContaining({ status: 'succeeded' }) });
  expect(await counted('reversed')).toBe(1);
}, 60_000);

/** The events a receiver got, parsed: `{ type, api_version, data }`. */
const envelopes = (rx: Awaited<ReturnType<typeof startReceiver>>) =>
  rx.received.map((r) => JSON.parse(r.body) as { type: string; api_version: string; data: Record<string, unknown> });

it('(c) the partner is told in the version that declares it: a 2026-11-27 endpoint gets payment.reversed, an older one nothing it does not declare', async () => {
  const { t } = env;
  const older = await t.newPartner('2026-02-18');
  const newer = await t.newPartner('2026-11-27');
  const [oldRx, newRx] = [await startReceiver(), await startReceiver()];
  const OLD_EVENTS = [
    'payment.created',
    'payment.processing',
    'payment.requires_action',
    'payment.succeeded',
    'payment.failed',
    'payment.expired',
    'payment.cancelled',
    'payment.refunded',
  ];
  // Deliveries go out in the pinned version: a newer Svc-Version on the request does not let an old pin subscribe to what it cannot carry.
  const refused = await t.call('POST', '/v1/webhook-endpoints', {
    key: older.key,
    headers: { 'Svc-Version': '2026-11-27' },
    body: { url: oldRx.url(), enabledEvents: [...OLD_EVENTS, 'payment.reversed'] },
  });
  expect(refused).toMatchObject({ status: 400, body: { code: 'params_validation', issues: [{ field: 'body.enabledEvents' }] } });
  expect((await t.call('POST', '/v1/webhook-endpoints', { key: older.key, body: { url: oldRx.url(), enabledEvents: OLD_EVENTS } })).status).toBe(201);
  const hook = await t.call('POST', '/v1/webhook-endpoints', { key: newer.key, body: { url: newRx.url(), enabledEvents: ['payment.succeeded', 'payment.reversed'] } });
  expect(hook.status).toBe(201);

  const oldPaid = await succeededAfterSnapshot(older);
  await reversedForGood(oldPaid);
  const newPaid = await succeededAfterSnapshot(newer);
  await reversedForGood(newPaid);

  await waitFor('payment.reversed delivered', async () => envelopes(newRx).some((e) => e.type === 'payment.reversed'));
  const told = envelopes(newRx).filter((e) => e.data.paymentId === newPaid.id);
  expect(told.map((e) => e.type)).toEqual(['payment.succeeded', 'payment.reversed']);
  expect(told[1]).toMatchObject({ api_version: '2026-11-27', data: { status: 'succeeded', finality: 'reversed' } });
  expect(told[0]!.data.finality).toBe('pending');
  const details = await t.call('GET', `/v1/payments/${newPaid.id}`, { key: newer.key, headers: { 'Merchant-Id': newPaid.merchantId } });
  expect(details.body).toMatchObject({ status: 'succeeded', finality: 'reversed' });
  const status = await t.call('GET', `/v1/payments/${newPaid.id}/status`, { key: newer.key, headers: { 'Merchant-Id': newPaid.merchantId } });
  expect(status.body).toMatchObject({ status: 'succeeded', finality: 'reversed' });

  // A later event of the older partner, dispatched after its reversal: once it arrived, the reversal's turn has passed.
  const later = await t.call('POST', '/v1/payments', {
    key: older.key,
    headers: { 'Merchant-Id': oldPaid.merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'after-the-reorg' },
  });
  await waitFor('the later event delivered', async () => envelopes(oldRx).some((e) => e.data.paymentId === later.body.paymentId));
  const oldSeen = envelopes(oldRx);
  expect(oldSeen.filter((e) => e.data.paymentId === oldPaid.id).map((e) => e.type)).toEqual(['payment.created', 'payment.processing', 'payment.succeeded']);
  expect(oldSeen.every((e) => e.api_version === '2026-02-18' && !('finality' in e.data) && OLD_EVENTS.includes(e.type))).toBe(true);
  const oldDetails = await t.call('GET', `/v1/payments/${oldPaid.id}`, { key: older.key, headers: { 'Merchant-Id': oldPaid.merchantId } });
  expect(oldDetails.body.status).toBe('succeeded');
  expect(oldDetails.body).not.toHaveProperty('finality');
  // The same partner may read it under the newer version, request by request.
  const upgraded = await t.call('GET', `/v1/payments/${oldPaid.id}`, { key: older.key, headers: { 'Merchant-Id': oldPaid.merchantId, 'Svc-Version': '2026-11-27' } });
  expect(upgraded.body.finality).toBe('reversed');
  // Redelivering the reversal's event to the old endpoint is refused as an unknown event.
  const reversedEvent = (await t.storage.payments.events(oldPaid.id)).at(-1)!;
  expect(reversedEvent.type).toBe('payment.reversed');
  const endpoints = await t.call('GET', '/v1/webhook-endpoints', { key: older.key });
  const redeliver = await t.call('POST', `/v1/webhook-endpoints/${endpoints.body.data[0].id}/events/${reversedEvent.id}/redeliver`, { key: older.key });
  expect(redeliver.status).toBe(404);
  await Promise.all([oldRx.stop(), newRx.stop()]);
}, 90_000);
