import { Transaction, Wallet, toQuantity } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetRegistry, type AssetInfo } from '../../../server/domain/assets.ts';
import {
  expectOption,
  type AdvanceContext,
  type ChainPort,
  type OptionRequest,
  type RecordedTransaction,
  type Submission,
  type TransferState,
} from '../../../server/ports/chains.ts';
import { createManualClock } from '../../../server/ports/clock.ts';
import { createEvmChainAdapter } from './gateway-adapter.ts';
import { bumpedReplacement } from './replacement.ts';
import { toEthersTypedData } from './typed-data.ts';
import { newBuyer, startHarness, type Harness } from './test-support.ts';

const GWEI = 1_000_000_000n;
const relayer = Wallet.createRandom();
const signed = (fields: Record<string, unknown>) => relayer.signTransaction({ to: relayer.address, data: '0x1234', nonce: 7, gasLimit: 90_000n, chainId: 31337n, ...fields });

describe('bumpedReplacement: the same request at the same nonce, with fees nodes accept as a replacement', () => {
  it('raises both fees by a quarter, or to what the node asks now when that is more, and keeps the rest', async () => {
    const raw = await signed({ type: 2, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    const r = bumpedReplacement(raw, { maxFeePerGas: 11n * GWEI, maxPriorityFeePerGas: 5n * GWEI, gasPrice: null }, 500n * GWEI);
    if (!r.ok) throw new Error(r.reason);
    expect([r.tx.maxFeePerGas, r.tx.maxPriorityFeePerGas]).toEqual([12_500_000_000n, 5n * GWEI]);
    const old = Transaction.from(raw);
    expect([r.tx.nonce, r.tx.gasLimit, r.tx.to, r.tx.data, r.tx.chainId, r.tx.signature]).toEqual([old.nonce, old.gasLimit, old.to, old.data, old.chainId, null]);
    const legacy = bumpedReplacement(await signed({ type: 0, gasPrice: 4n * GWEI }), { maxFeePerGas: null, maxPriorityFeePerGas: null, gasPrice: null }, 500n * GWEI);
    expect(legacy.ok && legacy.tx.gasPrice).toBe(5n * GWEI);
  });

  it('holds the fees to the cap, and refuses when the cap leaves less than the 10% a replacement needs', async () => {
    const raw = await signed({ type: 2, maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    const spike = { maxFeePerGas: 10_000n * GWEI, maxPriorityFeePerGas: 2n * GWEI, gasPrice: null };
    const capped = bumpedReplacement(raw, spike, 115n * GWEI);
    expect(capped.ok && capped.tx.maxFeePerGas).toBe(115n * GWEI);
    expect(bumpedReplacement(raw, spike, 109n * GWEI)).toMatchObject({ ok: false, reason: expect.stringMatching(/fee cap/) });
  });
});

/**
 * The relayer's transaction sticks in the sandbox's mempool (automine off, the base fee raised
 * above what it offers): past the bound it is replaced at its nonce, and whichever of the two
 * mines pays the merchant, once.
 */
describe('relayer transaction not mined: replaced with a higher fee at the same nonce', () => {
  const REPLACE_AFTER_MS = 45_000;
  const clock = createManualClock(Date.now());
  let h: Harness;
  let port: ChainPort;
  let usdc: AssetInfo;
  beforeAll(async () => {
    h = await startHarness();
    const caip19 = `eip155:${h.sandbox.chainId}/erc20:${h.sandbox.usdcAddress}`;
    usdc = createAssetRegistry([{ id: caip19, symbol: 'USDC', name: 'USD Coin', decimals: 6, flows: ['eip3009'], networkName: 'Sandbox' }]).get(caip19)!;
    port = createEvmChainAdapter([
      {
        caip2: h.sandbox.caip2,
        provider: h.sandbox.ethersProvider,
        relayer: h.relayer,
        permit2: h.sandbox.permit2Address,
        confirmations: 1,
        clock,
        replaceAfterMs: REPLACE_AFTER_MS,
      },
    ]);
  }, 120_000);
  afterAll(async () => {
    await h?.sandbox.close();
  });

  const rpc = (method: string, params: unknown[] = []) => h.sandbox.provider.request({ method, params });
  const balance = (address: string) => h.sandbox.balanceOf(address, h.sandbox.usdcAddress);
  const mined = async (txId: string) => (await h.sandbox.ethersProvider.getTransactionReceipt(txId)) !== null;
  /** Blocks go on, but none takes a transaction offering less than twice `raw`'s max fee. */
  const spikeAbove = async (raw: string) => {
    await rpc('hardhat_setNextBlockBaseFeePerGas', [toQuantity(Transaction.from(raw).maxFeePerGas! * 2n)]);
    await rpc('evm_mine');
  };
  /** Runs `body` with blocks mined only when asked. */
  async function withoutAutomine(body: () => Promise<void>) {
    await rpc('evm_setAutomine', [false]);
    try {
      await body();
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
  }

  /** The payment's storage, in memory: the recorded transaction and when it was recorded. */
  function store() {
    const state = { recorded: null as RecordedTransaction | null, recordedAt: null as Date | null, records: 0 };
    const ctx = (): AdvanceContext => ({
      rawTx: state.recorded?.rawTx ?? null,
      recordedAt: state.recordedAt,
      async record(tx, replaces) {
        if ((state.recorded?.txId ?? null) !== replaces) return false;
        state.recorded = tx;
        state.recordedAt = new Date(clock.now());
        state.records++;
        return true;
      },
    });
    const advance = (req: OptionRequest, sub: Submission): Promise<TransferState> => port.advance(req, sub, state.recorded?.txId ?? null, ctx());
    return { state, advance };
  }

  async function signedPayment(amount = 3_000_000n) {
    const buyer = newBuyer(h.sandbox);
    const destination = Wallet.createRandom().address;
    await h.sandbox.fund(buyer.address, h.sandbox.usdcAddress, 10_000_000n);
    const req: OptionRequest = {
      paymentId: `pay_${Math.random()}`,
      optionId: 'opt_1',
      account: `${h.sandbox.caip2}:${buyer.address}`,
      asset: usdc,
      amount,
      destination: `${h.sandbox.caip2}:${destination}`,
      quotedAt: new Date(clock.now()),
      deadline: new Date(clock.now() + 600_000),
    };
    const prepared = expectOption(await port.prepareOption(req));
    if (prepared.state.flow !== 'eip3009') throw new Error(`expected an eip3009 option, got ${prepared.state.flow}`);
    const { domain, types, message } = toEthersTypedData(prepared.state.typedData);
    const verdict = await port.verifyResults(req, prepared.state, [await buyer.signTypedData(domain, types, message)]);
    if (!verdict.ok) throw new Error(verdict.message);
    return { req, sub: verdict.submission, destination, s: store() };
  }

  it('waits within the bound, then records and broadcasts a replacement at the same nonce with higher fees; it mines and pays once', async () => {
    const { req, sub, destination, s } = await signedPayment();
    await withoutAutomine(async () => {
      const first = await s.advance(req, sub);
      const old = s.state.recorded!;
      expect(first).toEqual({ state: 'submitted', txId: old.txId });
      await spikeAbove(old.rawTx);
      clock.advance(REPLACE_AFTER_MS - 1_000);
      expect(await s.advance(req, sub)).toMatchObject({ state: 'pending', txId: old.txId, reason: 'not mined yet' });
      expect(s.state.records).toBe(1);
      clock.advance(1_000);
      const replaced = await s.advance(req, sub);
      const next = s.state.recorded!;
      expect(replaced).toEqual({ state: 'submitted', txId: next.txId });
      expect(next.txId).not.toBe(old.txId);
      const [a, b] = [Transaction.from(old.rawTx), Transaction.from(next.rawTx)];
      expect(b.nonce).toBe(a.nonce);
      expect(b.data).toBe(a.data);
      expect(b.maxFeePerGas! * 100n).toBeGreaterThanOrEqual(a.maxFeePerGas! * 125n);
      expect(b.maxPriorityFeePerGas! * 100n).toBeGreaterThanOrEqual(a.maxPriorityFeePerGas! * 110n);
      // The node holds the replacement in the old one's place.
      expect(await h.sandbox.ethersProvider.getTransaction(next.txId)).not.toBeNull();
      await rpc('evm_mine');
      expect(await mined(next.txId)).toBe(true);
      expect(await mined(old.txId)).toBe(false);
    });
    expect(await s.advance(req, sub)).toMatchObject({ state: 'confirmed', txId: s.state.recorded!.txId });
    expect(s.state.records).toBe(2);
    expect(await balance(destination)).toBe(3_000_000n);
  }, 60_000);

  it('the old transaction mines after its replacement was recorded: confirmed with the old one, no second transfer', async () => {
    const { req, sub, destination, s } = await signedPayment();
    let oldId = '';
    await withoutAutomine(async () => {
      await s.advance(req, sub);
      const old = s.state.recorded!;
      oldId = old.txId;
      clock.advance(REPLACE_AFTER_MS);
      expect((await s.advance(req, sub)).state).toBe('submitted');
      const next = s.state.recorded!;
      expect(next.txId).not.toBe(old.txId);
      // The replacement never reaches a miner (another node kept the old one): the old one mines.
      await rpc('hardhat_dropTransaction', [next.txId]);
      await h.sandbox.ethersProvider.broadcastTransaction(old.rawTx);
      await rpc('evm_mine');
      expect(await mined(old.txId)).toBe(true);
    });
    expect(await s.advance(req, sub)).toMatchObject({ state: 'confirmed', txId: oldId });
    expect(await s.advance(req, sub)).toMatchObject({ state: 'confirmed', txId: oldId });
    expect(s.state.records).toBe(2);
    expect(await balance(destination)).toBe(3_000_000n);
  }, 60_000);

  it('a later payment queued behind the stuck nonce is mined once the stuck one is replaced', async () => {
    const one = await signedPayment();
    const two = await signedPayment(1_000_000n);
    await withoutAutomine(async () => {
      await one.s.advance(one.req, one.sub);
      const stuck = one.s.state.recorded!;
      const spike = Transaction.from(stuck.rawTx).maxFeePerGas! * 2n;
      await spikeAbove(stuck.rawTx);
      // EDR counts the pending nonce from the block it would mine next: let that block take the
      // stuck one for a moment, so the later payment takes the next nonce as on any public node.
      await rpc('hardhat_setNextBlockBaseFeePerGas', [toQuantity(GWEI)]);
      expect((await two.s.advance(two.req, two.sub)).state).toBe('submitted');
      const later = two.s.state.recorded!;
      expect(Transaction.from(later.rawTx).nonce).toBe(Transaction.from(stuck.rawTx).nonce + 1);
      // The later one offers enough for this block, but waits behind the stuck nonce.
      await rpc('hardhat_setNextBlockBaseFeePerGas', [toQuantity(spike)]);
      await rpc('evm_mine');
      expect(Transaction.from(later.rawTx).maxFeePerGas!).toBeGreaterThan(spike);
      expect([await mined(stuck.txId), await mined(later.txId)]).toEqual([false, false]);
      clock.advance(REPLACE_AFTER_MS);
      expect((await one.s.advance(one.req, one.sub)).state).toBe('submitted');
      await rpc('evm_mine');
    });
    expect(await two.s.advance(two.req, two.sub)).toMatchObject({ state: 'confirmed', txId: two.s.state.recorded!.txId });
    expect(await one.s.advance(one.req, one.sub)).toMatchObject({ state: 'confirmed', txId: one.s.state.recorded!.txId });
    expect([await balance(one.destination), await balance(two.destination)]).toEqual([3_000_000n, 1_000_000n]);
  }, 60_000);
});
