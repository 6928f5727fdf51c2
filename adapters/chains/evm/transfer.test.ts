import { Wallet, parseEther, type HDNodeWallet, type Provider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTE_CLOCK_ALLOWANCE_MS, buildTransferTransaction, verifyTransferTransaction, type TransferCheck } from './transfer.ts';
import { transferReference } from './transfer-reference.ts';
import { newBuyer, mine, startHarness, walletSend, type Harness } from './test-support.ts';

describe('direct ERC-20 transfer on the sandbox', () => {
  let h: Harness;
  let buyer: HDNodeWallet;
  let merchant: string;
  let usdc: string;
  let check: TransferCheck;
  const TAG = transferReference('pay_transfer_test', 'opt_1');

  beforeAll(async () => {
    h = await startHarness();
    usdc = h.sandbox.usdcAddress;
    buyer = newBuyer(h.sandbox);
    merchant = Wallet.createRandom().address;
    await h.sandbox.fund(buyer.address, usdc, 1_000_000_000n);
    await h.sandbox.fund(buyer.address, h.sandbox.plainTokenAddress, 1_000_000_000n);
    await h.sandbox.fund(buyer.address, null, parseEther('1'));
    // Quoted just now: every transfer below is mined after it.
    check = { token: usdc, from: buyer.address, to: merchant, minValue: 25_000_000n, confirmations: 1, reference: TAG, quotedAt: new Date() };
  });
  afterAll(async () => {
    await h.sandbox.close();
  });

  const pay = (token: string, to: string, value: bigint, reference: string | undefined = TAG): Promise<string> =>
    walletSend(h.sandbox, buyer, buildTransferTransaction({ token, from: buyer.address, to, value, ...(reference ? { reference } : {}) }));

  it('builds eth_sendTransaction params for transfer(to, value)', () => {
    const params = buildTransferTransaction({ token: usdc, from: buyer.address, to: merchant, value: 25_000_000n });
    expect(params).toEqual({
      from: buyer.address,
      to: usdc,
      data: `0xa9059cbb${merchant.slice(2).toLowerCase().padStart(64, '0')}${25_000_000n.toString(16).padStart(64, '0')}`,
      value: '0x0',
    });
    expect(() => buildTransferTransaction({ token: usdc, from: buyer.address, to: merchant, value: 0n })).toThrow();
    const tagged = buildTransferTransaction({ token: usdc, from: buyer.address, to: merchant, value: 25_000_000n, reference: TAG });
    expect(tagged.data).toBe(`${params.data}${TAG.slice(2)}`);
  });

  it('confirms a wallet-broadcast transfer once deep enough, and the merchant gets exactly the value', async () => {
    const before = await h.sandbox.balanceOf(merchant, usdc);
    const txHash = await pay(usdc, merchant, 25_000_000n);
    expect(await verifyTransferTransaction(h.sandbox.ethersProvider, txHash, { ...check, confirmations: 3 })).toEqual({ status: 'pending', reason: 'awaiting_confirmations' });
    await mine(h.sandbox, 2);
    const result = await verifyTransferTransaction(h.sandbox.ethersProvider, txHash, { ...check, confirmations: 3 });
    expect(result).toMatchObject({ status: 'confirmed', value: 25_000_000n });
    expect(await h.sandbox.balanceOf(merchant, usdc)).toBe(before + 25_000_000n);
  });

  it('accepts more than the minimum (the merchant never receives less)', async () => {
    const txHash = await pay(usdc, merchant, 25_000_001n);
    expect(await verifyTransferTransaction(h.sandbox.ethersProvider, txHash, check)).toMatchObject({ status: 'confirmed', value: 25_000_001n });
  });

  it('is invalid for a wrong destination, wrong token or smaller amount', async () => {
    const wrongDestination = await pay(usdc, Wallet.createRandom().address, 25_000_000n);
    const wrongToken = await pay(h.sandbox.plainTokenAddress, merchant, 25_000_000n);
    const tooSmall = await pay(usdc, merchant, 24_999_999n);
    for (const txHash of [wrongDestination, wrongToken, tooSmall]) {
      expect(await verifyTransferTransaction(h.sandbox.ethersProvider, txHash, check)).toMatchObject({ status: 'invalid' });
    }
  });

  it('is invalid when sent by another account or when the transfer reverted', async () => {
    const other = newBuyer(h.sandbox);
    await h.sandbox.fund(other.address, usdc, 30_000_000n);
    await h.sandbox.fund(other.address, null, parseEther('1'));
    const fromOther = await walletSend(h.sandbox, other, buildTransferTransaction({ token: usdc, from: other.address, to: merchant, value: 25_000_000n, reference: TAG }));
    expect(await verifyTransferTransaction(h.sandbox.ethersProvider, fromOther, check)).toEqual({ status: 'invalid', reason: 'sent by another account' });

    const overdraft = buildTransferTransaction({ token: usdc, from: buyer.address, to: merchant, value: 10n ** 15n, reference: TAG });
    const reverted = await walletSend(h.sandbox, buyer, overdraft, 100_000n);
    expect(await verifyTransferTransaction(h.sandbox.ethersProvider, reverted, check)).toEqual({ status: 'invalid', reason: 'transaction reverted' });
  });

  it('is invalid without the option’s tag or with another option’s, at once, even before it is mined deep enough', async () => {
    const untagged = await pay(usdc, merchant, 25_000_000n, '');
    const otherOption = await pay(usdc, merchant, 25_000_000n, transferReference('pay_transfer_test', 'opt_2'));
    for (const txHash of [untagged, otherOption]) {
      expect(await verifyTransferTransaction(h.sandbox.ethersProvider, txHash, { ...check, confirmations: 50 })).toEqual({
        status: 'invalid',
        reason: 'the transaction does not carry this option’s reference',
      });
    }
    // The tagged one is only waiting for depth.
    const tagged = await pay(usdc, merchant, 25_000_000n);
    expect(await verifyTransferTransaction(h.sandbox.ethersProvider, tagged, { ...check, confirmations: 50 })).toEqual({ status: 'pending', reason: 'awaiting_confirmations' });
  });

  it('is invalid when mined before the quote (beyond the clock allowance), valid within it', async () => {
    const txHash = await pay(usdc, merchant, 25_000_000n);
    const block = await h.sandbox.ethersProvider.getBlock((await h.sandbox.ethersProvider.getTransactionReceipt(txHash))!.blockHash);
    const minedAt = block!.timestamp * 1000;
    const quotedAfter = (ms: number) => ({ ...check, quotedAt: new Date(minedAt + ms) });
    expect(await verifyTransferTransaction(h.sandbox.ethersProvider, txHash, quotedAfter(QUOTE_CLOCK_ALLOWANCE_MS + 1))).toEqual({
      status: 'invalid',
      reason: 'mined before the quote',
    });
    expect(await verifyTransferTransaction(h.sandbox.ethersProvider, txHash, quotedAfter(QUOTE_CLOCK_ALLOWANCE_MS))).toMatchObject({ status: 'confirmed' });
  });

  it('answers pending for an unknown hash and for RPC failures, never invalid', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    expect(await verifyTransferTransaction(h.sandbox.ethersProvider, unknown, check)).toEqual({ status: 'pending', reason: 'not_found' });
    const broken = {
      getTransaction: () => Promise.reject(new Error('connection reset')),
      getTransactionReceipt: () => Promise.reject(new Error('connection reset')),
      getBlockNumber: () => Promise.reject(new Error('connection reset')),
    } as unknown as Provider;
    expect(await verifyTransferTransaction(broken, unknown, check)).toEqual({ status: 'pending', reason: 'rpc_error' });
    expect(await verifyTransferTransaction(h.sandbox.ethersProvider, 'not-a-hash', check)).toMatchObject({ status: 'invalid' });
  });
});
