import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { Keypair, Transaction } from '@solana/web3.js';
import { createAssociatedTokenAccountIdempotentInstruction, createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { createSolanaSandbox } from './sandbox.ts';

/** pg's own formatting of a query parameter: where "+00:NaN" came from. */
const prepareValue = (pg as unknown as { utils: { prepareValue(v: unknown): unknown } }).utils.prepareValue;
/** -0 as pg computes a UTC offset (`-date.getTimezoneOffset()`), whatever this machine's zone. */
const negativeZero = -Number('0');

describe('Solana sandbox: JavaScript arithmetic after a program ran', () => {
  // The associated token account program runs through LiteSVM's JIT, which left every x87 register full: the next
  // floating-point `%` answered NaN (-0 % 60 was pg's "+00:NaN"). Each check runs right after a
  // program, since the first `%` is the one that broke.
  it('answers floating-point remainders and formats dates right after a funding ran the token programs', () => {
    const sandbox = createSolanaSandbox();
    const owner = Keypair.generate().publicKey.toBase58();
    const mint = sandbox.mint.toBase58();
    const seen: Array<{ zero: number; large: number; fraction: number; date: unknown }> = [];
    for (let i = 0; i < 10; i++) {
      sandbox.fund(owner, mint, 1n);
      const zero = negativeZero % 60;
      sandbox.fund(owner, mint, 1n);
      // Past 2^31, as a millisecond timestamp is.
      const large = Date.UTC(2026, 10, 25) % 7_000;
      sandbox.fund(owner, mint, 1n);
      const fraction = 7.25 % 2;
      sandbox.fund(owner, mint, 1n);
      const date = prepareValue(new Date(Date.UTC(2026, 10, 25, 0, 29, 32)));
      seen.push({ zero, large, fraction, date });
    }
    for (const s of seen) {
      expect(Object.is(s.zero, -0)).toBe(true);
      expect(s.large).toBe(Date.UTC(2026, 10, 25) - Math.floor(Date.UTC(2026, 10, 25) / 7_000) * 7_000);
      expect(s.fraction).toBe(1.25);
      expect(s.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
      expect(new Date(String(s.date)).getTime()).toBe(Date.UTC(2026, 10, 25, 0, 29, 32));
    }
    expect(sandbox.balance(owner, mint)).toBe(40n);
  });

  it('answers them right after a payment transaction refused in preflight', async () => {
    const sandbox = createSolanaSandbox();
    const buyer = Keypair.generate();
    sandbox.fund(buyer.publicKey.toBase58(), sandbox.mint.toBase58(), 1n);
    const source = getAssociatedTokenAddressSync(sandbox.mint, buyer.publicKey);
    const destination = getAssociatedTokenAddressSync(sandbox.mint, sandbox.feePayer.publicKey);
    const zeros: number[] = [];
    for (let i = 0; i < 5; i++) {
      // A payment's shape (the associated token account program runs first, and its JIT-compiled
      // calls are what fill the registers), for more than the buyer holds: refused in preflight.
      const tx = new Transaction({ feePayer: sandbox.feePayer.publicKey, ...(await sandbox.connection.getLatestBlockhash()) }).add(
        createAssociatedTokenAccountIdempotentInstruction(sandbox.feePayer.publicKey, destination, sandbox.feePayer.publicKey, sandbox.mint),
        createTransferCheckedInstruction(source, sandbox.mint, destination, buyer.publicKey, 5n + BigInt(i), 6),
      );
      tx.sign(sandbox.feePayer, buyer);
      const refused = await sandbox.connection.sendRawTransaction(tx.serialize()).then(
        () => null,
        (e: Error) => e,
      );
      zeros.push(negativeZero % 60);
      expect(refused?.message).toMatch(/simulation failed/);
    }
    expect(zeros.every((z) => Object.is(z, -0))).toBe(true);
  });
});
