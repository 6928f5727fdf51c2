// The relayer's nonces owned by the service (issue 32, migration 029) through the whole service on
// real PostgreSQL and the sandbox chain: a nonce is given in the transaction that records the signed
// transaction, so a worker that dies between its record and its broadcast never sees its nonce given
// again (the node's pending count did not know it); a nonce whose transaction will never reach the
// chain is filled so the later ones mine; a stuck batch's replacement is recorded on all its payments.
import { Transaction, Wallet, parseEther, toQuantity, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../adapters/storage/postgres/index.ts';
import { createRelayerNonceLedger } from '../adapters/storage/postgres/relayer-nonces.ts';
import { upfrontCost } from '../adapters/chains/evm/relayer-submit.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { createManualClock } from '../server/ports/clock.ts';
import type { PaymentRecord } from '../server/domain/payments/records.ts';
import { sandboxMerchant, signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import { dropSchema, postgresAvailable, postgresUrl, uniqueSchema } from './helpers/services.ts';
import { waitFor } from './helpers/wait-for.ts';

const AMOUNT = 10_500_000n;

describe.runIf(await postgresAvailable())('relayer nonces owned by the service, on PostgreSQL', () => {
  const schema = uniqueSchema('nonces');
  let chains: SandboxChains;
  let storage: Awaited<ReturnType<typeof createPostgresStorage>>;
  let env: GatewayEnv;
  let get: (id: string) => Promise<PaymentRecord | null>;
  /** Payments whose advance job waits here: the worker holding them is down until released. */
  const held = new Map<string, Promise<void>>();
  /**
   * Payments whose next record commits and then throws: the worker died before it broadcast, and
   * their steps wait until released (the worker is down).
   */
  const crashAfterRecord = new Map<string, () => void>();
  /** Holds the payment's steps from now on; answers the release. */
  function hold(id: string): () => void {
    let release!: () => void;
    held.set(
      id,
      new Promise<void>((r) => {
        release = r;
      }),
    );
    return () => {
      held.delete(id);
      release();
    };
  }
  /** Crashes the payment's next record; answers the release of its held steps. */
  function crashAfterRecording(id: string): () => void {
    let releaseLater: (() => void) | null = null;
    let released = false;
    crashAfterRecord.set(id, () => {
      releaseLater = hold(id);
      if (released) releaseLater();
    });
    return () => {
      released = true;
      releaseLater?.();
    };
  }
  const crashed = (id: string): boolean => {
    const down = crashAfterRecord.get(id);
    crashAfterRecord.delete(id);
    down?.();
    return down !== undefined;
  };

  beforeAll(async () => {
    chains = await createSandboxChains();
    storage = await createPostgresStorage({ url: postgresUrl, schema, poolSize: 10 });
    get = storage.payments.get.bind(storage.payments);
    storage.payments.get = async (id) => {
      await held.get(id);
      return get(id);
    };
    const ledger = createRelayerNonceLedger(storage.db);
    const signAndRecord = ledger.signAndRecord.bind(ledger);
    ledger.signAndRecord = async (key, pending, sign, rows, at) => {
      const result = await signAndRecord(key, pending, sign, rows, at);
      if (rows.map((r) => crashed(r.paymentId)).some(Boolean)) throw new Error('the worker died after the record committed');
      return result;
    };
    // The node's count as the nonce source (the code before the counter) records here: the same crash.
    const record = storage.payments.recordRelayerTx.bind(storage.payments);
    storage.payments.recordRelayerTx = async (id, tx, replaces, at) => {
      const took = await record(id, tx, replaces, at);
      if (crashed(id)) throw new Error('the worker died after the record committed');
      return took;
    };
    // No replacement by time: a held step (up to 30 s while another payment fails, on a loaded
    // machine) must mine with the bytes it recorded, not a replacement after the default 45 s.
    env = await startGatewayEnv({ chains, storage, relayerNonces: ledger, jobConcurrency: 4, evm: { replaceAfterMs: 10 * 60_000 } });
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    await storage?.close();
    await chains?.close();
    await dropSchema(schema);
  });

  const usdc = () => chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
  const token = () => usdc().split(':').pop()!;
  const relayer = () => chains.evm.relayer.address;
  async function buyer(): Promise<HDNodeWallet> {
    const wallet = Wallet.createRandom().connect(chains.evm.ethersProvider);
    await chains.evm.fund(wallet.address, token(), AMOUNT);
    return wallet;
  }

  async function signed(merchantId: string) {
    const { t } = env;
    const wallet = await buyer();
    const created = await t.call('POST', '/v1/payments', {
      key: t.a.key,
      headers: { 'Merchant-Id': merchantId },
      body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `n-${Math.random()}` },
    });
    const id = created.body.paymentId as string;
    const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${wallet.address}`] } });
    const option = opts.body.options[0];
    const signature = await signTypedDataParams(wallet, option.actions[0].data.params);
    const confirm = async () => {
      const r = await t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=0`, {
        key: t.a.walletKey,
        body: { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] },
      });
      expect(r.body.status).toBe('processing');
    };
    return { id, confirm };
  }

  /** Confirms the payment and answers the transaction its row recorded. */
  async function recorded(p: { id: string; confirm: () => Promise<void> }): Promise<Transaction> {
    await p.confirm();
    await waitFor(`${p.id} recorded its relayer transaction`, async () => (await storage.payments.getRelayerTx(p.id)) !== null);
    return Transaction.from((await storage.payments.getRelayerTx(p.id))!.rawTx);
  }

  it('a worker dies between recording and broadcasting: the next payment takes the next nonce, not the recorded one, and each is paid once with its recorded bytes', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdc()]);
    const [a, b] = [await signed(merchantId), await signed(merchantId)];
    const before = await chains.evm.ethersProvider.getTransactionCount(relayer(), 'pending');
    const releaseA = crashAfterRecording(a.id);
    const txA = await recorded(a);
    expect(await chains.evm.ethersProvider.getTransaction(txA.hash!)).toBeNull();
    // The node's pending count does not know A's nonce; the service's counter does.
    expect(await chains.evm.ethersProvider.getTransactionCount(relayer(), 'pending')).toBe(before);
    const txB = await recorded(b);
    expect([txA.nonce, txB.nonce]).toEqual([before, before + 1]);
    releaseA();
    await waitFor('both succeeded', async () => (await Promise.all([a, b].map((p) => get(p.id)))).every((p) => p?.status === 'succeeded'), 30_000);
    expect((await Promise.all([a, b].map((p) => get(p.id)))).map((p) => p?.txId)).toEqual([txA.hash, txB.hash]);
    expect(await chains.evm.ethersProvider.getTransactionCount(relayer())).toBe(before + 2);
    expect(await chains.evm.balanceOf(destination, token())).toBe(2n * AMOUNT);
  }, 90_000);

  it('a nonce whose transaction is refused for good is filled by a 0-value transfer, and the transaction signed after it mines', async () => {
    const { merchantId, destination } = await sandboxMerchant(env.t, [usdc()]);
    const [a, b] = [await signed(merchantId), await signed(merchantId)];
    const rpc = (method: string, params: unknown[] = []) => chains.evm.provider.request({ method, params });
    const before = await chains.evm.ethersProvider.getTransactionCount(relayer(), 'pending');
    const balance = await chains.evm.ethersProvider.getBalance(relayer());
    // Blocks on demand: the node queues B behind A's missing nonce instead of refusing it.
    await rpc('evm_setAutomine', [false]);
    try {
      const releaseA = crashAfterRecording(a.id);
      const txA = await recorded(a);
      const txB = await recorded(b);
      expect(txB.nonce).toBe(txA.nonce + 1);
      const releaseB = hold(b.id);
      try {
        // The relayer cannot pay for A's recorded bytes any more (a filler's 21,000 gas it can): A fails for good.
        await rpc('hardhat_setBalance', [relayer(), toQuantity(upfrontCost(txA.serialized) - 1n)]);
        releaseA();
        await waitFor('A released', async () => (await get(a.id))?.status === 'requires_action', 30_000);
        await rpc('hardhat_setBalance', [relayer(), toQuantity(balance)]);
        await rpc('evm_mine');
        const block = (await chains.evm.ethersProvider.getBlock('latest', true))!;
        const fill = block.prefetchedTransactions.find((t) => t.from === relayer() && t.nonce === txA.nonce)!;
        expect([fill.to, fill.value, fill.data]).toEqual([relayer(), 0n, '0x']);
      } finally {
        await rpc('evm_setAutomine', [true]);
        releaseB();
      }
      // B, behind A's nonce (and dropped by the node while the balance was short), is sent again as recorded and mines.
      await waitFor('B succeeded', async () => (await get(b.id))?.status === 'succeeded', 30_000);
      expect((await get(b.id))?.txId).toBe(txB.hash);
      expect(await chains.evm.ethersProvider.getTransactionCount(relayer())).toBe(before + 2);
      expect(await chains.evm.balanceOf(destination, token())).toBe(AMOUNT);
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
  }, 90_000);
});

describe.runIf(await postgresAvailable())('a stuck batch replaced, on PostgreSQL', () => {
  const schema = uniqueSchema('nonces_replace');
  const clock = createManualClock(Date.now());
  let chains: SandboxChains;
  let storage: Awaited<ReturnType<typeof createPostgresStorage>>;
  let env: GatewayEnv;
  /** While set, the second payment's steps wait: only the first one's step replaces the batch. */
  let heldSecond: { id: string; until: Promise<void> } | null = null;
  let get: (id: string) => Promise<PaymentRecord | null>;
  beforeAll(async () => {
    chains = await createSandboxChains();
    storage = await createPostgresStorage({ url: postgresUrl, schema, poolSize: 10 });
    get = storage.payments.get.bind(storage.payments);
    storage.payments.get = async (id) => {
      if (heldSecond?.id === id) await heldSecond.until;
      return get(id);
    };
    const relayers = chains.evm.relayerPool.map((k) => new Wallet(k.privateKey, chains.evm.ethersProvider));
    env = await startGatewayEnv({
      chains,
      storage,
      clock,
      relayerNonces: createRelayerNonceLedger(storage.db),
      evm: { relayers: relayers.slice(0, 1), minRelayerBalance: parseEther('1'), batchMax: 2, batchWindowMs: 1_000 },
      jobConcurrency: 4,
    });
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    await storage?.close();
    await chains?.close();
    await dropSchema(schema);
  });

  it("a stuck batch's replacement is recorded on every payment that held it, and both succeed with it", async () => {
    const rpc = (method: string, params: unknown[] = []) => chains.evm.provider.request({ method, params });
    const usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
    const token = usdc.split(':').pop()!;
    const { t } = env;
    const { merchantId, destination } = await sandboxMerchant(t, [usdc]);
    const payments: { id: string; confirm: () => Promise<unknown> }[] = [];
    for (let i = 0; i < 2; i++) {
      const wallet = Wallet.createRandom().connect(chains.evm.ethersProvider);
      await chains.evm.fund(wallet.address, token, AMOUNT);
      const created = await t.call('POST', '/v1/payments', {
        key: t.a.key,
        headers: { 'Merchant-Id': merchantId },
        body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `r-${Math.random()}` },
      });
      const id = created.body.paymentId as string;
      const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${wallet.address}`] } });
      const option = opts.body.options[0];
      const signature = await signTypedDataParams(wallet, option.actions[0].data.params);
      payments.push({
        id,
        confirm: () =>
          t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=0`, {
            key: t.a.walletKey,
            body: { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] },
          }),
      });
    }
    const txIds = async () => Promise.all(payments.map(async (p) => (await get(p.id))?.txId ?? null));
    await rpc('evm_setAutomine', [false]);
    let replacement: string;
    try {
      await Promise.all(payments.map((p) => p.confirm()));
      await waitFor('the batch recorded on both', async () => (await txIds()).every((x) => x !== null));
      const [first, second] = await txIds();
      expect(second).toBe(first);
      const stuck = (await chains.evm.ethersProvider.getTransaction(first!))!;
      await rpc('hardhat_setNextBlockBaseFeePerGas', [toQuantity(stuck.maxFeePerGas! * 2n)]);
      await rpc('evm_mine');
      let release!: () => void;
      heldSecond = { id: payments[1]!.id, until: new Promise<void>((r) => (release = r)) };
      try {
        clock.advance(60_000);
        await waitFor("the first payment's step recorded a replacement", async () => (await txIds())[0] !== first);
        // The second payment's step has not run: the first one's record moved both rows, so nobody sends the refused bytes again.
        const now = await txIds();
        expect(now[1]).toBe(now[0]);
        replacement = now[0]!;
      } finally {
        heldSecond = null;
        release();
      }
      const sent = (await chains.evm.ethersProvider.getTransaction(replacement))!;
      expect([sent.nonce, sent.to, sent.data]).toEqual([stuck.nonce, stuck.to, stuck.data]);
      await rpc('evm_mine');
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
    await waitFor(
      'both succeeded',
      async () => {
        // The jobs run on the manual clock: moved on as the test waits.
        clock.advance(500);
        return (await Promise.all(payments.map((p) => get(p.id)))).every((p) => p?.status === 'succeeded');
      },
      30_000,
      100,
    );
    expect(await txIds()).toEqual([replacement, replacement]);
    expect(await chains.evm.balanceOf(destination, token)).toBe(2n * AMOUNT);
  }, 90_000);
});
