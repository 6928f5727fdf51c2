// The relayer's batches and key pool on the EDR sandbox (real FiatToken, real Multicall3 code at
// its canonical address): payments sharing one transaction are each judged by their own
// authorization, a bad one is dropped without touching the others, a crash between the batch's
// record and its broadcast pays each payment once, and a key leaving the pool mid-load leaves the
// payments to the others.
import { Contract, Signature, Transaction, Wallet, parseEther, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetRegistry, type AssetInfo } from '../../../server/domain/assets.ts';
import { expectOption, type AdvanceContext, type ChainPort, type OptionRequest, type TransferState } from '../../../server/ports/chains.ts';
import { createEvmChainAdapter, type EvmChainConfig } from './gateway-adapter.ts';
import { judgeReceipt, authorizationOf, type RelayerSubmission } from './relayer-flow.ts';
import { MULTICALL3_ADDRESS, callsIn, multicall3Problem } from './multicall.ts';
import { relayerFeeSpent } from './fee-meter.ts';
import { toEthersTypedData } from './typed-data.ts';
import { memoryPaymentStore, newBuyer, startHarness, type Harness } from './test-support.ts';

let h: Harness;
let usdc: AssetInfo;
beforeAll(async () => {
  h = await startHarness();
  const caip19 = `eip155:${h.sandbox.chainId}/erc20:${h.sandbox.usdcAddress}`;
  usdc = createAssetRegistry([{ id: caip19, symbol: 'USDC', name: 'USD Coin', decimals: 6, flows: ['eip3009'], networkName: 'Sandbox' }]).get(caip19)!;
}, 120_000);
afterAll(async () => {
  await h?.sandbox.close();
});

const chainConfig = (extra: Partial<EvmChainConfig> = {}): EvmChainConfig => ({
  caip2: h.sandbox.caip2,
  provider: h.sandbox.ethersProvider,
  relayer: h.relayer,
  permit2: h.sandbox.permit2Address,
  confirmations: 1,
  ...extra,
});

const store = memoryPaymentStore;

type Signed = { req: OptionRequest; sub: RelayerSubmission; buyer: HDNodeWallet; destination: string };

async function signedPayment(port: ChainPort, opts: { buyer?: HDNodeWallet; destination?: string; amount?: bigint } = {}): Promise<Signed> {
  const buyer = opts.buyer ?? newBuyer(h.sandbox);
  const destination = opts.destination ?? Wallet.createRandom().address;
  const amount = opts.amount ?? 2_000_000n;
  if (!opts.buyer) await h.sandbox.fund(buyer.address, h.sandbox.usdcAddress, 10_000_000n);
  const req: OptionRequest = {
    paymentId: `pay_${Math.random()}`,
    optionId: 'opt_1',
    account: `${h.sandbox.caip2}:${buyer.address}`,
    asset: usdc,
    amount,
    destination: `${h.sandbox.caip2}:${destination}`,
    quotedAt: new Date(),
    deadline: new Date(Date.now() + 600_000),
  };
  const prepared = expectOption(await port.prepareOption(req));
  if (prepared.state.flow !== 'eip3009') throw new Error(`expected an eip3009 option, got ${prepared.state.flow}`);
  const { domain, types, message } = toEthersTypedData(prepared.state.typedData);
  const signature = await buyer.signTypedData(domain, types, message);
  const verdict = await port.verifyResults(req, prepared.state, [signature]);
  if (!verdict.ok || verdict.submission.flow !== 'eip3009') throw new Error('expected an eip3009 submission');
  return { req, sub: verdict.submission, buyer, destination };
}

/** The buyer cancels the authorization on chain (FiatToken's cancelAuthorization): it can pay nothing any more. */
async function cancel(p: Signed): Promise<void> {
  const td = p.sub.typedData;
  const types = {
    CancelAuthorization: [
      { name: 'authorizer', type: 'address' },
      { name: 'nonce', type: 'bytes32' },
    ],
  };
  const sig = Signature.from(await p.buyer.signTypedData(td.domain, types, { authorizer: p.buyer.address, nonce: td.message.nonce }));
  await h.sandbox.fund(p.buyer.address, null, parseEther('0.1'));
  const token = new Contract(h.sandbox.usdcAddress, ['function cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)'], p.buyer);
  await (await token.getFunction('cancelAuthorization').send(p.buyer.address, td.message.nonce, sig.v, sig.r, sig.s)).wait();
}

const balance = (address: string) => h.sandbox.balanceOf(address, h.sandbox.usdcAddress);
const receipt = async (txId: string) => (await h.sandbox.ethersProvider.getTransactionReceipt(txId))!;

/** Advances until the payment's state is final (the sandbox mines each transaction at once). */
async function settle(s: ReturnType<typeof store>, p: Signed): Promise<TransferState> {
  for (let i = 0; i < 20; i++) {
    const step = await s.advance(p.req, p.sub);
    if (step.state === 'confirmed' || step.state === 'failed') return step;
  }
  throw new Error('not settled in 20 steps');
}

describe('Multicall3 on the sandbox', () => {
  it('is at its canonical address and answers aggregate3 as Multicall3 does; an address without it is named', async () => {
    expect(await multicall3Problem(h.sandbox.ethersProvider, BigInt(h.sandbox.chainId))).toBeNull();
    expect(await multicall3Problem(h.sandbox.ethersProvider, 1n)).toMatch(/does not answer aggregate3/);
  });
});

describe('batched EIP-3009 payments', () => {
  let port: ChainPort;
  beforeAll(() => {
    port = createEvmChainAdapter([chainConfig({ batchMax: 4, batchWindowMs: 300 })]);
  });

  it('two payments of one buyer to one merchant, one authorization cancelled: the good one is paid by its own transfer, the bad one released', async () => {
    const good = await signedPayment(port);
    const bad = await signedPayment(port, { buyer: good.buyer, destination: good.destination });
    await cancel(bad);
    const [sg, sb] = [store(port), store(port)];
    const [first, second] = await Promise.all([sg.advance(good.req, good.sub), sb.advance(bad.req, bad.sub)]);
    expect(first).toMatchObject({ state: 'submitted' });
    // Dropped at simulation, never signed into the batch; its used authorization paid nobody: released.
    expect(second).toMatchObject({ state: 'failed', reason: expect.stringMatching(/simulated.*authorization was used, and no transaction paid/) });
    expect(sb.state.records).toBe(0);
    expect(await settle(sg, good)).toMatchObject({ state: 'confirmed', txId: first.txId });
    expect(await balance(good.destination)).toBe(2_000_000n);
  }, 60_000);

  it('two good payments of one buyer to one merchant in one transaction: each confirmed by its own authorization, the merchant paid both', async () => {
    const a = await signedPayment(port);
    const b = await signedPayment(port, { buyer: a.buyer, destination: a.destination });
    const [sa, sb] = [store(port), store(port)];
    const [ra, rb] = await Promise.all([sa.advance(a.req, a.sub), sb.advance(b.req, b.sub)]);
    expect(ra).toMatchObject({ state: 'submitted' });
    expect(rb).toEqual(ra);
    const tx = (await h.sandbox.ethersProvider.getTransaction(ra.txId!))!;
    expect(tx.to).toBe(MULTICALL3_ADDRESS);
    expect(callsIn(tx.to, tx.data)).toBe(2);
    expect(await settle(sa, a)).toMatchObject({ state: 'confirmed', txId: ra.txId });
    expect(await settle(sb, b)).toMatchObject({ state: 'confirmed', txId: ra.txId });
    expect(await balance(a.destination)).toBe(4_000_000n);
    // Each payment is charged half of what the transaction cost.
    const r = await receipt(ra.txId!);
    const share = await relayerFeeSpent(h.sandbox.ethersProvider, [h.relayer.address], ra.txId!);
    expect(share?.amount).toBe((r.gasUsed * r.gasPrice) / 2n);
  }, 60_000);

  it('a receipt carrying one payment never credits another of the same buyer, merchant and amount (a sum over Transfers would)', async () => {
    const a = await signedPayment(port);
    const b = await signedPayment(port, { buyer: a.buyer, destination: a.destination });
    const sa = store(port);
    expect(await settle(sa, a)).toMatchObject({ state: 'confirmed' });
    const r = await receipt(sa.state.recorded!.txId);
    const checkB = { token: h.sandbox.usdcAddress, from: b.buyer.address, to: b.destination, minValue: b.req.amount };
    // Before: the sum of the token's Transfers from the buyer to the merchant said b was paid.
    expect(judgeReceipt(r, checkB)).toMatchObject({ ok: true });
    // After: only the transfer b's own authorization introduced counts, and there is none.
    expect(judgeReceipt(r, checkB, authorizationOf(b.sub))).toMatchObject({ ok: false });
    expect(judgeReceipt(r, { ...checkB, from: a.buyer.address }, authorizationOf(a.sub))).toMatchObject({ ok: true, value: a.req.amount });
  }, 60_000);

  it('a crash between recording the batch and broadcasting it: the recorded bytes are sent by the next step, each payment paid once', async () => {
    const a = await signedPayment(port);
    const b = await signedPayment(port);
    const [sa, sb] = [store(port), store(port)];
    // Every record commits, then the process dies: nothing is broadcast.
    sa.state.crashAfterRecord = true;
    sb.state.crashAfterRecord = true;
    const first = await Promise.allSettled([sa.advance(a.req, a.sub), sb.advance(b.req, b.sub)]);
    sa.state.crashAfterRecord = false;
    sb.state.crashAfterRecord = false;
    expect(first.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    const recorded = sa.state.recorded!;
    expect(sb.state.recorded).toEqual(recorded);
    expect(callsIn(Transaction.from(recorded.rawTx).to, Transaction.from(recorded.rawTx).data)).toBe(2);
    expect(await h.sandbox.ethersProvider.getTransaction(recorded.txId)).toBeNull();
    expect(await balance(a.destination)).toBe(0n);
    expect(await settle(sb, b)).toMatchObject({ state: 'confirmed', txId: recorded.txId });
    expect(await settle(sa, a)).toMatchObject({ state: 'confirmed', txId: recorded.txId });
    expect([sa.state.records, sb.state.records]).toEqual([1, 1]);
    expect([await balance(a.destination), await balance(b.destination)]).toEqual([2_000_000n, 2_000_000n]);
  }, 60_000);

  it("one payment's record fails (its row unwritable): the others' transaction still goes, and that payment finds the batch that paid it", async () => {
    const a = await signedPayment(port);
    const b = await signedPayment(port);
    const sa = store(port);
    const sb = store(port);
    const failing: AdvanceContext = { rawTx: null, recordedAt: null, record: () => Promise.reject(new Error('database unavailable')) };
    const [ra, rb] = await Promise.allSettled([sa.advance(a.req, a.sub), port.advance(b.req, b.sub, null, failing)]);
    expect(ra).toMatchObject({ status: 'fulfilled', value: { state: 'submitted' } });
    expect(rb).toMatchObject({ status: 'rejected', reason: new Error('database unavailable') });
    const batch = sa.state.recorded!.txId;
    // b's job runs again with nothing recorded: its authorization is used, and the batch paid it.
    expect(await settle(sb, b)).toMatchObject({ state: 'confirmed', txId: batch });
    expect(await settle(sa, a)).toMatchObject({ state: 'confirmed', txId: batch });
    expect([await balance(a.destination), await balance(b.destination)]).toEqual([2_000_000n, 2_000_000n]);
  }, 60_000);
});

describe('a pool of relayer keys', () => {
  it('spreads payments over its keys; a key drained mid-load leaves the pool and the rest settle on the others', async () => {
    const extra = [0, 1].map(() => new Wallet(Wallet.createRandom().privateKey, h.sandbox.ethersProvider));
    for (const k of extra) await h.sandbox.fund(k.address, null, parseEther('10'));
    const minRelayerBalance = parseEther('1');
    const port = createEvmChainAdapter([chainConfig({ relayers: [h.relayer, ...extra], minRelayerBalance })]);
    const senders = async (ids: (string | undefined)[]) => Promise.all(ids.map(async (id) => (await h.sandbox.ethersProvider.getTransaction(id!))!.from));

    const round = async (n: number) => {
      const payments = await Promise.all(Array.from({ length: n }, () => signedPayment(port)));
      const stores = payments.map(() => store(port));
      const sent = await Promise.all(payments.map((p, i) => stores[i]!.advance(p.req, p.sub)));
      const settled = await Promise.all(payments.map((p, i) => settle(stores[i]!, p)));
      expect(settled.map((s) => s.state)).toEqual(payments.map(() => 'confirmed'));
      for (const p of payments) expect(await balance(p.destination)).toBe(p.req.amount);
      return senders(sent.map((s) => s.txId));
    };
    const before = new Set(await round(6));
    expect(before.size).toBeGreaterThan(1);

    // One key is drained below its minimum: the next balance read (readiness, metrics) takes it out of the pool.
    const drained = extra[0]!;
    await h.sandbox.provider.request({ method: 'hardhat_setBalance', params: [drained.address, '0x1000'] });
    const accounts = await port.accounts!();
    expect(accounts.map((a) => a.account).sort()).toEqual([h.relayer.address, ...extra.map((k) => k.address)].sort());
    expect(accounts.find((a) => a.account === drained.address)).toMatchObject({ balance: 0x1000n, minimum: minRelayerBalance });

    const after = await round(6);
    expect(after).not.toContain(drained.address);
    expect(new Set(after).size).toBe(2);

    // Funded again, it returns.
    await h.sandbox.fund(drained.address, null, parseEther('10'));
    await port.accounts!();
    expect(await round(6)).toContain(drained.address);
  }, 120_000);

  it('a recorded transaction is followed, after a crash, with the key that signed it', async () => {
    const extra = new Wallet(Wallet.createRandom().privateKey, h.sandbox.ethersProvider);
    await h.sandbox.fund(extra.address, null, parseEther('10'));
    const port = createEvmChainAdapter([chainConfig({ relayers: [h.relayer, extra] })]);
    const p = await signedPayment(port);
    const s = store(port);
    s.state.crashAfterRecord = true;
    await expect(s.advance(p.req, p.sub)).rejects.toThrow('crash after record');
    s.state.crashAfterRecord = false;
    const signer = Transaction.from(s.state.recorded!.rawTx).from!;
    expect(await settle(s, p)).toMatchObject({ state: 'confirmed', txId: s.state.recorded!.txId });
    expect((await h.sandbox.ethersProvider.getTransaction(s.state.recorded!.txId))!.from).toBe(signer);
  }, 60_000);
});
