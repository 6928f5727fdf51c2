// Long because: every attack an outsider with a wallet's credentials tries on the relayer flows runs against one sandbox service, sharing its helpers (payments, options, confirms, signed permits).
import { Contract, Signature, TypedDataEncoder, Wallet, type HDNodeWallet, type Provider } from 'ethers';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmChainAdapter } from '../adapters/chains/evm/gateway-adapter.ts';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { createPriceTable } from '../server/domain/prices.ts';
import { buildJobHandlers } from '../server/jobs/handlers.ts';
import { webhookSettings } from '../server/composition/webhooks.ts';
import { createChainRegistry } from '../server/ports/chains.ts';
import { systemClock } from '../server/ports/clock.ts';
import type { JobRecord } from '../server/domain/jobs/records.ts';
import { startTestApp } from './helpers/test-app.ts';
import { derivePaymentReference } from '../adapters/chains/evm/nonce.ts';
import { PERMIT2_ABI } from '../adapters/chains/evm/abis.ts';
import { buildPermitTransferFrom } from '../adapters/chains/evm/permit2.ts';
import { permit2SpenderInterface, spenderPayCall } from '../adapters/chains/evm/permit2-spender.ts';
import { PAYMENT_WITNESS_TYPES, PAYMENT_WITNESS_TYPE_STRING } from '../adapters/chains/evm/permit2-witness.ts';
import { toEthersTypedData, type Eip712TypedData } from '../adapters/chains/evm/typed-data.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { sandboxMerchant, signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * Issue 15, as an attacker with only a wallet's public credentials and his own keys would try it
 * on the default sandbox: burn or cancel the option's nonce himself, then confirm a valid
 * signature. None of it may end `succeeded`, move the merchant's balance, or pin the payment.
 */
let chains: SandboxChains;
let env: GatewayEnv;
let usdc: string;
let usdt: string;
beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({ chains });
  usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
  usdt = chains.assetConfigs().find((a) => a.symbol === 'USDT')!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

const tokenOf = (asset: string) => asset.split(':').pop()!;
const provider = () => chains.evm.ethersProvider as unknown as Provider;

/** A buyer holding none of the token, with gas for his own transactions. */
async function attacker(): Promise<HDNodeWallet> {
  const wallet = Wallet.createRandom().connect(provider());
  await chains.evm.fund(wallet.address, null, 10n ** 17n);
  return wallet;
}

async function newPayment(merchantId: string, value = '1050') {
  const r = await env.t.call('POST', '/v1/payments', {
    key: env.t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value }, referenceId: `atk-${Math.random()}` },
  });
  expect(r.status).toBe(201);
  return r.body.paymentId as string;
}

async function optionFor(id: string, wallet: HDNodeWallet) {
  const r = await env.t.call('POST', `/v1/gateway/payment/${id}/options`, { key: env.t.a.walletKey, body: { accounts: [`eip155:31337:${wallet.address}`] } });
  expect(r.status).toBe(200);
  return r.body.options[0] as { id: string; actions: Array<{ data: { method: string; params: unknown[] } }> };
}

const confirm = (id: string, optionId: string, results: string[]) =>
  env.t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=0`, {
    key: env.t.a.walletKey,
    body: { optionId, results: results.map((r) => ({ type: 'walletRpc', data: [r] })) },
  });

const status = async (id: string) => (await env.t.call('GET', `/v1/gateway/payment/${id}/status`, { key: env.t.a.walletKey })).body.status as string;

/** Watches the payment until it leaves processing; records every status seen on the way. */
async function settle(id: string, timeoutMs = 20_000): Promise<{ final: string; seen: Set<string> }> {
  const seen = new Set<string>();
  const until = Date.now() + timeoutMs;
  for (;;) {
    const s = await status(id);
    seen.add(s);
    if (s !== 'processing' || Date.now() > until) return { final: s, seen };
    await new Promise((r) => setTimeout(r, 200));
  }
}

const typedDataOf = (params: unknown[]) => JSON.parse(String(params[1])) as Eip712TypedData;

describe('EIP-3009: a buyer burning his own authorization nonce', () => {
  it('never gets the payment marked succeeded; it is released and the merchant is unpaid', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdc]);
    const id = await newPayment(merchantId);
    const buyer = await attacker();
    const option = await optionFor(id, buyer);
    const quoted = typedDataOf(option.actions[0]!.data.params);
    // His own 0-value transferWithAuthorization to himself, with the option's nonce.
    const burn = { ...quoted, message: { ...quoted.message, to: buyer.address, value: '0x0' } };
    const { domain, types, message } = toEthersTypedData(burn);
    const burnSig = Signature.from(await buyer.signTypedData(domain, types, message));
    const token = new Contract(tokenOf(usdc), ['function transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)'], buyer);
    await (
      await token
        .getFunction('transferWithAuthorization')
        .send(buyer.address, buyer.address, 0n, 0n, BigInt(String(quoted.message.validBefore)), quoted.message.nonce, burnSig.v, burnSig.r, burnSig.s)
    ).wait();

    const r = await confirm(id, option.id, [await signTypedDataParams(buyer, option.actions[0]!.data.params)]);
    expect(r.status).toBe(200);
    const { final, seen } = await settle(id);
    expect(seen.has('succeeded')).toBe(false);
    expect(final).toBe('requires_action');
    expect(await chains.evm.balanceOf(destination, tokenOf(usdc))).toBe(0n);
  }, 60_000);
});

describe('EIP-3009: a buyer cancelling the authorization before confirming', () => {
  it('releases the payment within seconds instead of pinning it in processing', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdc]);
    const id = await newPayment(merchantId);
    const buyer = await attacker();
    const option = await optionFor(id, buyer);
    const quoted = typedDataOf(option.actions[0]!.data.params);
    const cancelTypes = {
      CancelAuthorization: [
        { name: 'authorizer', type: 'address' },
        { name: 'nonce', type: 'bytes32' },
      ],
    };
    const sig = Signature.from(await buyer.signTypedData(quoted.domain, cancelTypes, { authorizer: buyer.address, nonce: quoted.message.nonce }));
    const token = new Contract(tokenOf(usdc), ['function cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)'], buyer);
    await (await token.getFunction('cancelAuthorization').send(buyer.address, quoted.message.nonce, sig.v, sig.r, sig.s)).wait();

    expect((await confirm(id, option.id, [await signTypedDataParams(buyer, option.actions[0]!.data.params)])).status).toBe(200);
    const { final, seen } = await settle(id, 15_000);
    expect(seen.has('succeeded')).toBe(false);
    expect(final).toBe('requires_action');
    expect(await chains.evm.balanceOf(destination, tokenOf(usdc))).toBe(0n);
  }, 60_000);
});

describe('Permit2: a buyer invalidating the permit nonce and sending 0 to the merchant', () => {
  it('never gets the payment marked succeeded; it is released and the merchant is unpaid', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdt]);
    const id = await newPayment(merchantId, '2500');
    const buyer = await attacker();
    const option = await optionFor(id, buyer);
    expect(option.actions.map((a) => a.data.method)).toEqual(['eth_sendTransaction', 'eth_signTypedData_v4']);
    const approve = await buyer.sendTransaction({ ...(option.actions[0]!.data.params[0] as object), value: 0n });
    await approve.wait();
    const quoted = typedDataOf(option.actions[1]!.data.params);
    const nonce = BigInt(String(quoted.message.nonce));
    const permit2 = new Contract(chains.evm.permit2Address, ['function invalidateUnorderedNonces(uint256 wordPos, uint256 mask)'], buyer);
    await (await permit2.getFunction('invalidateUnorderedNonces').send(nonce >> 8n, 1n << (nonce & 255n))).wait();
    const token = new Contract(tokenOf(usdt), ['function transfer(address,uint256) returns (bool)'], buyer);
    await (await token.getFunction('transfer').send(destination, 0n)).wait();

    expect((await confirm(id, option.id, [approve.hash, await signTypedDataParams(buyer, option.actions[1]!.data.params)])).status).toBe(200);
    const { final, seen } = await settle(id);
    expect(seen.has('succeeded')).toBe(false);
    expect(final).toBe('requires_action');
    expect(await chains.evm.balanceOf(destination, tokenOf(usdt))).toBe(0n);
  }, 60_000);
});

describe('Permit2: what the buyer signs names the payment and the destination', () => {
  it('quotes PermitWitnessTransferFrom with the destination, and refuses a signature over a permit without the witness', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdt]);
    const id = await newPayment(merchantId, '100');
    const buyer = Wallet.createRandom().connect(provider());
    await chains.evm.fund(buyer.address, tokenOf(usdt), 5_000_000n);
    const option = await optionFor(id, buyer);
    const sign = option.actions[option.actions.length - 1]!;
    const quoted = typedDataOf(sign.data.params);
    expect(quoted.primaryType).toBe('PermitWitnessTransferFrom');
    expect(quoted.message.witness).toEqual({ payment: derivePaymentReference(id), destination });
    // The same permit without the witness: what a relayer could redirect anywhere.
    const bare = buildPermitTransferFrom({
      permit2: chains.evm.permit2Address,
      chainId: 31337n,
      token: tokenOf(usdt),
      amount: BigInt(String((quoted.message.permitted as Record<string, unknown>).amount)),
      spender: String(quoted.message.spender),
      nonce: BigInt(String(quoted.message.nonce)),
      deadline: BigInt(String(quoted.message.deadline)),
    });
    const bareSig = await signTypedDataParams(buyer, [buyer.address, JSON.stringify(bare)]);
    const results = option.actions.length === 2 ? ['0x' + '11'.repeat(32), bareSig] : [bareSig];
    expect(await confirm(id, option.id, results)).toMatchObject({ status: 400, body: { code: 'invalid_signature' } });
    expect(await status(id)).toBe('requires_action');
  }, 60_000);
});

/** The spender contract's pay call for the buyer's signed permit, with the witness destination replaced by `to`. */
function payThroughSpender(typed: Eip712TypedData, signature: string, owner: string, to: string) {
  const call = spenderPayCall(typed, signature, owner);
  const [payment] = permit2SpenderInterface.decodeFunctionData('pay', call.callData) as unknown as [{ toObject(deep: boolean): Record<string, unknown> }];
  return { to: call.target, data: permit2SpenderInterface.encodeFunctionData('pay', [{ ...payment.toObject(true), destination: to }]) };
}

/** Sent without an estimate (the node would refuse it): its receipt's status. */
async function statusOfSent(from: Wallet | HDNodeWallet, tx: { to: string; data: string }): Promise<number | null> {
  const sent = await from.sendTransaction({ ...tx, gasLimit: 400_000n });
  return (await provider().waitForTransaction(sent.hash))?.status ?? null;
}

/** A USDT payment whose Permit2 option a funded buyer approved and signed: what anyone holding the signature holds. */
async function signedPermit(amountUsd: string, amount: bigint) {
  const { merchantId, destination } = await sandboxMerchant(env.t, [usdt]);
  const id = await newPayment(merchantId, amountUsd);
  const buyer = await attacker();
  await chains.evm.fund(buyer.address, tokenOf(usdt), amount);
  const option = await optionFor(id, buyer);
  const approve = await buyer.sendTransaction({ ...(option.actions[0]!.data.params[0] as object), value: 0n });
  await approve.wait();
  const typed = typedDataOf(option.actions[1]!.data.params);
  const signature = Signature.from(await signTypedDataParams(buyer, option.actions[1]!.data.params)).serialized;
  return { id, option, buyer, destination, typed, signature, approve: approve.hash };
}

describe('Permit2: the relayer key cannot redirect a permit (the spender contract pays only the witness destination)', () => {
  it('the buyer signs for the contract; the relayer key naming itself, through the contract or straight to Permit2, moves nothing; the payment then pays the merchant exactly', async () => {
    const amount = 2_500_000n;
    const { id, option, buyer, destination, typed, signature, approve } = await signedPermit('250', amount);
    expect(String(typed.message.spender)).toBe(chains.evm.permit2SpenderAddress);
    const relayerKey = new Wallet(chains.evm.relayer.privateKey, provider());
    // Through the contract with another destination: the witness it rebuilds is not the signed one.
    expect(await statusOfSent(relayerKey, payThroughSpender(typed, signature, buyer.address, relayerKey.address))).toBe(0);
    // Straight to Permit2, choosing `to` as a spender may: the key is not the signed spender.
    const m = typed.message as { permitted: { token: string; amount: string }; nonce: string; deadline: string; witness: { payment: string; destination: string } };
    const permit = { permitted: { token: m.permitted.token, amount: BigInt(m.permitted.amount) }, nonce: BigInt(m.nonce), deadline: BigInt(m.deadline) };
    const witness = TypedDataEncoder.from(PAYMENT_WITNESS_TYPES).hash(m.witness);
    const direct = new Contract(chains.evm.permit2Address, PERMIT2_ABI, relayerKey).interface.encodeFunctionData('permitWitnessTransferFrom', [
      permit,
      { to: relayerKey.address, requestedAmount: amount },
      buyer.address,
      witness,
      PAYMENT_WITNESS_TYPE_STRING,
      signature,
    ]);
    expect(await statusOfSent(relayerKey, { to: chains.evm.permit2Address, data: direct })).toBe(0);
    expect(await chains.evm.balanceOf(buyer.address, tokenOf(usdt))).toBe(amount);
    expect(await chains.evm.balanceOf(relayerKey.address, tokenOf(usdt))).toBe(0n);

    expect((await confirm(id, option.id, [approve, signature])).status).toBe(200);
    const { final } = await settle(id);
    expect(final).toBe('succeeded');
    expect(await chains.evm.balanceOf(destination, tokenOf(usdt))).toBe(amount);
    expect(await chains.evm.balanceOf(buyer.address, tokenOf(usdt))).toBe(0n);
  }, 60_000);

  it('a stranger who submits the buyer’s permit through the contract before the relayer pays only the merchant, and the payment succeeds with his transaction', async () => {
    const amount = 1_500_000n;
    const { id, option, buyer, destination, typed, signature, approve } = await signedPermit('150', amount);
    const stranger = await attacker();
    // Naming himself is refused; naming the merchant is all the signature allows.
    expect(await statusOfSent(stranger, payThroughSpender(typed, signature, buyer.address, stranger.address))).toBe(0);
    const paid = await statusOfSent(stranger, payThroughSpender(typed, signature, buyer.address, destination));
    expect(paid).toBe(1);
    expect(await chains.evm.balanceOf(stranger.address, tokenOf(usdt))).toBe(0n);

    expect((await confirm(id, option.id, [approve, signature])).status).toBe(200);
    const { final } = await settle(id);
    expect(final).toBe('succeeded');
    const record = (await env.t.storage.payments.get(id))!;
    expect((await provider().getTransaction(record.txId!))?.from).toBe(stranger.address);
    // Paid once: the relayer sent nothing that moved the buyer's tokens again.
    expect(await chains.evm.balanceOf(destination, tokenOf(usdt))).toBe(amount);
  }, 60_000);
});

describe('the payment.advance job across a crash between recording and broadcasting', () => {
  it('sends the recorded bytes on its next run and pays the merchant exactly once', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdc]);
    const id = await newPayment(merchantId);
    const buyer = Wallet.createRandom().connect(provider());
    await chains.evm.fund(buyer.address, tokenOf(usdc), 20_000_000n);
    const option = await optionFor(id, buyer);
    const payments = env.t.storage.payments;
    const record = payments.recordRelayerTx.bind(payments);
    const recorded: string[] = [];
    // The process dies once, right after the record committed and before the broadcast.
    payments.recordRelayerTx = async (...args) => {
      const ok = await record(...args);
      if (ok) recorded.push(args[1].txId);
      if (recorded.length === 1 && ok) throw new Error('crash after record');
      return ok;
    };
    try {
      expect((await confirm(id, option.id, [await signTypedDataParams(buyer, option.actions[0]!.data.params)])).status).toBe(200);
      const { final } = await settle(id, 20_000);
      expect(final).toBe('succeeded');
    } finally {
      payments.recordRelayerTx = record;
    }
    expect(recorded).toHaveLength(1);
    const paid = await env.t.call('GET', `/v1/gateway/payment/${id}/status`, { key: env.t.a.walletKey });
    expect(paid.body.info.txId).toBe(recorded[0]);
    expect(await chains.evm.balanceOf(destination, tokenOf(usdc))).toBe(10_500_000n);
  }, 60_000);
});

describe('two runs of one payment.advance job at once (a queue may deliver a job twice)', () => {
  it('the run the chain refuses because the other one paid does not release the payment', async () => {
    // The service without its job runner: the test runs the job itself, twice at once.
    const storage = await openEmbeddedStorage();
    const assets = createAssetRegistry(chains.assetConfigs());
    const evm = chains.evm;
    const registry = createChainRegistry([
      createEvmChainAdapter([
        { caip2: evm.caip2, provider: evm.ethersProvider, relayer: new Wallet(evm.relayer.privateKey, evm.ethersProvider), permit2: evm.permit2Address, confirmations: 1 },
      ]),
    ]);
    const t = await startTestApp(storage, { clock: systemClock, assets, chains: registry, prices: createPriceTable(), payBaseUrl: 'https://pay.example.test' });
    try {
      const { merchantId, destination } = await sandboxMerchant(t, [usdc]);
      const created = await t.call('POST', '/v1/payments', {
        key: t.a.key,
        headers: { 'Merchant-Id': merchantId },
        body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'twice' },
      });
      const id = created.body.paymentId as string;
      const buyer = Wallet.createRandom().connect(provider());
      await chains.evm.fund(buyer.address, tokenOf(usdc), 20_000_000n);
      const option = (await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${buyer.address}`] } })).body.options[0];
      const signature = await signTypedDataParams(buyer, option.actions[0].data.params);
      const confirmed = await t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=0`, {
        key: t.a.walletKey,
        body: { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] },
      });
      expect(confirmed.body.status).toBe('processing');
      const job = (await storage.jobs.claimUnrelayed(100, new Date())).find((j: JobRecord) => j.type === 'payment.advance' && j.payload.paymentId === id)!;
      const advance = buildJobHandlers({
        storage,
        clock: systemClock,
        logger: pino({ level: 'silent' }),
        assets,
        chains: registry,
        webhooks: webhookSettings({ allowLoopback: false }).delivery,
      })['payment.advance']!;
      await Promise.all([advance(job), advance(job)]);
      // The refused run looks for the transaction that used the authorization, finds the other
      // run's, and may confirm it at once: never a release.
      expect(['processing', 'succeeded']).toContain((await storage.payments.get(id))?.status);
      await advance(job);
      const paid = await storage.payments.get(id);
      expect(paid?.status).toBe('succeeded');
      // Paid by the relayer's own transaction, the one the other run sent.
      expect((await provider().getTransaction(paid!.txId!))?.from).toBe(evm.relayer.address);
      expect((await storage.payments.events(id)).map((e) => e.type)).toEqual(['payment.created', 'payment.processing', 'payment.succeeded']);
      expect(await chains.evm.balanceOf(destination, tokenOf(usdc))).toBe(10_500_000n);
    } finally {
      await t.close();
      await storage.close();
    }
  }, 60_000);
});
