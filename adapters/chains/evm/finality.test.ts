// A confirmed relayer payment whose block is dropped (evm_snapshot / evm_revert on the sandbox
// chain): followed to finality, it is sent again while the buyer's authorization is valid, and
// reported reversed once it cannot be; a receipt from a block no longer canonical is no success.
import { BrowserProvider, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetRegistry, type AssetInfo } from '../../../server/domain/assets.ts';
import { expectOption, type AdvanceContext, type ChainPort, type OptionRequest, type RecordedTransaction } from '../../../server/ports/chains.ts';
import { createManualClock } from '../../../server/ports/clock.ts';
import { createEvmChainAdapter, type EvmChainConfig } from './gateway-adapter.ts';
import type { RelayerSubmission } from './relayer-flow.ts';
import { toEthersTypedData } from './typed-data.ts';
import { mine, newBuyer, startHarness, type Harness } from './test-support.ts';

const HEAL_MS = 120_000;

describe('finality on the sandbox: a dropped block is healed, or the payment says it was reversed', () => {
  let h: Harness;
  let usdc: AssetInfo;
  const clock = createManualClock(Date.now());
  const rpc = (method: string, params: unknown[] = []) => h.sandbox.provider.request({ method, params });
  const adapter = (over: Partial<EvmChainConfig> = {}): ChainPort =>
    createEvmChainAdapter([
      {
        caip2: h.sandbox.caip2,
        provider: h.sandbox.ethersProvider,
        relayer: h.relayer,
        permit2: h.sandbox.permit2Address,
        confirmations: 1,
        finality: { kind: 'depth', blocks: 3 },
        healWindowMs: HEAL_MS,
        clock,
        ...over,
      },
    ]);

  beforeAll(async () => {
    h = await startHarness();
    const caip19 = `eip155:${h.sandbox.chainId}/erc20:${h.sandbox.usdcAddress}`;
    usdc = createAssetRegistry([{ id: caip19, symbol: 'USDC', name: 'USD Coin', decimals: 6, flows: ['eip3009'], networkName: 'Sandbox' }]).get(caip19)!;
  }, 120_000);
  afterAll(async () => {
    await h?.sandbox.close();
  });

  /** A signed EIP-3009 payment, confirmed after a snapshot taken before its transaction: `revert` drops its block. */
  async function confirmedPayment(port: ChainPort) {
    clock.set(Date.now());
    const buyer = newBuyer(h.sandbox);
    const destination = Wallet.createRandom().address;
    await h.sandbox.fund(buyer.address, h.sandbox.usdcAddress, 10_000_000n);
    const req: OptionRequest = {
      paymentId: `pay_${Math.random()}`,
      optionId: 'opt_1',
      account: `${h.sandbox.caip2}:${buyer.address}`,
      asset: usdc,
      amount: 3_000_000n,
      destination: `${h.sandbox.caip2}:${destination}`,
      quotedAt: new Date(clock.now()),
      deadline: new Date(clock.now() + 60_000),
    };
    const prepared = expectOption(await port.prepareOption(req));
    if (prepared.state.flow !== 'eip3009') throw new Error('expected eip3009');
    const { domain, types, message } = toEthersTypedData(prepared.state.typedData);
    const verdict = await port.verifyResults(req, prepared.state, [await buyer.signTypedData(domain, types, message)]);
    if (!verdict.ok) throw new Error(verdict.message);
    const sub = verdict.submission as RelayerSubmission;
    let recorded: RecordedTransaction | null = null;
    const ctx = (): AdvanceContext => ({ rawTx: recorded?.rawTx ?? null, recordedAt: null, record: async (tx) => ((recorded = tx), true) });
    const snapshot = await rpc('evm_snapshot');
    expect((await port.advance(req, sub, null, ctx())).state).toBe('submitted');
    expect(await port.advance(req, sub, recorded!.txId, ctx())).toMatchObject({ state: 'confirmed', txId: recorded!.txId });
    const balance = () => h.sandbox.balanceOf(destination, h.sandbox.usdcAddress);
    expect(await balance()).toBe(3_000_000n);
    return { req, sub, tx: recorded as unknown as RecordedTransaction, balance, revert: () => rpc('evm_revert', [snapshot]) };
  }

  it('signs authorizations valid for the heal window past the quote deadline', async () => {
    const { req, sub } = await confirmedPayment(adapter());
    expect(BigInt(String(sub.typedData.message.validBefore))).toBe(BigInt(Math.floor((req.deadline.getTime() + HEAL_MS) / 1000)));
  }, 60_000);

  it('(a) a reorg after confirm, within the heal window: the recorded transaction is sent again, final only once deep enough', async () => {
    const port = adapter();
    const { req, sub, tx, balance, revert } = await confirmedPayment(port);
    await revert();
    expect(await balance()).toBe(0n);
    // Past the quote deadline, within the heal window.
    clock.advance(90_000);
    expect(await port.followFinality!(req, sub, tx.txId, tx.rawTx)).toMatchObject({ state: 'pending' });
    expect(await balance()).toBe(3_000_000n);
    expect(await port.followFinality!(req, sub, tx.txId, tx.rawTx)).toEqual({ state: 'pending', reason: 'awaiting finality' });
    await mine(h.sandbox, 2);
    expect(await port.followFinality!(req, sub, tx.txId, tx.rawTx)).toEqual({ state: 'final', txId: tx.txId });
    expect(await balance()).toBe(3_000_000n);
  }, 60_000);

  it('(b) a reorg whose relayer nonce another transaction took: pending while the authorization is valid, reversed once it lapsed', async () => {
    const port = adapter();
    const { req, sub, tx, balance, revert } = await confirmedPayment(port);
    await revert();
    // The relayer's nonce goes to another transaction on the new branch: ours can never mine.
    await (await h.relayer.sendTransaction({ to: h.relayer.address, value: 0n })).wait();
    clock.advance(90_000);
    expect(await port.followFinality!(req, sub, tx.txId, tx.rawTx)).toMatchObject({ state: 'pending' });
    clock.advance(HEAL_MS + 300_000);
    expect(await port.followFinality!(req, sub, tx.txId, tx.rawTx)).toMatchObject({ state: 'reversed', reason: expect.stringMatching(/lapsed/) });
    expect(await balance()).toBe(0n);
  }, 60_000);

  it('(c) a receipt from a block that is no longer canonical is not taken as success', async () => {
    const honest = adapter();
    const { req, sub, tx, revert } = await confirmedPayment(honest);
    const stale = await rpc('eth_getTransactionReceipt', [tx.txId]);
    await revert();
    await mine(h.sandbox, 3);
    // A node that kept the receipt across the reorg (or a replica behind a balancer) still answers it.
    const lying = new BrowserProvider(
      {
        request: async (a: { method: string; params?: unknown[] | Record<string, unknown> }) =>
          a.method === 'eth_getTransactionReceipt' && (a.params as unknown[])[0] === tx.txId ? stale : rpc(a.method, (a.params as unknown[]) ?? []),
      },
      h.sandbox.chainId,
      { staticNetwork: true, cacheTimeout: -1 },
    );
    const port = adapter({ provider: lying, relayer: h.relayer.connect(lying) });
    const ctx: AdvanceContext = { rawTx: tx.rawTx, recordedAt: null, record: () => Promise.resolve(false) };
    expect((await port.advance(req, sub, tx.txId, ctx)).state).not.toBe('confirmed');
    expect((await port.followFinality!(req, sub, tx.txId, tx.rawTx)).state).not.toBe('final');
  }, 60_000);
});
