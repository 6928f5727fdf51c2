// Broadcasts outside the key's lock overtake each other on a node that queues no future nonce (the
// automining sandbox): the later step sends the earlier recorded bytes first (broadcastAfterEarlier),
// and the earlier step's own broadcast then meets its nonce used by its own transaction.
import { Transaction, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdvanceContext } from '../../../server/ports/chains.ts';
import { broadcastAfterEarlier } from './relayer-nonce.ts';
import { broadcastRecorded, type SubmitChain } from './relayer-submit.ts';
import { signedZeroTransfer, startHarness, type Harness } from './test-support.ts';

let h: Harness;
let sc: SubmitChain;
const ctx: AdvanceContext = { rawTx: null, recordedAt: null, record: async () => true };

beforeAll(async () => {
  h = await startHarness();
  sc = { provider: h.sandbox.ethersProvider, relayer: h.relayer, limits: { maxFeePerGas: 10n ** 12n, minPriorityFee: 0n } };
});
afterAll(async () => {
  await h?.sandbox.close();
});

/** A 0-value transfer signed by the relayer at `nonce` (`to` makes its bytes differ). */
async function signedAt(nonce: number, to: string): Promise<{ txId: string; rawTx: string }> {
  const rawTx = await signedZeroTransfer(h.sandbox, h.relayer, nonce, to);
  return { txId: Transaction.from(rawTx).hash!, rawTx };
}

describe('broadcasts at service-owned nonces that overtake each other', () => {
  it("answers the earlier step submitted when the later one's in-order resend already sent its bytes, and pending when another transaction took its nonce", async () => {
    const n = await h.sandbox.ethersProvider.getTransactionCount(h.relayer.address, 'pending');
    const earlier = await signedAt(n, Wallet.createRandom().address);
    const later = await signedAt(n + 1, Wallet.createRandom().address);

    // The later step broadcasts first: refused for the gap, then sent after the earlier bytes.
    expect(await broadcastAfterEarlier({ provider: sc.provider, relayer: h.relayer }, [earlier.rawTx], () => broadcastRecorded(sc, later, ctx, 'eip3009'))).toEqual({
      state: 'submitted',
      txId: later.txId,
    });
    // The earlier step's own broadcast: its nonce is used, by these very bytes.
    expect(await broadcastRecorded(sc, earlier, ctx, 'eip3009')).toEqual({ state: 'submitted', txId: earlier.txId });
    // Other bytes at a used nonce can never mine: followed as pending, never called submitted.
    const clash = await signedAt(n, Wallet.createRandom().address);
    expect(await broadcastRecorded(sc, clash, ctx, 'eip3009')).toMatchObject({ state: 'pending', txId: clash.txId, reason: expect.stringMatching(/nonce is used/) });
  });
});
