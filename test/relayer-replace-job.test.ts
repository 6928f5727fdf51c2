// The whole service on the sandbox EVM: the advance job's relayer transaction sticks (the base fee
// rose above what it offers); once it has waited past the bound since it was recorded (the payment
// row's time), the job replaces it at its nonce, and the payment succeeds with the replacement, paid once.
import { Wallet, toQuantity } from 'ethers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { createManualClock } from '../server/ports/clock.ts';
import { sandboxMerchant, signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import { waitFor } from './helpers/wait-for.ts';

const clock = createManualClock(Date.now());
let chains: SandboxChains;
let env: GatewayEnv;
beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({ chains, clock });
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

it('a stuck relayer transaction is replaced by the job past the bound, and the payment succeeds once with the replacement', async () => {
  const { t } = env;
  const rpc = (method: string, params: unknown[] = []) => chains.evm.provider.request({ method, params });
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
  const txIdOf = async () => (await t.storage.payments.get(id))?.txId ?? null;

  await rpc('evm_setAutomine', [false]);
  try {
    const r = await t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=0`, {
      key: t.a.walletKey,
      body: { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] },
    });
    expect(r.body.status).toBe('processing');
    await waitFor('the relayer transaction recorded', async () => (await txIdOf()) !== null);
    const first = (await txIdOf())!;
    const stuck = await chains.evm.ethersProvider.getTransaction(first);
    expect(stuck?.blockNumber).toBeNull();
    await rpc('hardhat_setNextBlockBaseFeePerGas', [toQuantity(stuck!.maxFeePerGas! * 2n)]);
    await rpc('evm_mine');
    // Within the bound the job follows it and waits.
    clock.advance(30_000);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await txIdOf()).toBe(first);
    clock.advance(30_000);
    await waitFor('the replacement recorded', async () => (await txIdOf()) !== first);
    const replacement = (await txIdOf())!;
    const sent = await chains.evm.ethersProvider.getTransaction(replacement);
    expect(sent?.nonce).toBe(stuck!.nonce);
    expect(sent!.maxFeePerGas!).toBeGreaterThan(stuck!.maxFeePerGas!);
    await rpc('evm_mine');
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
  const replacement = (await txIdOf())!;
  clock.advance(5_000);
  await waitFor('the payment succeeded', async () => (await t.storage.payments.get(id))?.status === 'succeeded');
  expect((await t.storage.payments.get(id))?.txId).toBe(replacement);
  expect(await chains.evm.balanceOf(destination, token)).toBe(10_500_000n);
}, 60_000);
