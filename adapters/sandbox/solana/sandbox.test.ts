import { describe, expect, it } from 'vitest';
import { Keypair } from '@solana/web3.js';
import { createSolanaSandbox } from './sandbox.ts';
import { sandboxKeypair } from './keys.ts';

describe('Solana sandbox', () => {
  it('has the same mint, fee payer and asset id on every run', () => {
    const a = createSolanaSandbox();
    const b = createSolanaSandbox();
    expect(a.mint.toBase58()).toBe(b.mint.toBase58());
    expect(a.feePayer.publicKey.toBase58()).toBe(b.feePayer.publicKey.toBase58());
    expect(a.assets).toEqual(b.assets);
    expect(a.caip2).toBe('solana:sandbox');
    expect(a.assets).toEqual([
      {
        caip19: `solana:sandbox/token:${a.mint.toBase58()}`,
        caip2: 'solana:sandbox',
        mint: a.mint.toBase58(),
        symbol: 'USDC',
        name: 'USD Coin (sandbox)',
        decimals: 6,
        flows: ['spl'],
      },
    ]);
    expect(a.assets[0]?.caip19).toMatch(/^solana:[-_a-zA-Z0-9]{1,32}\/token:[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(sandboxKeypair('x').publicKey.equals(sandboxKeypair('x').publicKey)).toBe(true);
    expect(sandboxKeypair('x').publicKey.equals(sandboxKeypair('y').publicKey)).toBe(false);
  });

  it('rejects a reference CAIP-2 would not accept', () => {
    expect(() => createSolanaSandbox({ reference: 'has space' })).toThrow(/CAIP-2/);
    expect(createSolanaSandbox({ reference: 'devnet-local' }).caip2).toBe('solana:devnet-local');
  });

  it('funds SOL and SPL, creating the token account when missing, and equal fundings twice', async () => {
    const sandbox = createSolanaSandbox();
    const owner = Keypair.generate().publicKey.toBase58();
    const mint = sandbox.mint.toBase58();
    expect(sandbox.balance(owner, mint)).toBe(0n);
    expect(sandbox.balance(owner, null)).toBe(0n);
    sandbox.fund(owner, mint, 2_500_000n);
    sandbox.fund(owner, mint, 2_500_000n);
    sandbox.fund(owner, null, 1_000n);
    sandbox.fund(owner, null, 1_000n);
    expect(sandbox.balance(owner, mint)).toBe(5_000_000n);
    expect(sandbox.balance(owner, null)).toBe(2_000n);
    expect(() => sandbox.fund(owner, Keypair.generate().publicKey.toBase58(), 1n)).toThrow(/unknown sandbox mint/);
    expect(() => sandbox.fund(owner, mint, 0n)).toThrow(RangeError);
    const mintAccount = await sandbox.connection.getAccountInfo(sandbox.mint);
    expect(mintAccount?.data.readBigUInt64LE(36)).toBe(5_000_000n); // supply follows the mints
  });

  it('expires the blockhash: new hash, block height past the old validity window', async () => {
    const sandbox = createSolanaSandbox();
    const before = await sandbox.connection.getLatestBlockhash();
    expect(await sandbox.connection.getBlockHeight()).toBeLessThanOrEqual(before.lastValidBlockHeight);
    sandbox.expireBlockhash();
    const after = await sandbox.connection.getLatestBlockhash();
    expect(after.blockhash).not.toBe(before.blockhash);
    expect(await sandbox.connection.getBlockHeight()).toBeGreaterThan(before.lastValidBlockHeight);
    expect(await sandbox.connection.getBlockHeight()).toBeLessThanOrEqual(after.lastValidBlockHeight);
  });
});
