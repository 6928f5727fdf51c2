// The block window a search for a used authorization may read: from the quote to its deadline,
// never from block 0, found by time when the quote's block was not kept.
import { Wallet, toQuantity } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import { expectOption, type OptionRequest } from '../../../server/ports/chains.ts';
import { createEvmChainAdapter } from './gateway-adapter.ts';
import { scanWindow } from './scan.ts';
import { startHarness, type Harness } from './test-support.ts';

describe('scan window on the sandbox', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    // 300 blocks, a second apart: timestamps to search by.
    await h.sandbox.provider.request({ method: 'hardhat_mine', params: [toQuantity(300)] });
  }, 120_000);
  afterAll(async () => {
    await h?.sandbox.close();
  });
  const p = () => h.sandbox.ethersProvider;
  const timeOf = async (n: number) => (await p().getBlock(n))!.timestamp * 1000;

  it('starts at the kept quote block and ends at the head while the deadline is ahead', async () => {
    const head = await p().getBlockNumber();
    expect(await scanWindow(p(), { quoteBlock: 120, quotedAt: new Date(0), deadline: new Date((await timeOf(head)) + 600_000) })).toEqual({ fromBlock: 120, toBlock: head });
  });

  it('ends at the last block before a deadline already past', async () => {
    const deadline = new Date(await timeOf(200));
    expect(await scanWindow(p(), { quoteBlock: 120, quotedAt: new Date(0), deadline })).toEqual({ fromBlock: 120, toBlock: 199 });
  });

  it('without a kept block, starts at the block of the quote’s time less the clock allowance; never at block 0', async () => {
    const quotedAt = new Date((await timeOf(150)) + 60_000);
    const w = await scanWindow(p(), { quotedAt, deadline: new Date(await timeOf(250)) });
    expect(w.fromBlock).toBe(149);
    expect(w.toBlock).toBe(249);
    const early = await scanWindow(p(), { quotedAt: new Date(0), deadline: new Date(await timeOf(250)) });
    expect(early.fromBlock).toBe(1);
  });

  it('keeps the first quote’s block when the quote is offered again', async () => {
    const caip19 = `eip155:${h.sandbox.chainId}/erc20:${h.sandbox.usdcAddress}`;
    const asset = createAssetRegistry([{ id: caip19, symbol: 'USDC', name: 'USD Coin', decimals: 6, flows: ['eip3009'], networkName: 'Sandbox' }]).get(caip19)!;
    const port = createEvmChainAdapter([{ caip2: h.sandbox.caip2, provider: p(), relayer: h.relayer, permit2: h.sandbox.permit2Address, confirmations: 1 }]);
    const buyer = Wallet.createRandom().address;
    const req: OptionRequest = {
      paymentId: 'pay_scan',
      optionId: 'opt_1',
      account: `${h.sandbox.caip2}:${buyer}`,
      asset,
      amount: 1_000_000n,
      destination: `${h.sandbox.caip2}:${Wallet.createRandom().address}`,
      quotedAt: new Date(),
      deadline: new Date(Date.now() + 600_000),
    };
    const first = expectOption(await port.prepareOption(req));
    expect(first.state).toMatchObject({ flow: 'eip3009', quoteBlock: await p().getBlockNumber() });
    await h.sandbox.provider.request({ method: 'hardhat_mine', params: [toQuantity(10)] });
    const again = expectOption(await port.prepareOption({ ...req, previous: first.state }));
    expect(again.state).toEqual(first.state);
    // A quote stored before blocks were kept stays without one: its block is found by its time.
    if (first.state.flow !== 'eip3009') throw new Error('expected an eip3009 option');
    const { quoteBlock, ...older } = first.state;
    expect(quoteBlock).toBeTypeOf('number');
    expect(expectOption(await port.prepareOption({ ...req, previous: older })).state).toEqual(older);
  });
});
