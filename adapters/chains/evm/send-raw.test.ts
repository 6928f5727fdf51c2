// The relayer's own send (send-raw.ts) and the pool's signer lookup, against the sandbox chain:
// the send answers a refusal with the same ethers error as `broadcastTransaction` does (the
// refusal classes depend on it), and the pool names the key that signed recorded bytes.
import { Transaction, Wallet, isError } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRawTransaction } from './send-raw.ts';
import { createRelayerPool } from './relayer-pool.ts';
import { classifyBroadcastError } from './broadcast-errors.ts';
import { signedZeroTransfer, startHarness, type Harness } from './test-support.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.sandbox.close();
});

const signed = (wallet: Wallet, nonce: number) => signedZeroTransfer(h.sandbox, wallet, nonce);

describe('sendRawTransaction', () => {
  it('sends the bytes, and a refusal is the same ethers error broadcastTransaction gives', async () => {
    const relayer = h.relayer.connect(h.sandbox.ethersProvider);
    const nonce = await h.sandbox.ethersProvider.getTransactionCount(relayer.address, 'pending');
    const raw = await signed(relayer, nonce);
    await sendRawTransaction(h.sandbox.ethersProvider, raw);
    const receipt = await h.sandbox.ethersProvider.getTransactionReceipt(Transaction.from(raw).hash!);
    expect(receipt?.status).toBe(1);
    // The same nonce again, other bytes: refused as used, by both paths alike.
    const again = await signed(relayer, nonce);
    const ours = await sendRawTransaction(h.sandbox.ethersProvider, again).catch((e: unknown) => e);
    const theirs = await h.sandbox.ethersProvider.broadcastTransaction(again).catch((e: unknown) => e);
    expect(isError(ours, 'NONCE_EXPIRED')).toBe(true);
    expect((ours as { code: string }).code).toBe((theirs as { code: string }).code);
    expect(classifyBroadcastError(ours)).toEqual(classifyBroadcastError(theirs));
  });
});

describe('relayer pool: bySigned', () => {
  it('names the key that signed recorded bytes, the same on every ask, and none for a stranger', async () => {
    const fresh = () => new Wallet(Wallet.createRandom().privateKey);
    const keys = [fresh(), fresh(), fresh()];
    const pool = createRelayerPool(keys, { caip2: h.sandbox.caip2, provider: h.sandbox.ethersProvider, minBalance: 0n });
    for (const [i, key] of keys.entries()) {
      const raw = await signed(key, i);
      expect(pool.bySigned(raw)?.wallet.address).toBe(key.address);
      expect(pool.bySigned(raw)?.wallet.address).toBe(key.address);
    }
    expect(pool.bySigned(await signed(fresh(), 0))).toBeUndefined();
  });
});
