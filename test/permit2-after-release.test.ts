// A Permit2 signature after its payment was released (issue 29 item 6): can the buyer's signed
// `permitWitnessTransferFrom` still move funds once the service let the payment go? The spender the
// buyer signs is the service's Permit2 spender contract (issue 32), which anyone may call but which
// pays only the witness destination the whole signed amount: a stranger holding the signature can
// pay the merchant, never himself, and Permit2 refuses it from anyone but the contract. The relayer
// releases only what can no longer pay (refused before broadcast: nothing signed; lapsed with the
// nonce unused) and sends nothing for a payment it released; a stranger who pays the merchant with
// it afterwards is found by the late-funds watcher (the contract's Paid event), which records the
// payment paid with that transaction, as it does for an EIP-3009 authorization.
import { Contract, Signature, TypedDataEncoder, Wallet, type HDNodeWallet, type Provider } from 'ethers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PERMIT2_ABI } from '../adapters/chains/evm/abis.ts';
import { PAYMENT_WITNESS_TYPES, PAYMENT_WITNESS_TYPE_STRING } from '../adapters/chains/evm/permit2-witness.ts';
import { permit2SpenderAddress, permit2SpenderInterface, spenderPayCall } from '../adapters/chains/evm/permit2-spender.ts';
import type { Eip712TypedData } from '../adapters/chains/evm/typed-data.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import type { Clock } from '../server/ports/clock.ts';
import { sandboxMerchant, signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import { waitFor } from './helpers/wait-for.ts';

let chains: SandboxChains;
let env: GatewayEnv;
let usdt: string;
// The service's clock, moved past the payment's deadline instead of waiting for it (the chain's time moves with it).
let offsetMs = 0;
const clock: Clock = { now: () => Date.now() + offsetMs };
beforeAll(async () => {
  chains = await createSandboxChains();
  // A heal window as production has: the permit stays valid past the quote deadline, so the signature is still usable after release.
  env = await startGatewayEnv({
    chains,
    clock,
    evm: { healWindowMs: 600_000, finality: { kind: 'depth', blocks: FINAL_DEPTH } },
    lateFunds: { intervalMs: 200 },
  });
  usdt = chains.assetConfigs().find((a) => a.symbol === 'USDT')!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

const token = () => usdt.split(':').pop()!;
const provider = () => chains.evm.ethersProvider as unknown as Provider;
const AMOUNT = 2_500_000n;
const FINAL_DEPTH = 2;

async function travel(ms: number): Promise<void> {
  offsetMs += ms;
  await chains.evm.provider.request({ method: 'evm_increaseTime', params: [Math.ceil(ms / 1000)] });
  await chains.evm.provider.request({ method: 'evm_mine', params: [] });
}

async function wallet(tokens: bigint): Promise<HDNodeWallet> {
  const w = Wallet.createRandom().connect(provider());
  if (tokens > 0n) await chains.evm.fund(w.address, token(), tokens);
  await chains.evm.fund(w.address, null, 10n ** 17n);
  return w;
}

/** The buyer's signed permit, as anyone holding it would submit it to Permit2, from `sender`, paying `to`. */
function submission(typed: Eip712TypedData, signature: string, owner: string, to: string, sender: Wallet | HDNodeWallet) {
  const m = typed.message as { permitted: { token: string; amount: string }; nonce: string; deadline: string; witness: { payment: string; destination: string } };
  const permit = { permitted: { token: m.permitted.token, amount: BigInt(m.permitted.amount) }, nonce: BigInt(m.nonce), deadline: BigInt(m.deadline) };
  const witness = TypedDataEncoder.from(PAYMENT_WITNESS_TYPES).hash(m.witness);
  const permit2 = new Contract(chains.evm.permit2Address, PERMIT2_ABI, sender);
  return permit2.getFunction('permitWitnessTransferFrom').staticCall(permit, { to, requestedAmount: AMOUNT }, owner, witness, PAYMENT_WITNESS_TYPE_STRING, signature);
}

/** The buyer's signed permit through the spender contract, from `sender`, with the witness destination replaced by `to`. */
function throughSpender(typed: Eip712TypedData, signature: string, owner: string, to: string) {
  const [payment] = permit2SpenderInterface.decodeFunctionData('pay', spenderPayCall(typed, signature, owner).callData) as unknown as [
    { toObject(deep: boolean): Record<string, unknown> },
  ];
  const changed = { ...payment.toObject(true), destination: to };
  return { to: permit2SpenderAddress(chains.evm.permit2Address), data: permit2SpenderInterface.encodeFunctionData('pay', [changed]) };
}

/** A payment of AMOUNT USDT, its Permit2 option approved and signed by a funded buyer, not confirmed yet. */
async function signedPermit(expiresInS: number) {
  const { t } = env;
  const { merchantId, destination } = await sandboxMerchant(t, [usdt]);
  const created = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '250' }, referenceId: `p2-${Math.random()}`, expiresAt: Math.floor(clock.now() / 1000) + expiresInS },
  });
  const id = created.body.paymentId as string;
  const buyer = await wallet(AMOUNT);
  const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${buyer.address}`] } });
  const option = opts.body.options[0] as { id: string; actions: Array<{ data: { method: string; params: unknown[] } }> };
  expect(option.actions.map((a) => a.data.method)).toEqual(['eth_sendTransaction', 'eth_signTypedData_v4']);
  const approve = await buyer.sendTransaction({ ...(option.actions[0]!.data.params[0] as object), value: 0n });
  await approve.wait();
  const typed = JSON.parse(String(option.actions[1]!.data.params[1])) as Eip712TypedData;
  const signature = await signTypedDataParams(buyer, option.actions[1]!.data.params);
  // The buyer signs for the spender contract, verified on this chain at start.
  expect(String(typed.message.spender)).toBe(chains.evm.permit2SpenderAddress);
  const confirm = () =>
    t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=0`, {
      key: t.a.walletKey,
      body: {
        optionId: option.id,
        results: [
          { type: 'walletRpc', data: [approve.hash] },
          { type: 'walletRpc', data: [Signature.from(signature).serialized] },
        ],
      },
    });
  return { id, buyer, destination, typed, signature, confirm };
}

const usdtAs = (w: HDNodeWallet) => new Contract(token(), ['function transfer(address,uint256) returns (bool)'], w);

// The relayer releases a payment on either of two paths. Its first transaction is sent only while
// it can still be mined before the quote's deadline (a margin of 3 blocks at the adapter's default
// 12 s): a payment expiring in 20 s never gets one, and is released when the unused authorization
// lapses, 36 s past the deadline (twice the margin). One expiring in 5 minutes gets one at once,
// refused before broadcast (the buyer moved its tokens away): released, still open.
it.each([
  { path: 'lapsed', expiresInS: 20 },
  { path: 'refused before broadcast', expiresInS: 300 },
])(
  'after release ($path), a stranger can only pay the merchant with the buyer’s Permit2 signature (never himself), and the relayer never sends it: the funds stay with the buyer',
  async ({ path, expiresInS }) => {
    const { t } = env;
    const { id, buyer, destination, typed, signature, confirm } = await signedPermit(expiresInS);

    // The buyer moves its tokens away before confirming: the relayer's transaction cannot pay, nothing is sent, and the
    // payment leaves processing (released).
    const elsewhere = await wallet(0n);
    await (await usdtAs(buyer).getFunction('transfer').send(elsewhere.address, AMOUNT)).wait();
    const confirmed = await confirm();
    expect(confirmed.status).toBe(200);
    // Its quote's deadline is the payment's expiry. Lapsed: past the deadline and the 36 s, as a real
    // wait of about a minute was (the heal window keeps the permit itself valid on chain).
    if (path === 'lapsed') await travel((expiresInS + 40) * 1000);
    const statusOf = async () => (await t.storage.payments.get(id))!.status;
    await waitFor('the payment leaves processing', async () => (await statusOf()) !== 'processing', 60_000, 200);
    // Refused: released at once, the payment still open to be paid another way.
    if (path !== 'lapsed') expect(await statusOf()).toBe('requires_action');
    expect((await t.storage.payments.events(id)).map((e) => e.type)).not.toContain('payment.succeeded');
    // Any key of the pool may send a permit naming the contract: none does after release.
    const relayerNonces = new Map(await Promise.all(chains.evm.relayerPool.map(async (k) => [k.address, await provider().getTransactionCount(k.address)] as const)));

    // The funds come back: the signature (its deadline the quote's plus the heal window) is valid again for whoever may submit it.
    await (await usdtAs(elsewhere).getFunction('transfer').send(buyer.address, AMOUNT)).wait();
    const stranger = await wallet(0n);
    // Straight to Permit2 nobody can use it, not even the relayer key: Permit2 takes msg.sender as the signed spender, the contract.
    await expect(submission(typed, signature, buyer.address, destination, stranger)).rejects.toThrow();
    await expect(submission(typed, signature, buyer.address, stranger.address, stranger)).rejects.toThrow();
    await expect(submission(typed, signature, buyer.address, destination, new Wallet(chains.evm.relayer.privateKey, provider()))).rejects.toThrow();
    // Through the contract, a stranger (a front-runner, the buyer himself) naming himself as the destination is refused
    // (the witness he presents is not the one signed); naming the merchant would pay (estimated, not sent; see the next test).
    await expect(stranger.estimateGas(throughSpender(typed, signature, buyer.address, stranger.address))).rejects.toThrow();
    await expect(buyer.estimateGas(throughSpender(typed, signature, buyer.address, buyer.address))).rejects.toThrow();
    expect(await stranger.estimateGas(throughSpender(typed, signature, buyer.address, destination))).toBeGreaterThan(0n);

    // The relayer never sends it after release: with the buyer funded again, past the payment's expiry, its nonce and the Permit2 nonce are where they were.
    if (path !== 'lapsed') await travel((expiresInS + 1) * 1000);
    await waitFor('the payment expires', async () => (await statusOf()) === 'expired', 40_000, 200);
    await new Promise((r) => setTimeout(r, 5_000));
    for (const key of chains.evm.relayerPool) expect(await provider().getTransactionCount(key.address)).toBe(relayerNonces.get(key.address));
    const nonce = BigInt(String(typed.message.nonce));
    const bitmap = (await new Contract(chains.evm.permit2Address, PERMIT2_ABI, provider()).getFunction('nonceBitmap')(buyer.address, nonce >> 8n)) as bigint;
    expect((bitmap >> (nonce & 255n)) & 1n).toBe(0n);
    expect(await chains.evm.balanceOf(destination, token())).toBe(0n);
    expect(await chains.evm.balanceOf(buyer.address, token())).toBe(AMOUNT);
  },
  90_000,
);

it('after release, a stranger who pays the merchant through the spender contract with the buyer’s signature pays the payment: the late-funds watcher records it succeeded with his transaction', async () => {
  const { t } = env;
  const { id, buyer, destination, typed, signature, confirm } = await signedPermit(300);
  const elsewhere = await wallet(0n);
  await (await usdtAs(buyer).getFunction('transfer').send(elsewhere.address, AMOUNT)).wait();
  expect((await confirm()).status).toBe(200);
  const statusOf = async () => (await t.storage.payments.get(id))!.status;
  await waitFor('the payment is released', async () => (await statusOf()) === 'requires_action', 60_000, 200);

  // Funded again, the buyer's permit is valid; a stranger submits it through the contract, naming the merchant (he can name no one else).
  await (await usdtAs(elsewhere).getFunction('transfer').send(buyer.address, AMOUNT)).wait();
  const stranger = await wallet(0n);
  const paid = await (await stranger.sendTransaction(throughSpender(typed, signature, buyer.address, destination))).wait();
  expect(paid?.status).toBe(1);
  expect(await chains.evm.balanceOf(destination, token())).toBe(AMOUNT);

  // The payment expires unpaid as far as the relayer knows; the watcher finds the stranger's transaction once final and pays the payment with it.
  await travel(301_000);
  for (let i = 0; i < FINAL_DEPTH; i++) await chains.evm.provider.request({ method: 'evm_mine', params: [] });
  await waitFor('the payment is paid by the stranger’s transaction', async () => (await statusOf()) === 'succeeded', 60_000, 200);
  expect((await t.storage.payments.get(id))!.txId?.toLowerCase()).toBe(paid!.hash.toLowerCase());
}, 90_000);
