// The EVM follow loop on the in-process sandbox: one receipt read per transaction and window
// however many payments wait on it, an answer only at the depth asked, the last reading once the
// wait is over.
import { Wallet, type Provider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReceiptFollower } from './receipt-follow.ts';
import { mine, startHarness, type Harness } from './test-support.ts';

let h: Harness;
const calls = new Map<string, number>();
/** The sandbox's provider, counting the reads the loop makes. */
let counted: Provider;

beforeAll(async () => {
  h = await startHarness();
  const real = h.sandbox.ethersProvider;
  counted = new Proxy(real, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
});
afterAll(async () => {
  await h?.sandbox.close();
});

const send = async () => (await h.relayer.sendTransaction({ to: Wallet.createRandom().address, value: 1n })).hash;

describe('ReceiptFollower', () => {
  it('reads a transaction once a window for all the payments waiting on it, and answers each at the depth it asked', async () => {
    calls.clear();
    const follower = new ReceiptFollower(counted, { windowMs: 20 });
    const txId = await send(); // automined: in a block at once
    const shallow = Array.from({ length: 16 }, () => follower.follow(txId, 1, 5_000));
    const deep = follower.follow(txId, 2, 5_000);
    const first = await Promise.all(shallow);
    for (const s of first) expect(s).toMatchObject({ status: 'mined', success: true, confirmations: 1 });
    // Sixteen payments of one batch: one receipt read, one head read, one block read in that window.
    expect(calls.get('getTransactionReceipt')).toBe(1);
    expect(calls.get('getBlockNumber')).toBe(1);
    expect(calls.get('getBlock')).toBe(1);
    let settled = false;
    void deep.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(settled).toBe(false);
    expect(follower.size).toBe(1);
    await mine(h.sandbox, 1);
    expect(await deep).toMatchObject({ status: 'mined', confirmations: 2 });
    expect(follower.size).toBe(0);
  });

  it('answers a transaction the node does not hold at its first window (its step sends the recorded bytes again), not after the whole wait', async () => {
    const follower = new ReceiptFollower(counted, { windowMs: 20 });
    const unknown = `0x${'ab'.repeat(32)}`;
    // A wait of an hour: only the node's answer that it does not hold the transaction ends it.
    expect(await follower.follow(unknown, 1, 3_600_000)).toEqual({ status: 'pending', reason: 'not_mined' });
    expect(follower.size).toBe(0);
  });

  it('answers the last reading once the wait is over: mined but shallower than asked', async () => {
    const follower = new ReceiptFollower(counted, { windowMs: 20 });
    const txId = await send();
    expect(await follower.follow(txId, 5, 100)).toMatchObject({ status: 'mined', confirmations: 1 });
    expect(follower.size).toBe(0);
  });
});
