// The sandbox cluster's time: with a block clock, slots and blockhashes move on their own and
// commitment follows depth, as on a real cluster; a blockhash is good for 150 blocks, not only
// while it is the latest.
import { Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { createSolanaSandbox, type SolanaSandbox } from './sandbox.ts';

let sandbox: SolanaSandbox | undefined;
afterEach(() => sandbox?.close());

/** The fee payer's transfer to a fresh account (a new signature each time), on `blockhash`. */
async function transfer(s: SolanaSandbox, blockhash?: string): Promise<Uint8Array> {
  const payer = s.feePayer;
  const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash ?? (await s.connection.getLatestBlockhash()).blockhash }).add(
    SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }),
  );
  tx.sign(payer);
  return tx.serialize();
}

describe('Solana sandbox clock', () => {
  it('accepts a blockhash for 150 blocks after it was issued, not only while it is the latest', async () => {
    sandbox = createSolanaSandbox();
    const { blockhash, lastValidBlockHeight } = await sandbox.connection.getLatestBlockhash();
    const height = await sandbox.connection.getBlockHeight();
    expect(lastValidBlockHeight).toBe(height + 150);
    sandbox.advanceBlocks(150);
    expect((await sandbox.connection.getLatestBlockhash()).blockhash).not.toBe(blockhash);
    await expect(sandbox.connection.sendRawTransaction(await transfer(sandbox, blockhash))).resolves.toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
    sandbox.advanceBlocks(1);
    await expect(sandbox.connection.sendRawTransaction(await transfer(sandbox, blockhash))).rejects.toThrow(/BlockhashNotFound/);
    await expect(sandbox.connection.sendRawTransaction(await transfer(sandbox, blockhash), { skipPreflight: true })).rejects.toThrow(/BlockhashNotFound/);
  });

  it('with a block time, slots and blockhashes move on their own, and a landed transaction goes processed → confirmed → finalized', async () => {
    sandbox = createSolanaSandbox({ blockTimeMs: 20 });
    const start = await sandbox.connection.getBlockHeight('processed');
    const first = await sandbox.connection.getLatestBlockhash();
    await waitFor('blocks to pass', async () => (await sandbox!.connection.getBlockHeight('processed')) >= start + 3, 10_000);
    expect((await sandbox.connection.getLatestBlockhash()).blockhash).not.toBe(first.blockhash);
    // A wallet that took a few blocks to sign still lands on the blockhash it was given.
    const signature = await sandbox.connection.sendRawTransaction(await transfer(sandbox, first.blockhash));
    const seen = new Set<string>();
    await waitFor(
      'the transaction to be finalized',
      async () => {
        const status = (await sandbox!.connection.getSignatureStatuses([signature])).value[0];
        if (status?.confirmationStatus) seen.add(status.confirmationStatus);
        return status?.confirmationStatus === 'finalized';
      },
      20_000,
      5,
    );
    expect(seen.has('confirmed')).toBe(true);
    // Reads at a commitment answer as of it: finalized trails the tip by 32 blocks.
    const tip = await sandbox.connection.getBlockHeight('processed');
    expect(tip - (await sandbox.connection.getBlockHeight('finalized'))).toBeGreaterThanOrEqual(31);
    const payer = sandbox.feePayer.publicKey;
    expect((await sandbox.connection.getSignaturesForAddress(payer, { limit: 5 }, 'finalized')).map((s) => s.signature)).toContain(signature);
  });

  it('stops its clock on close', async () => {
    sandbox = createSolanaSandbox({ blockTimeMs: 10 });
    sandbox.close();
    const height = await sandbox.connection.getBlockHeight('processed');
    await new Promise((r) => setTimeout(r, 60));
    expect(await sandbox.connection.getBlockHeight('processed')).toBe(height);
    expect(() => createSolanaSandbox({ blockTimeMs: 0 })).toThrow(RangeError);
  });
});
