// The service's Permit2 spender contract on the EDR sandbox (real Permit2, the Tether-like USDT): its
// committed code is what solc compiles from its source, the sandbox deploys it through the
// deterministic deployment proxy where the service computes it, it pays only the witness
// destination, its batch entry pays each permit on its own, the relayer batches permits naming it
// (each judged by its own Paid event), and a chain without it keeps the relayer key as spender.
import { Contract, MaxUint256, Wallet, parseEther, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmSandbox, type EvmSandbox } from '../../sandbox/evm/index.ts';
import { loadSandboxArtifacts } from '../../sandbox/evm/compile.ts';
import { createAssetRegistry, type AssetInfo } from '../../../server/domain/assets.ts';
import { expectOption, type ChainPort, type OptionRequest, type TransferState } from '../../../server/ports/chains.ts';
import { createEvmChainAdapter } from './gateway-adapter.ts';
import { authorizationOf, judgeReceipt, type RelayerSubmission } from './relayer-flow.ts';
import { MULTICALL3_ADDRESS, callsIn } from './multicall.ts';
import { PERMIT2_SPENDER_CODE } from './permit2-spender-code.ts';
import { permit2SpenderAddress, permit2SpenderInterface, permit2SpenderProblem, spenderPayCall } from './permit2-spender.ts';
import { toEthersTypedData } from './typed-data.ts';
import { memoryPaymentStore } from './test-support.ts';

let sandbox: EvmSandbox;
let bare: EvmSandbox;
const assetOf = (s: EvmSandbox): AssetInfo => {
  const caip19 = `eip155:${s.chainId}/erc20:${s.plainTokenAddress}`;
  return createAssetRegistry([{ id: caip19, symbol: 'USDT', name: 'Tether', decimals: 6, flows: ['permit2'], approveFromZero: true, networkName: 'Sandbox' }]).get(caip19)!;
};
beforeAll(async () => {
  [sandbox, bare] = await Promise.all([createEvmSandbox(), createEvmSandbox({ withoutPermit2Spender: true })]);
}, 180_000);
afterAll(async () => {
  await Promise.all([sandbox?.close(), bare?.close()]);
});

const portOf = (s: EvmSandbox, extra: { batchMax?: number } = {}): ChainPort =>
  createEvmChainAdapter([
    {
      caip2: s.caip2,
      provider: s.ethersProvider,
      relayer: new Wallet(s.relayer.privateKey, s.ethersProvider),
      permit2: s.permit2Address,
      confirmations: 1,
      ...(extra.batchMax ? { batchMax: extra.batchMax, batchWindowMs: 300 } : {}),
    },
  ]);

/** A buyer holding `tokens` USDT with Permit2 approved (and gas for it). */
async function buyerWith(s: EvmSandbox, tokens: bigint): Promise<HDNodeWallet> {
  const buyer = Wallet.createRandom(s.ethersProvider);
  await s.fund(buyer.address, null, parseEther('0.1'));
  await s.fund(buyer.address, s.plainTokenAddress, tokens);
  const token = new Contract(s.plainTokenAddress, ['function approve(address,uint256)'], buyer);
  await (await token.getFunction('approve').send(s.permit2Address, MaxUint256)).wait();
  return buyer;
}

type Signed = { req: OptionRequest; sub: RelayerSubmission; buyer: HDNodeWallet; destination: string };

/** A Permit2 option quoted by `port` and signed by `buyer` (or, `signer` given, by that other key: a signature Permit2 refuses). */
async function signedPermit(s: EvmSandbox, port: ChainPort, buyer: HDNodeWallet, destination: string, opts: { amount?: bigint; signer?: HDNodeWallet } = {}): Promise<Signed> {
  const req: OptionRequest = {
    paymentId: `pay_${Math.random()}`,
    optionId: 'opt_1',
    account: `${s.caip2}:${buyer.address}`,
    asset: assetOf(s),
    amount: opts.amount ?? 1_000_000n,
    destination: `${s.caip2}:${destination}`,
    quotedAt: new Date(),
    deadline: new Date(Date.now() + 600_000),
  };
  const prepared = expectOption(await port.prepareOption(req));
  if (prepared.state.flow !== 'permit2') throw new Error(`expected a permit2 option, got ${prepared.state.flow}`);
  const { domain, types, message } = toEthersTypedData(prepared.state.typedData);
  const signature = await (opts.signer ?? buyer).signTypedData(domain, types, message);
  return { req, sub: { flow: 'permit2', typedData: prepared.state.typedData, signature }, buyer, destination };
}

const store = memoryPaymentStore;

async function settle(s: ReturnType<typeof store>, p: Signed): Promise<TransferState> {
  for (let i = 0; i < 20; i++) {
    const step = await s.advance(p.req, p.sub);
    if (step.state === 'confirmed' || step.state === 'failed') return step;
  }
  throw new Error('not settled in 20 steps');
}

const usdt = (s: EvmSandbox, address: string) => s.balanceOf(address, s.plainTokenAddress);

describe('the spender contract and its deployment', () => {
  it('the committed code is what solc compiles from contracts/Permit2PaymentSpender.sol (regenerate: tools/permit2-spender code)', async () => {
    const compiled = (await loadSandboxArtifacts()).permit2Spender;
    expect({ ...PERMIT2_SPENDER_CODE, immutableOffsets: [...PERMIT2_SPENDER_CODE.immutableOffsets] }).toEqual(compiled);
  }, 120_000);

  it('is deployed by CREATE2 through the deterministic deployment proxy at the address the service computes, with the expected code; a chain without it is named', async () => {
    expect(sandbox.permit2SpenderAddress).toBe(permit2SpenderAddress(sandbox.permit2Address));
    expect(await permit2SpenderProblem(sandbox.ethersProvider, sandbox.permit2Address)).toBeNull();
    const spender = new Contract(sandbox.permit2SpenderAddress!, permit2SpenderInterface, sandbox.ethersProvider);
    expect(await spender.getFunction('permit2')()).toBe(sandbox.permit2Address);
    expect(await permit2SpenderProblem(bare.ethersProvider, bare.permit2Address)).toMatch(/not deployed at 0x/);
    // Code other than the spender's at its address (here Multicall3's) is not taken for it.
    await bare.provider.request({ method: 'hardhat_setCode', params: [permit2SpenderAddress(bare.permit2Address), await bare.ethersProvider.getCode(MULTICALL3_ADDRESS)] });
    try {
      expect(await permit2SpenderProblem(bare.ethersProvider, bare.permit2Address)).toMatch(/is not the expected spender/);
    } finally {
      await bare.provider.request({ method: 'hardhat_setCode', params: [permit2SpenderAddress(bare.permit2Address), '0x'] });
    }
  });

  it('refuses a destination other than the witness: a direct call naming another address reverts and moves nothing', async () => {
    const port = portOf(sandbox);
    const buyer = await buyerWith(sandbox, 1_000_000n);
    const merchant = Wallet.createRandom().address;
    const p = await signedPermit(sandbox, port, buyer, merchant);
    const call = spenderPayCall(p.sub.typedData, p.sub.signature, buyer.address);
    const [payment] = permit2SpenderInterface.decodeFunctionData('pay', call.callData) as unknown as [{ toObject(deep: boolean): Record<string, unknown> }];
    const thief = await buyerWith(sandbox, 0n);
    const redirected = permit2SpenderInterface.encodeFunctionData('pay', [{ ...payment.toObject(true), destination: thief.address }]);
    const sent = await thief.sendTransaction({ to: call.target, data: redirected, gasLimit: 400_000n });
    expect((await sandbox.ethersProvider.waitForTransaction(sent.hash))?.status).toBe(0);
    expect(await usdt(sandbox, buyer.address)).toBe(1_000_000n);
    expect(await usdt(sandbox, thief.address)).toBe(0n);
    expect(await usdt(sandbox, merchant)).toBe(0n);
  });

  it('payAll pays each permit on its own: one with a bad signature pays nothing and the other still pays its own destination', async () => {
    const port = portOf(sandbox);
    const buyer = await buyerWith(sandbox, 3_000_000n);
    const merchant = Wallet.createRandom().address;
    const good = await signedPermit(sandbox, port, buyer, merchant);
    const bad = await signedPermit(sandbox, port, buyer, merchant, { signer: Wallet.createRandom() });
    const decode = (p: Signed) =>
      (
        permit2SpenderInterface.decodeFunctionData('pay', spenderPayCall(p.sub.typedData, p.sub.signature, buyer.address).callData) as unknown as [
          { toObject(deep: boolean): Record<string, unknown> },
        ]
      )[0].toObject(true);
    const caller = await buyerWith(sandbox, 0n);
    const spender = new Contract(sandbox.permit2SpenderAddress!, permit2SpenderInterface, caller);
    expect(await spender.getFunction('payAll').staticCall([decode(bad), decode(good)])).toEqual([false, true]);
    const receipt = await (await spender.getFunction('payAll').send([decode(bad), decode(good)])).wait();
    expect(receipt?.status).toBe(1);
    expect(await usdt(sandbox, merchant)).toBe(1_000_000n);
    const check = (p: Signed) => ({ token: sandbox.plainTokenAddress, from: buyer.address, to: merchant, minValue: p.req.amount });
    expect(judgeReceipt(receipt!, check(good), authorizationOf(good.sub))).toEqual({ ok: true, value: 1_000_000n });
    expect(judgeReceipt(receipt!, check(bad), authorizationOf(bad.sub))).toMatchObject({ ok: false });
  });
});

describe('the relayer and the spender contract', () => {
  it('two payments of one buyer to one merchant in one batch and a third with a bad signature: each good one confirmed by its own Paid event, the bad one released', async () => {
    const port = portOf(sandbox, { batchMax: 4 });
    const buyer = await buyerWith(sandbox, 5_000_000n);
    const merchant = Wallet.createRandom().address;
    const a = await signedPermit(sandbox, port, buyer, merchant);
    const b = await signedPermit(sandbox, port, buyer, merchant);
    const bad = await signedPermit(sandbox, port, buyer, merchant, { signer: Wallet.createRandom() });
    expect(String(a.sub.typedData.message.spender)).toBe(sandbox.permit2SpenderAddress);
    const [sa, sb, sbad] = [store(port), store(port), store(port)];
    const [ra, rb, rbad] = await Promise.all([sa.advance(a.req, a.sub), sb.advance(b.req, b.sub), sbad.advance(bad.req, bad.sub)]);
    expect(ra).toMatchObject({ state: 'submitted' });
    expect(rb).toEqual(ra);
    // Dropped at simulation, never signed into the batch; its permit's nonce unused: released.
    expect(rbad).toMatchObject({ state: 'failed', reason: expect.stringMatching(/simulated/) });
    expect(sbad.state.records).toBe(0);
    const tx = (await sandbox.ethersProvider.getTransaction(ra.txId!))!;
    expect(tx.to).toBe(MULTICALL3_ADDRESS);
    expect(callsIn(tx.to, tx.data)).toBe(2);
    expect(await settle(sa, a)).toMatchObject({ state: 'confirmed', txId: ra.txId });
    expect(await settle(sb, b)).toMatchObject({ state: 'confirmed', txId: ra.txId });
    expect(await usdt(sandbox, merchant)).toBe(2_000_000n);
    expect(await usdt(sandbox, buyer.address)).toBe(3_000_000n);
  }, 60_000);

  it('a receipt paying one permit never credits another of the same buyer, merchant and amount (a sum over Transfers would)', async () => {
    const port = portOf(sandbox);
    const buyer = await buyerWith(sandbox, 2_000_000n);
    const merchant = Wallet.createRandom().address;
    const a = await signedPermit(sandbox, port, buyer, merchant);
    const b = await signedPermit(sandbox, port, buyer, merchant);
    const sa = store(port);
    expect(await settle(sa, a)).toMatchObject({ state: 'confirmed' });
    const r = (await sandbox.ethersProvider.getTransactionReceipt(sa.state.recorded!.txId))!;
    const checkB = { token: sandbox.plainTokenAddress, from: buyer.address, to: merchant, minValue: b.req.amount };
    expect(judgeReceipt(r, checkB)).toMatchObject({ ok: true });
    expect(judgeReceipt(r, checkB, authorizationOf(b.sub))).toMatchObject({ ok: false });
    expect(judgeReceipt(r, checkB, authorizationOf(a.sub))).toMatchObject({ ok: true, value: a.req.amount });
  }, 60_000);

  it('a chain without the contract: the self-check names it (nothing refused), permits name a relayer key, and a payment is paid by that key straight through Permit2', async () => {
    const port = portOf(bare, { batchMax: 4 });
    const checks = await port.selfCheck!([assetOf(bare)]);
    expect(checks.find((c) => c.subject === 'permit2 spender')).toMatchObject({
      outcome: 'fail',
      refuses: false,
      detail: expect.stringMatching(/not deployed.*name a relayer key/),
    });
    expect(checks.find((c) => c.subject === 'permit2')).toMatchObject({ outcome: 'pass' });
    const withSpender = await portOf(sandbox).selfCheck!([assetOf(sandbox)]);
    expect(withSpender.find((c) => c.subject === 'permit2 spender')).toMatchObject({ outcome: 'pass', detail: expect.stringContaining(sandbox.permit2SpenderAddress!) });

    const buyer = await buyerWith(bare, 1_000_000n);
    const merchant = Wallet.createRandom().address;
    const p = await signedPermit(bare, port, buyer, merchant);
    expect(String(p.sub.typedData.message.spender)).toBe(bare.relayer.address);
    const s = store(port);
    const step = await settle(s, p);
    expect(step).toMatchObject({ state: 'confirmed' });
    expect((await bare.ethersProvider.getTransaction(step.txId!))?.to).toBe(bare.permit2Address);
    expect(await usdt(bare, merchant)).toBe(1_000_000n);
  }, 60_000);
});
