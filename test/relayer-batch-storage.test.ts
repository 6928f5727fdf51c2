// Relayer batches through the whole service on real PostgreSQL (issue 32): the advance jobs of
// several EIP-3009 payments share one Multicall3 transaction, and every payment's row records it.
// The adapter's own batch tests keep the record in memory, so a storage rule (the unique
// (network, tx_id) index, migration 025) never met them: here the real repository does. A bad
// authorization inside the batch, a crash between the batch's record and its broadcast, and a key
// leaving the pool with its batch in flight: each payment paid once, by its own authorization.
import { Contract, Signature, Transaction, Wallet, parseEther, parseUnits, toQuantity, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../adapters/storage/postgres/index.ts';
import { MULTICALL3_ADDRESS, callsIn } from '../adapters/chains/evm/multicall.ts';
import { toEthersTypedData, type Eip712TypedData } from '../adapters/chains/evm/typed-data.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { sandboxMerchant, signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import { dropSchema, postgresAvailable, postgresUrl, uniqueSchema } from './helpers/services.ts';
import { waitFor } from './helpers/wait-for.ts';

const AMOUNT = 10_500_000n;
const MIN_RELAYER_BALANCE = parseEther('1');

describe.runIf(await postgresAvailable())('relayer batches on PostgreSQL', () => {
  const schema = uniqueSchema('batch');
  let chains: SandboxChains;
  let storage: Awaited<ReturnType<typeof createPostgresStorage>>;
  let env: GatewayEnv;
  beforeAll(async () => {
    chains = await createSandboxChains();
    storage = await createPostgresStorage({ url: postgresUrl, schema, poolSize: 10 });
    const relayers = chains.evm.relayerPool.map((k) => new Wallet(k.privateKey, chains.evm.ethersProvider));
    env = await startGatewayEnv({ chains, storage, evm: { relayers, minRelayerBalance: MIN_RELAYER_BALANCE, batchMax: 16, batchWindowMs: 1_000 }, jobConcurrency: 8 });
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    await storage?.close();
    await chains?.close();
    await dropSchema(schema);
  });

  const rpc = (method: string, params: unknown[] = []) => chains.evm.provider.request({ method, params });
  const usdc = () => chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
  const token = () => usdc().split(':').pop()!;
  const payment = (id: string) => env.t.storage.payments.get(id);

  /** A buyer holding `payments` amounts of USDC and some gas of its own. */
  async function buyer(payments: number): Promise<HDNodeWallet> {
    const wallet = Wallet.createRandom().connect(chains.evm.ethersProvider);
    await chains.evm.fund(wallet.address, token(), AMOUNT * BigInt(payments));
    await chains.evm.fund(wallet.address, null, parseEther('1'));
    return wallet;
  }

  /** A payment of the merchant, its EIP-3009 option signed by `wallet`: ready to confirm. */
  async function signed(merchantId: string, wallet: HDNodeWallet) {
    const { t } = env;
    const created = await t.call('POST', '/v1/payments', {
      key: t.a.key,
      headers: { 'Merchant-Id': merchantId },
      body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `b-${Math.random()}` },
    });
    const id = created.body.paymentId as string;
    const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${wallet.address}`] } });
    const option = opts.body.options[0];
    expect(option.actions[0].data.method).toBe('eth_signTypedData_v4');
    const typedData = JSON.parse(String(option.actions[0].data.params[1])) as Eip712TypedData;
    const signature = await signTypedDataParams(wallet, option.actions[0].data.params);
    const confirm = async () => {
      const r = await t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=0`, {
        key: t.a.walletKey,
        body: { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] },
      });
      expect(r.body.status).toBe('processing');
    };
    return { id, typedData, confirm };
  }

  /** Confirms every payment, and answers each row's relayer transaction once every row holds one. */
  async function confirmAll(ps: Array<{ id: string; confirm: () => Promise<void> }>): Promise<string[]> {
    await Promise.all(ps.map((p) => p.confirm()));
    await waitFor('every payment recorded its relayer transaction', async () => (await Promise.all(ps.map((p) => payment(p.id)))).every((r) => r?.txId));
    return Promise.all(ps.map(async (p) => (await payment(p.id))!.txId!));
  }

  it('three payments of one buyer to one merchant in one batch, one authorization cancelled before the block: the two good ones succeed with their own transfers, the bad one is released', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdc()]);
    const wallet = await buyer(3);
    const [a, b, bad] = [await signed(merchantId, wallet), await signed(merchantId, wallet), await signed(merchantId, wallet)];
    await rpc('evm_setAutomine', [false]);
    let batch: string;
    let cancelled: string;
    try {
      const recorded = await confirmAll([a, b, bad]);
      batch = recorded[0]!;
      // Every payment's row holds the one transaction that carries the three calls.
      expect(recorded).toEqual([batch, batch, batch]);
      const tx = (await chains.evm.ethersProvider.getTransaction(batch))!;
      expect([tx.to, callsIn(tx.to, tx.data), tx.blockNumber]).toEqual([MULTICALL3_ADDRESS, 3, null]);
      // The buyer cancels one authorization, its fee ahead of the batch's: the batch's call with it fails, alone.
      const { domain, message } = toEthersTypedData(bad.typedData);
      const types = {
        CancelAuthorization: [
          { name: 'authorizer', type: 'address' },
          { name: 'nonce', type: 'bytes32' },
        ],
      };
      const sig = Signature.from(await wallet.signTypedData(domain, types, { authorizer: wallet.address, nonce: message.nonce }));
      const fiatToken = new Contract(token(), ['function cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)'], wallet);
      // Its own gas limit: an estimate on the pending block, the batch applied first, would revert.
      const fees = { maxPriorityFeePerGas: parseUnits('50', 'gwei'), maxFeePerGas: parseUnits('200', 'gwei'), gasLimit: 100_000n };
      cancelled = (await fiatToken.getFunction('cancelAuthorization').send(wallet.address, message.nonce, sig.v, sig.r, sig.s, fees)).hash;
      await rpc('evm_mine');
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
    const [batchReceipt, cancelReceipt] = await Promise.all([batch, cancelled].map((h) => chains.evm.ethersProvider.getTransactionReceipt(h)));
    expect(batchReceipt).toMatchObject({ status: 1, blockNumber: cancelReceipt!.blockNumber });
    expect(cancelReceipt!.index).toBeLessThan(batchReceipt!.index);

    await waitFor('the good ones succeeded, the bad one released', async () => {
      const [pa, pb, pbad] = await Promise.all([a, b, bad].map((p) => payment(p.id)));
      return pa?.status === 'succeeded' && pb?.status === 'succeeded' && pbad?.status === 'requires_action';
    });
    expect((await Promise.all([a, b].map((p) => payment(p.id)))).map((p) => p?.txId)).toEqual([batch, batch]);
    // Two transfers of the amount from this buyer to this merchant are in the receipt: each paid its own payment, neither the bad one.
    expect(await chains.evm.balanceOf(destination, token())).toBe(2n * AMOUNT);
    expect(await chains.evm.balanceOf(wallet.address, token())).toBe(AMOUNT);
  }, 90_000);

  it('a crash between recording the batch and broadcasting it: the next steps send the recorded bytes, each payment paid once', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdc()]);
    const [a, b] = [await signed(merchantId, await buyer(1)), await signed(merchantId, await buyer(1))];
    const payments = storage.payments;
    const record = payments.recordRelayerTx.bind(payments);
    // The process dies as each record commits: nothing of the batch is broadcast.
    let crashing = true;
    payments.recordRelayerTx = async (...args) => {
      const took = await record(...args);
      if (crashing) throw new Error('the worker died after the record committed');
      return took;
    };
    let recorded: string[];
    let raw: string;
    try {
      recorded = await confirmAll([a, b]);
      raw = (await payments.getRelayerTx(a.id))!.rawTx;
    } finally {
      crashing = false;
      payments.recordRelayerTx = record;
    }
    expect(recorded[1]).toBe(recorded[0]);
    expect(await payments.getRelayerTx(b.id)).toEqual({ txId: recorded[0], rawTx: raw });
    const signedTx = Transaction.from(raw);
    expect(callsIn(signedTx.to, signedTx.data)).toBe(2);
    expect(await chains.evm.ethersProvider.getTransaction(recorded[0]!)).toBeNull();
    expect(await chains.evm.balanceOf(destination, token())).toBe(0n);
    // Restarted (the jobs run again): the recorded bytes go out, nothing is signed anew at another nonce.
    await waitFor('both succeeded', async () => (await Promise.all([a, b].map((p) => payment(p.id)))).every((p) => p?.status === 'succeeded'), 30_000);
    expect((await Promise.all([a, b].map((p) => payment(p.id)))).map((p) => p?.txId)).toEqual(recorded);
    const mined = (await chains.evm.ethersProvider.getTransaction(recorded[0]!))!;
    expect([mined.from, mined.nonce, mined.blockNumber !== null]).toEqual([signedTx.from, signedTx.nonce, true]);
    expect(await chains.evm.ethersProvider.getTransactionCount(signedTx.from!)).toBe(signedTx.nonce + 1);
    expect(await chains.evm.balanceOf(destination, token())).toBe(2n * AMOUNT);
  }, 90_000);
  it('a key leaving the pool (balance below its minimum) with its batch in flight: that batch still pays its payments, new ones go to other keys', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdc()]);
    const first = [await signed(merchantId, await buyer(1)), await signed(merchantId, await buyer(1))];
    const later = [await signed(merchantId, await buyer(1)), await signed(merchantId, await buyer(1))];
    const evm = env.ports.find((p) => p.namespace === 'eip155')!;
    const senderOf = async (txId: string) => (await chains.evm.ethersProvider.getTransaction(txId))!.from;
    // Automine off: the first batch waits in the mempool while its key leaves the pool.
    await rpc('evm_setAutomine', [false]);
    const { leaving, inFlight, next } = await (async () => {
      try {
        const sent = await confirmAll(first);
        expect(sent[1]).toBe(sent[0]);
        const key = await senderOf(sent[0]!);
        // Drained below its minimum while its batch waits for a block (it can still pay for that one).
        await rpc('hardhat_setBalance', [key, toQuantity(MIN_RELAYER_BALANCE / 2n)]);
        expect((await evm.accounts!()).find((a) => a.account === key)).toMatchObject({ balance: MIN_RELAYER_BALANCE / 2n, minimum: MIN_RELAYER_BALANCE });
        const after = await confirmAll(later);
        expect(after[1]).toBe(after[0]);
        expect(await senderOf(after[0]!)).not.toBe(key);
        await rpc('evm_mine');
        return { leaving: key, inFlight: sent, next: after };
      } finally {
        await rpc('evm_setAutomine', [true]);
      }
    })();
    const all = [...first, ...later];
    await waitFor('all four succeeded', async () => (await Promise.all(all.map((p) => payment(p.id)))).every((p) => p?.status === 'succeeded'), 30_000);
    expect((await Promise.all(all.map((p) => payment(p.id)))).map((p) => p?.txId)).toEqual([...inFlight, ...next]);
    expect(await senderOf(inFlight[0]!)).toBe(leaving);
    expect(await chains.evm.balanceOf(destination, token())).toBe(4n * AMOUNT);
    // Funded again, it takes payments once a balance read covers its minimum.
    await chains.evm.fund(leaving, null, parseEther('10'));
    expect((await evm.accounts!()).find((a) => a.account === leaving)!.balance).toBeGreaterThanOrEqual(MIN_RELAYER_BALANCE);
  }, 90_000);
});
