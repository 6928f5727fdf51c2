import { Transaction, randomBytes, hexlify, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTransferTransaction } from '../adapters/chains/evm/transfer.ts';
import { NEVER_SEEN_GRACE_MS } from '../adapters/chains/evm/direct-transfer.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { chainTime, fundedBuyer } from './helpers/chain-time.ts';
import { fromWireAction, type WalletRpcAction } from '../clients/wallet/src/gateway/actions.ts';
import { executeActions } from '../clients/wallet/src/executor/execute-actions.ts';
import { ethersWalletSigner } from '../clients/wallet/src/signers/ethers-wallet-signer.ts';
import { sandboxMerchant, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * Attacks on direct ERC-20 transfers (the wallet broadcasts `transfer`, confirm carries the
 * hash), on the sandbox EVM with real keys. Accounts are only strings, so an attacker may ask
 * options naming a victim's address; what binds a transaction to a payment is the option's
 * reference tag in its calldata, the quote's time and the unique hash.
 */
let chains: SandboxChains;
let env: GatewayEnv;
let usdt: string;
// The service's clock, moved on together with the chain's by `travel`.
const { clock, travel } = chainTime(() => chains.evm);

beforeAll(async () => {
  chains = await createSandboxChains();
  // USDT is accepted by direct transfer only.
  env = await startGatewayEnv({ chains, clock, assets: (a) => a.map((x) => (x.symbol === 'USDT' ? { ...x, flows: ['transfer'] } : x)) });
  usdt = chains.assetConfigs().find((a) => a.symbol === 'USDT')!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

const token = () => usdt.split(':').pop()!;
const account = (w: HDNodeWallet) => `eip155:31337:${w.address}`;

/** A fresh buyer holding USDT and gas money. */
const buyer = (): Promise<HDNodeWallet> => fundedBuyer(chains.evm, [token()]);

async function newPayment(merchantId: string, value = '700'): Promise<string> {
  const { t } = env;
  const expiresAt = Math.floor(clock.now() / 1000) + 3600;
  const r = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value }, referenceId: `o-${Math.random()}`, expiresAt },
  });
  expect(r.status).toBe(201);
  return r.body.paymentId as string;
}

async function optionFor(id: string, wallet: HDNodeWallet) {
  const r = await env.t.call('POST', `/v1/gateway/payment/${id}/options`, { key: env.t.a.walletKey, body: { accounts: [account(wallet)] } });
  expect(r.status).toBe(200);
  return r.body.options[0] as { id: string; actions: Array<{ data: { method: string; params: Array<{ to: string; data: string; from: string }> } }> };
}

const confirm = (id: string, optionId: string, txHash: string, maxPollMs = 0) =>
  env.t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=${maxPollMs}`, { key: env.t.a.walletKey, body: { optionId, results: [{ type: 'walletRpc', data: [txHash] }] } });

const statusOf = async (id: string): Promise<string> => (await env.t.call('GET', `/v1/gateway/payment/${id}/status`, { key: env.t.a.walletKey })).body.status;

/** The payment's status once it leaves processing, or `processing` if it is still there after `ms`. */
async function settled(id: string, ms = 8000): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const status = await statusOf(id);
    if (status !== 'processing' || Date.now() > until) return status;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Signs the option's transaction as the wallet would, without broadcasting it: its hash is known before any node is. */
async function signOnly(wallet: HDNodeWallet, params: { to: string; data: string }): Promise<{ hash: string; raw: string }> {
  const raw = await wallet.signTransaction(await wallet.populateTransaction({ to: params.to, data: params.data, value: 0n }));
  return { raw, hash: Transaction.from(raw).hash!.toLowerCase() };
}

describe('direct transfer attacks: a transaction pays only the option it was built for', () => {
  it('front-run: another payment naming the victim’s account cannot take the victim’s transfer, and the victim’s confirm then succeeds', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdt]);
    const [p1, p2] = [await newPayment(merchantId), await newPayment(merchantId)];
    const victim = await buyer();
    const opt1 = await optionFor(p1, victim);
    const tx = await victim.sendTransaction({ ...opt1.actions[0]!.data.params[0], value: 0n });
    await tx.wait();
    // The attacker saw the hash (mempool, explorer) and confirms his own payment with it.
    const opt2 = await optionFor(p2, victim);
    const stolen = await confirm(p2, opt2.id, tx.hash);
    expect({ confirm: stolen.status, code: stolen.body.code, p2: await settled(p2) }).toEqual({ confirm: 400, code: 'invalid_results', p2: 'requires_action' });
    const own = await confirm(p1, opt1.id, tx.hash, 20_000);
    expect({ status: own.status, payment: own.body.status ?? own.body.code }).toEqual({ status: 200, payment: 'succeeded' });
    expect(await chains.evm.balanceOf(destination, token())).toBe(7_000_000n);
    expect(await statusOf(p2)).toBe('requires_action');
  }, 60_000);

  it('front-run before the node sees the transfer: the attacker’s payment holds the hash until it appears, is then released, and the victim’s confirm succeeds', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdt]);
    const [p1, p2] = [await newPayment(merchantId), await newPayment(merchantId)];
    const victim = await buyer();
    const opt1 = await optionFor(p1, victim);
    const signed = await signOnly(victim, opt1.actions[0]!.data.params[0]!);
    const opt2 = await optionFor(p2, victim);
    // The node knows nothing yet: the hash is accepted and held, as for an honest wallet whose
    // broadcast is still propagating; one hash pays at most one payment.
    expect((await confirm(p2, opt2.id, signed.hash)).body.status).toBe('processing');
    expect(await confirm(p1, opt1.id, signed.hash)).toMatchObject({ status: 409, body: { code: 'transaction_already_used' } });
    await chains.evm.ethersProvider.broadcastTransaction(signed.raw);
    expect(await settled(p2)).toBe('requires_action');
    const own = await confirm(p1, opt1.id, signed.hash, 20_000);
    expect({ status: own.status, payment: own.body.status ?? own.body.code }).toEqual({ status: 200, payment: 'succeeded' });
    expect(await chains.evm.balanceOf(destination, token())).toBe(7_000_000n);
  }, 60_000);

  it('an old transfer (mined before the quote) from the account to the merchant for the amount never pays a new payment', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdt]);
    const wallet = await buyer();
    const old = await wallet.sendTransaction({ ...buildTransferTransaction({ token: token(), from: wallet.address, to: destination, value: 7_000_000n }), value: 0n });
    await old.wait();
    await travel(10 * 60_000);
    const id = await newPayment(merchantId);
    const opt = await optionFor(id, wallet);
    const r = await confirm(id, opt.id, old.hash);
    expect({ confirm: r.status, code: r.body.code, payment: await settled(id) }).toEqual({ confirm: 400, code: 'invalid_results', payment: 'requires_action' });
  }, 60_000);

  it('an untagged plain transfer of the right amount, sent after the quote, never pays', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdt]);
    const wallet = await buyer();
    const id = await newPayment(merchantId);
    const opt = await optionFor(id, wallet);
    const plain = await wallet.sendTransaction({ ...buildTransferTransaction({ token: token(), from: wallet.address, to: destination, value: 7_000_000n }), value: 0n });
    await plain.wait();
    const r = await confirm(id, opt.id, plain.hash);
    expect({ confirm: r.status, code: r.body.code, payment: await settled(id) }).toEqual({ confirm: 400, code: 'invalid_results', payment: 'requires_action' });
    // The option's own tagged transfer still pays it.
    const tagged = await wallet.sendTransaction({ ...opt.actions[0]!.data.params[0], value: 0n });
    expect((await confirm(id, opt.id, tagged.hash, 20_000)).body.status).toBe('succeeded');
  }, 60_000);

  it('the wallet SDK sends the option’s calldata unchanged, tag included, and its hash pays', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdt]);
    const wallet = await buyer();
    const id = await newPayment(merchantId);
    const opt = await optionFor(id, wallet);
    const signer = ethersWalletSigner(wallet, { chainIds: [31337], providerFor: () => chains.evm.ethersProvider });
    const [result] = await executeActions(
      opt.actions.map((a) => fromWireAction(a) as WalletRpcAction),
      { evm: signer },
    );
    const sent = await chains.evm.ethersProvider.getTransaction(result!.data[0]);
    expect(sent!.data).toBe(opt.actions[0]!.data.params[0]!.data);
    expect((await confirm(id, opt.id, result!.data[0], 20_000)).body.status).toBe('succeeded');
    expect(await chains.evm.balanceOf(destination, token())).toBe(7_000_000n);
  }, 60_000);

  it('a bogus hash (never mined) releases the payment once the never-seen bound passes, not before', async () => {
    const { merchantId } = await sandboxMerchant(env.t, [usdt]);
    const wallet = await buyer();
    const id = await newPayment(merchantId);
    const opt = await optionFor(id, wallet);
    const bogus = hexlify(randomBytes(32));
    expect((await confirm(id, opt.id, bogus)).body.status).toBe('processing');
    // Within the bound the hash may still be propagating: the payment waits.
    expect(await settled(id, 2500)).toBe('processing');
    // The quote's deadline (QUOTE_TTL_S, 300 s) and the grace pass.
    await travel(300_000 + NEVER_SEEN_GRACE_MS + 1000);
    expect(await settled(id, 15_000)).toBe('requires_action');
    // Released: the wallet asks for options again and pays with the new option's transfer.
    const fresh = await optionFor(id, wallet);
    expect(fresh.id).not.toBe(opt.id);
    const tx = await wallet.sendTransaction({ ...fresh.actions[0]!.data.params[0], value: 0n });
    expect((await confirm(id, fresh.id, tx.hash, 20_000)).body.status).toBe('succeeded');
  }, 60_000);
});
