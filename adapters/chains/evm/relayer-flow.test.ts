import { Contract, Signature, Wallet, parseEther, zeroPadValue, toBeHex, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetRegistry, type AssetInfo } from '../../../server/domain/assets.ts';
import { expectOption, type ChainPort, type OptionRequest } from '../../../server/ports/chains.ts';
import { createEvmChainAdapter } from './gateway-adapter.ts';
import { judgeReceipt, type PaymentCheck, type RelayerSubmission } from './relayer-flow.ts';
import { submissionProblem } from './relayer-request.ts';
import { erc20Interface } from './transfer.ts';
import { submitTransferWithAuthorization } from './eip3009.ts';
import { toEthersTypedData } from './typed-data.ts';
import { memoryPaymentStore, newBuyer, startHarness, type Harness } from './test-support.ts';

const TOKEN = '0x1111111111111111111111111111111111111111';
const BUYER = '0x2222222222222222222222222222222222222222';
const MERCHANT = '0x3333333333333333333333333333333333333333';
const transferLog = (token: string, from: string, to: string, value: bigint) => ({
  address: token,
  topics: [erc20Interface.getEvent('Transfer')!.topicHash, zeroPadValue(from, 32), zeroPadValue(to, 32)],
  data: zeroPadValue(toBeHex(value), 32),
});

describe('judgeReceipt: only the relayer receipt that paid the merchant in full counts', () => {
  const check: PaymentCheck = { token: TOKEN, from: BUYER, to: MERCHANT, minValue: 1000n };
  const receipt = (status: number, logs: ReturnType<typeof transferLog>[]) => ({ status, logs }) as unknown as Parameters<typeof judgeReceipt>[0];

  it('accepts at least the amount, summed over the token’s own Transfer logs', () => {
    expect(judgeReceipt(receipt(1, [transferLog(TOKEN, BUYER, MERCHANT, 1000n)]), check)).toEqual({ ok: true, value: 1000n });
    expect(judgeReceipt(receipt(1, [transferLog(TOKEN, BUYER, MERCHANT, 600n), transferLog(TOKEN, BUYER, MERCHANT, 500n)]), check)).toEqual({ ok: true, value: 1100n });
  });

  it('refuses a success that moved less, to another address, from another payer or of another token, and a revert', () => {
    const other = Wallet.createRandom().address;
    for (const logs of [
      [transferLog(TOKEN, BUYER, MERCHANT, 999n)],
      [transferLog(TOKEN, BUYER, other, 1000n)],
      [transferLog(TOKEN, other, MERCHANT, 1000n)],
      [transferLog(other, BUYER, MERCHANT, 1000n)],
      [],
    ]) {
      expect(judgeReceipt(receipt(1, logs), check)).toMatchObject({ ok: false, reason: expect.stringMatching(/below the required 1000/) });
    }
    expect(judgeReceipt(receipt(0, [transferLog(TOKEN, BUYER, MERCHANT, 1000n)]), check)).toEqual({ ok: false, reason: 'the relayer transaction reverted on chain' });
  });
});

describe('submissionProblem: nothing is sent that could pay anyone but this payment’s destination', () => {
  const check: PaymentCheck = { token: TOKEN, from: BUYER, to: MERCHANT, minValue: 1000n };
  const permit = (primaryType: string, destination: string, amount = '0x3e8'): RelayerSubmission => ({
    flow: 'permit2',
    signature: '0x',
    typedData: { types: {}, primaryType, domain: {}, message: { permitted: { token: TOKEN, amount }, witness: { payment: '0x' + '00'.repeat(32), destination } } },
  });
  it('refuses a permit without the witness, for another destination or for less', () => {
    expect(submissionProblem(permit('PermitWitnessTransferFrom', MERCHANT), check)).toBeNull();
    expect(submissionProblem(permit('PermitTransferFrom', MERCHANT), check)).toMatch(/does not name the destination/);
    expect(submissionProblem(permit('PermitWitnessTransferFrom', BUYER), check)).toMatch(/another destination/);
    expect(submissionProblem(permit('PermitWitnessTransferFrom', MERCHANT, '0x3e7'), check)).toMatch(/less than the amount/);
  });
});

/**
 * The relayer on the sandbox with real keys: its transaction is recorded before it is broadcast,
 * and every crash point is found again by that record, paying the merchant exactly once.
 */
describe('relayer flow on the sandbox: record, broadcast, crash and recover', () => {
  let h: Harness;
  let port: ChainPort;
  let usdc: AssetInfo;
  beforeAll(async () => {
    h = await startHarness();
    const caip19 = `eip155:${h.sandbox.chainId}/erc20:${h.sandbox.usdcAddress}`;
    usdc = createAssetRegistry([{ id: caip19, symbol: 'USDC', name: 'USD Coin', decimals: 6, flows: ['eip3009'], networkName: 'Sandbox' }]).get(caip19)!;
    port = createEvmChainAdapter([{ caip2: h.sandbox.caip2, provider: h.sandbox.ethersProvider, relayer: h.relayer, permit2: h.sandbox.permit2Address, confirmations: 1 }]);
  }, 120_000);
  afterAll(async () => {
    await h?.sandbox.close();
  });

  const store = () => memoryPaymentStore(port);

  async function signedPayment(amount = 3_000_000n): Promise<{ req: OptionRequest; sub: RelayerSubmission; buyer: HDNodeWallet; destination: string }> {
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
      quotedAt: new Date(),
      deadline: new Date(Date.now() + 600_000),
    };
    const prepared = expectOption(await port.prepareOption(req));
    if (prepared.state.flow !== 'eip3009') throw new Error(`expected an eip3009 option, got ${prepared.state.flow}`);
    const { typedData } = prepared.state;
    const { domain, types, message } = toEthersTypedData(typedData);
    const signature = await buyer.signTypedData(domain, types, message);
    const verdict = await port.verifyResults(req, prepared.state, [signature]);
    if (!verdict.ok) throw new Error(verdict.message);
    if (verdict.submission.flow !== 'eip3009') throw new Error('expected an eip3009 submission');
    return { req, sub: verdict.submission, buyer, destination };
  }

  const balance = (address: string) => h.sandbox.balanceOf(address, h.sandbox.usdcAddress);
  const known = async (txId: string) => (await h.sandbox.ethersProvider.getTransaction(txId)) !== null;
  /** Uses the relayer's next account nonce for something else (another payment, an operator). */
  const consumeRelayerNonce = async () => (await h.relayer.sendTransaction({ to: h.relayer.address, value: 0n })).wait();

  it('crash between record and broadcast: the next step sends the recorded bytes, and the merchant is paid once', async () => {
    const { req, sub, destination } = await signedPayment();
    const s = store();
    s.state.crashAfterRecord = true;
    await expect(s.advance(req, sub)).rejects.toThrow('crash after record');
    s.state.crashAfterRecord = false;
    const recorded = s.state.recorded!;
    expect(await known(recorded.txId)).toBe(false);
    expect(await balance(destination)).toBe(0n);
    expect(await s.advance(req, sub)).toEqual({ state: 'submitted', txId: recorded.txId });
    expect(await s.advance(req, sub)).toMatchObject({ state: 'confirmed', txId: recorded.txId });
    expect(await s.advance(req, sub)).toMatchObject({ state: 'confirmed', txId: recorded.txId });
    expect(s.state.records).toBe(1);
    expect(await balance(destination)).toBe(3_000_000n);
  }, 60_000);

  it('crash after broadcast, before the job finished: found again by the recorded hash, no second transfer', async () => {
    const { req, sub, destination } = await signedPayment();
    const s = store();
    const first = await s.advance(req, sub);
    expect(first).toEqual({ state: 'submitted', txId: s.state.recorded!.txId });
    // The job's answer is lost; the next run starts from storage alone.
    expect(await s.advance(req, sub)).toMatchObject({ state: 'confirmed', txId: s.state.recorded!.txId });
    expect(await s.advance(req, sub)).toMatchObject({ state: 'confirmed', txId: s.state.recorded!.txId });
    expect(s.state.records).toBe(1);
    expect(await balance(destination)).toBe(3_000_000n);
  }, 60_000);

  it('with a follow loop, the submitting step waits for its transaction and answers its end: one run, one record, submittedNow', async () => {
    const { req, sub, destination } = await signedPayment();
    const following = createEvmChainAdapter([
      { caip2: h.sandbox.caip2, provider: h.sandbox.ethersProvider, relayer: h.relayer, permit2: h.sandbox.permit2Address, confirmations: 1, followMs: 5_000 },
    ]);
    const s = memoryPaymentStore(following);
    const step = await s.advance(req, sub);
    expect(step).toMatchObject({ state: 'confirmed', txId: s.state.recorded!.txId, submittedNow: true });
    expect(s.state.records).toBe(1);
    expect(await balance(destination)).toBe(3_000_000n);
  }, 60_000);

  it('a recorded transaction whose relayer nonce another took is replaced while the authorization is unused', async () => {
    const { req, sub, destination } = await signedPayment();
    const s = store();
    s.state.crashAfterRecord = true;
    await expect(s.advance(req, sub)).rejects.toThrow('crash after record');
    s.state.crashAfterRecord = false;
    const { txId: lost, rawTx: lostRaw } = s.state.recorded!;
    await consumeRelayerNonce();
    const replaced = await s.advance(req, sub);
    expect(replaced.state).toBe('submitted');
    expect(replaced.txId).not.toBe(lost);
    expect(s.state.recorded!.txId).toBe(replaced.txId);
    expect(await s.advance(req, sub)).toMatchObject({ state: 'confirmed', txId: replaced.txId });
    expect(s.state.records).toBe(2);
    expect(await balance(destination)).toBe(3_000_000n);
    // The lost bytes can never mine now: sending them is refused.
    await expect(h.sandbox.ethersProvider.broadcastTransaction(lostRaw)).rejects.toThrow();
  }, 60_000);

  it('a recorded transaction that can never mine, and whose authorization the buyer cancelled meanwhile, fails', async () => {
    const { req, sub, buyer, destination } = await signedPayment();
    const s = store();
    s.state.crashAfterRecord = true;
    await expect(s.advance(req, sub)).rejects.toThrow('crash after record');
    s.state.crashAfterRecord = false;
    await consumeRelayerNonce();
    const td = sub.typedData;
    const sig = Signature.from(
      await buyer.signTypedData(
        td.domain,
        {
          CancelAuthorization: [
            { name: 'authorizer', type: 'address' },
            { name: 'nonce', type: 'bytes32' },
          ],
        },
        { authorizer: buyer.address, nonce: td.message.nonce },
      ),
    );
    await h.sandbox.fund(buyer.address, null, parseEther('0.1'));
    const token = new Contract(h.sandbox.usdcAddress, ['function cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)'], buyer);
    await (await token.getFunction('cancelAuthorization').send(buyer.address, td.message.nonce, sig.v, sig.r, sig.s)).wait();
    expect(await s.advance(req, sub)).toMatchObject({ state: 'failed', txId: s.state.recorded!.txId, reason: expect.stringMatching(/authorization was used/) });
    expect(await balance(destination)).toBe(0n);
  }, 60_000);

  /** Another account submits the buyer's authorization before the relayer: the merchant is paid by it. */
  async function frontRun(sub: RelayerSubmission): Promise<string> {
    const frontRunner = Wallet.createRandom(h.sandbox.ethersProvider);
    await h.sandbox.fund(frontRunner.address, null, parseEther('0.1'));
    const hash = await submitTransferWithAuthorization(frontRunner, sub.typedData, sub.signature);
    await h.sandbox.ethersProvider.waitForTransaction(hash);
    return hash;
  }

  it('our recorded transaction reverts because a front-runner used the authorization first: confirmed with the front-runner’s transaction', async () => {
    const { req, sub, destination } = await signedPayment();
    const s = store();
    s.state.crashAfterRecord = true;
    await expect(s.advance(req, sub)).rejects.toThrow('crash after record');
    s.state.crashAfterRecord = false;
    const ours = s.state.recorded!.txId;
    const theirs = await frontRun(sub);
    // Our bytes are sent again (their relayer nonce is free) and mine, reverted.
    expect(await s.advance(req, sub)).toEqual({ state: 'submitted', txId: ours });
    expect((await h.sandbox.ethersProvider.getTransactionReceipt(ours))?.status).toBe(0);
    expect(await s.advance(req, sub)).toMatchObject({ state: 'confirmed', txId: theirs });
    expect(await balance(destination)).toBe(3_000_000n);
  }, 60_000);

  it('our recorded transaction was replaced and a front-runner used the authorization: confirmed with the front-runner’s transaction', async () => {
    const { req, sub, destination } = await signedPayment();
    const s = store();
    s.state.crashAfterRecord = true;
    await expect(s.advance(req, sub)).rejects.toThrow('crash after record');
    s.state.crashAfterRecord = false;
    await consumeRelayerNonce();
    const theirs = await frontRun(sub);
    expect(await s.advance(req, sub)).toMatchObject({ state: 'confirmed', txId: theirs });
    expect(s.state.records).toBe(1);
    expect(await balance(destination)).toBe(3_000_000n);
  }, 60_000);

  it('a search the node cannot answer leaves the payment pending, never failed', async () => {
    const { req, sub } = await signedPayment();
    await frontRun(sub);
    const provider = h.sandbox.ethersProvider;
    const failing = new Proxy(provider, {
      get(target, prop) {
        if (prop === 'getLogs') return () => Promise.reject(new Error('query exceeds the range limit'));
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const blind = createEvmChainAdapter([{ caip2: h.sandbox.caip2, provider: failing, relayer: h.relayer, permit2: h.sandbox.permit2Address, confirmations: 1 }]);
    const step = await blind.advance(req, sub, null, { rawTx: null, recordedAt: null, record: async () => true });
    expect(step).toMatchObject({ state: 'pending', reason: expect.stringMatching(/searching/) });
  }, 60_000);

  it('sends nothing when the record is refused (the payment moved on)', async () => {
    const { req, sub, destination } = await signedPayment();
    const step = await port.advance(req, sub, null, { rawTx: null, recordedAt: null, record: async () => false });
    expect(step).toMatchObject({ state: 'pending' });
    expect(await balance(destination)).toBe(0n);
    await expect(port.advance(req, sub, null)).rejects.toThrow(/advance context/);
  }, 60_000);
});
