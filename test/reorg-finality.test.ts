// The whole service on the sandbox EVM: a relayer payment succeeds, then its block is dropped
// (evm_snapshot / evm_revert). The finality job follows it: within the heal window it sends the
// recorded transaction again and the payment ends final with the merchant paid; once the
// authorization has lapsed and the relayer's nonce went elsewhere, the payment says it was
// reversed (finality, event, metric) and stays `succeeded` in every API version's state machine.
import { Wallet } from 'ethers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemoryMetrics } from '../adapters/metrics/memory/index.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { createManualClock } from '../server/ports/clock.ts';
import { sandboxMerchant, signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import { waitFor } from './helpers/wait-for.ts';

const HEAL_MS = 10 * 60_000;
const clock = createManualClock(Date.now());
const metrics = createMemoryMetrics();
let chains: SandboxChains;
let env: GatewayEnv;
beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({ chains, clock, metrics, evm: { finality: { kind: 'depth', blocks: 3 }, healWindowMs: HEAL_MS } });
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

const rpc = (method: string, params: unknown[] = []) => chains.evm.provider.request({ method, params });

/** A relayer (EIP-3009) payment paid and succeeded after a snapshot: reverting to it drops the payment's block. */
async function succeededAfterSnapshot() {
  const { t } = env;
  const usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
  const token = usdc.split(':').pop()!;
  const { merchantId, destination } = await sandboxMerchant(t, [usdc]);
  const created = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `o-${Math.random()}` },
  });
  const id = created.body.paymentId as string;
  const wallet = Wallet.createRandom().connect(chains.evm.ethersProvider);
  await chains.evm.fund(wallet.address, token, 20_000_000n);
  const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${wallet.address}`] } });
  const option = opts.body.options[0];
  const signature = await signTypedDataParams(wallet, option.actions[0].data.params);
  const snapshot = await rpc('evm_snapshot');
  const r = await t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=0`, {
    key: t.a.walletKey,
    body: { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] },
  });
  expect(r.body.status).toBe('processing');
  const payment = () => t.storage.payments.get(id);
  await waitFor('the payment succeeded', async () => (clock.advance(200), (await payment())?.status === 'succeeded'));
  expect((await payment())?.finality).toBe('pending');
  const balance = () => chains.evm.balanceOf(destination, token);
  expect(await balance()).toBe(10_500_000n);
  return { id, payment, balance, revert: () => rpc('evm_revert', [snapshot]) };
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
  const { id, payment, balance, revert } = await succeededAfterSnapshot();
  await revert();
  const relayer = new Wallet(chains.evm.relayer.privateKey, chains.evm.ethersProvider);
  await (await relayer.sendTransaction({ to: relayer.address, value: 0n })).wait();
  clock.advance(5 * 60_000 + HEAL_MS + 5 * 60_000);
  await waitFor('reversed', async () => (clock.advance(1_000), (await payment())?.finality === 'reversed'));
  expect(await payment()).toMatchObject({ status: 'succeeded', finality: 'reversed', finalityReason: expect.stringMatching(/lapsed/) });
  expect(await balance()).toBe(0n);
  const events = await env.t.storage.payments.events(id);
  expect(events.at(-1)).toMatchObject({ type: 'payment.reversed', data: expect.objectContaining({ status: 'succeeded' }) });
  expect(await counted('reversed')).toBe(1);
}, 60_000);
