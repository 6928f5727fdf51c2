import { Wallet, parseEther, type Provider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifySubmitError, getConfirmations, waitForReceipt } from './receipts.ts';
import { buildTransferTransaction } from './transfer.ts';
import { mine, newBuyer, startHarness, walletSend, type Harness } from './test-support.ts';

describe('confirmation helpers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.sandbox.close();
  });

  it('counts confirmations including the inclusion block and waits for the requested depth', async () => {
    const buyer = newBuyer(h.sandbox);
    await h.sandbox.fund(buyer.address, h.sandbox.usdcAddress, 10n);
    await h.sandbox.fund(buyer.address, null, parseEther('1'));
    const txHash = await walletSend(
      h.sandbox,
      buyer,
      buildTransferTransaction({ token: h.sandbox.usdcAddress, from: buyer.address, to: Wallet.createRandom().address, value: 10n }),
    );
    expect(await getConfirmations(h.sandbox.ethersProvider, txHash)).toMatchObject({ status: 'mined', success: true, confirmations: 1 });
    expect(await waitForReceipt(h.sandbox.ethersProvider, txHash, { confirmations: 2, timeoutMs: 150, pollMs: 20 })).toEqual({
      status: 'pending',
      reason: 'awaiting_confirmations',
    });
    await mine(h.sandbox, 1);
    expect(await waitForReceipt(h.sandbox.ethersProvider, txHash, { confirmations: 2, timeoutMs: 1_000, pollMs: 20 })).toMatchObject({ status: 'confirmed' });
  });

  it('reports a reverted transaction as reverted', async () => {
    const buyer = newBuyer(h.sandbox);
    await h.sandbox.fund(buyer.address, null, parseEther('1'));
    const txHash = await walletSend(
      h.sandbox,
      buyer,
      buildTransferTransaction({ token: h.sandbox.usdcAddress, from: buyer.address, to: Wallet.createRandom().address, value: 1n }),
      100_000n,
    );
    expect(await waitForReceipt(h.sandbox.ethersProvider, txHash, { timeoutMs: 1_000, pollMs: 20 })).toMatchObject({ status: 'reverted' });
  });

  it('turns a timeout or an RPC error into pending, not failure', async () => {
    const unknown = `0x${'cd'.repeat(32)}`;
    const started = Date.now();
    expect(await waitForReceipt(h.sandbox.ethersProvider, unknown, { timeoutMs: 100, pollMs: 20 })).toEqual({ status: 'pending', reason: 'not_mined' });
    expect(Date.now() - started).toBeLessThan(2_000);
    const broken = { getTransactionReceipt: () => Promise.reject(new Error('503')) } as unknown as Provider;
    expect(await waitForReceipt(broken, unknown, { timeoutMs: 50, pollMs: 10 })).toEqual({ status: 'pending', reason: 'rpc_error' });
  });

  it('classifies only a simulated revert as rejected', () => {
    expect(classifySubmitError(new Error('socket hang up'))).toBe('unknown');
    expect(classifySubmitError(Object.assign(new Error('x'), { code: 'CALL_EXCEPTION', action: 'estimateGas', receipt: null }))).toBe('rejected');
    expect(classifySubmitError(Object.assign(new Error('x'), { code: 'CALL_EXCEPTION', action: 'sendTransaction', receipt: null }))).toBe('unknown');
    expect(classifySubmitError(Object.assign(new Error('x'), { code: 'TIMEOUT' }))).toBe('unknown');
  });
});
