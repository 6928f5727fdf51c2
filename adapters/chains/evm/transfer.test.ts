import { Wallet, parseEther, type HDNodeWallet, type Provider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTransferTransaction, verifyTransferTransaction, type TransferCheck } from './transfer.ts';
import { newBuyer, mine, startHarness, walletSend, type Harness } from './test-support.ts';

describe('direct ERC-20 transfer on the sandbox', () => {
  let h: Harness;
  let buyer: HDNodeWallet;
  let merchant: string;
  let usdc: string;
  let check: TransferCheck;

  beforeAll(async () => {
    h = await startHarness();
    usdc = h.sandbox.usdcAddress;
    buyer = newBuyer(h.sandbox);
    merchant = Wallet.createRandom().address;
    await h.sandbox.fund(buyer.address, usdc, 1_000_000_000n);
    await h.sandbox.fund(buyer.address, h.sandbox.plainTokenAddress, 1_000_000_000n);
    await h.sandbox.fund(buyer.address, null, parseEther('1'));
    check = { token: usdc, from: buyer.address, to: merchant, minValue: 25_000_000n, confirmations: 1 };
  });
  afterAll(async () => {
    await h.sandbox.close();
  });

  const pay = (token: string, to: string, value: bigint): Promise<string> =>
    walletSend(h.sandbox, buyer, buildTransferTransaction({ token, from: buyer.address, to, value }));

  it('builds eth_sendTransaction params for transfer(to, value)', () => {
    const params = buildTransferTransaction({ token: usdc, from: buyer.address, to: merchant, value: 25_000_000n });
    expect(params).toEqual({
      from: buyer.address,
      to: usdc,
      data: `0xa9059cbb${merchant.slice(2).toLowerCase().padStart(64, '0')}${(25_000_000n).toString(16).padStart(64, '0')}`,
      value: '0x0',
    });
    expect(() => buildTransferTransaction({ token: usdc, from: buyer.address, to: merchant, value: 0n })).toThrow();
  });

  it('confirms a wallet-broadcast transfer once deep enough, and the merchant gets exactly the value', async () => {
    const before = await h.sandbox.balanceOf(merchant, usdc);
    const txHash = await pay(usdc, merchant, 25_000_000n);
    expect(await verifyTransferTransaction(h.sandbox.ethersProvider, txHash, { ...check, confirmations: 3 }))
      .toEqual({ status: 'pending', reason: 'awaiting_confirmations' });
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
    const fromOther = await walletSend(h.sandbox, other, buildTransferTransaction({ token: usdc, from: other.address, to: merchant, value: 25_000_000n }));
    expect(await verifyTransferTransaction(h.sandbox.ethersProvider, fromOther, check)).toEqual({ status: 'invalid', reason: 'sent by another account' });

    const overdraft = buildTransferTransaction({ token: usdc, from: buyer.address, to: merchant, value: 10n ** 15n });
    const reverted = await walletSend(h.sandbox, buyer, overdraft, 100_000n);
    expect(await verifyTransferTransaction(h.sandbox.ethersProvider, reverted, check)).toEqual({ status: 'invalid', reason: 'transaction reverted' });
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
