import { describe, expect, it } from 'vitest';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { build, serviceSigned, setup, USDC, walletSignLegacy, walletSignVersioned } from './test-fixtures.ts';
import { verifySignedTransaction } from './verify.ts';
import { submitTransaction } from './submit.ts';
import { checkTransaction, isBlockhashExpired } from './status.ts';
import { findPaymentByReference } from './find.ts';
import { getTokenBalance } from './balance.ts';
import { deriveReference } from './reference.ts';

describe('Solana SPL payment on the sandbox', () => {
  it('moves exactly the amount from a buyer holding no SOL, the service paying the fee', async () => {
    const f = setup();
    const { sandbox, buyer, merchant } = f;
    const mint = sandbox.mint.toBase58();
    const feePayerSolBefore = sandbox.balance(sandbox.feePayer.publicKey.toBase58(), null);
    expect(sandbox.balance(buyer.publicKey.toBase58(), null)).toBe(0n);

    const built = await build(f, USDC(1.25));
    expect(await isBlockhashExpired(sandbox.connection, built.lastValidBlockHeight)).toBe(false);
    const signed = walletSignLegacy(built.transactionBase64, buyer);
    const verdict = verifySignedTransaction(signed, { messageBase64: built.messageBase64, buyer: buyer.publicKey, feePayer: sandbox.feePayer.publicKey });
    expect(verdict.ok).toBe(true);
    const { transaction, signature } = serviceSigned(f, built, signed);

    const sent = await submitTransaction(sandbox.connection, transaction);
    expect(sent).toEqual({ status: 'sent', signature });
    expect(await checkTransaction(sandbox.connection, signature)).toMatchObject({ status: 'confirmed' });

    expect(sandbox.balance(merchant.publicKey.toBase58(), mint)).toBe(USDC(1.25));
    expect(sandbox.balance(buyer.publicKey.toBase58(), mint)).toBe(USDC(8.75));
    expect(await getTokenBalance(sandbox.connection, merchant.publicKey, sandbox.mint)).toBe(USDC(1.25));
    expect(sandbox.balance(buyer.publicKey.toBase58(), null)).toBe(0n);
    expect(sandbox.balance(sandbox.feePayer.publicKey.toBase58(), null)).toBeLessThan(feePayerSolBefore);

    const found = await findPaymentByReference(sandbox.connection, deriveReference('pay_1', 'opt_1'));
    expect(found).toEqual([{ signature, slot: expect.any(Number), failed: false }]);
    expect(await findPaymentByReference(sandbox.connection, deriveReference('pay_2', 'opt_1'))).toEqual([]);
  });

  it('accepts a VersionedTransaction-signing wallet and a destination account holding funds already', async () => {
    const f = setup();
    const mint = f.sandbox.mint.toBase58();
    f.sandbox.fund(f.merchant.publicKey.toBase58(), mint, 5n);
    const built = await build(f, 1_000_001n);
    const signed = walletSignVersioned(built.transactionBase64, f.buyer);
    expect(verifySignedTransaction(signed, { messageBase64: built.messageBase64, buyer: f.buyer.publicKey, feePayer: f.sandbox.feePayer.publicKey }).ok).toBe(true);
    expect((await submitTransaction(f.sandbox.connection, serviceSigned(f, built, signed).transaction)).status).toBe('sent');
    expect(f.sandbox.balance(f.merchant.publicKey.toBase58(), mint)).toBe(1_000_006n);
  });

  it('never moves funds twice when the same signed transaction is submitted again', async () => {
    const f = setup();
    const mint = f.sandbox.mint.toBase58();
    const built = await build(f, USDC(2));
    const { transaction: signed, signature } = serviceSigned(f, built, walletSignLegacy(built.transactionBase64, f.buyer));
    expect((await submitTransaction(f.sandbox.connection, signed)).status).toBe('sent');
    // Re-sent without preflight (the service's own re-broadcast): the node deduplicates by signature.
    expect(await submitTransaction(f.sandbox.connection, signed)).toEqual({ status: 'sent', signature });
    // With preflight, a node says so.
    await expect(f.sandbox.connection.sendRawTransaction(Buffer.from(signed, 'base64'))).rejects.toThrow(/already been processed/);
    expect(f.sandbox.balance(f.merchant.publicKey.toBase58(), mint)).toBe(USDC(2));
    expect(f.sandbox.balance(f.buyer.publicKey.toBase58(), mint)).toBe(USDC(8));
  });

  it('reports an expired blockhash before submission and as failed only once it can no longer land', async () => {
    const f = setup();
    const mint = f.sandbox.mint.toBase58();
    const built = await build(f, USDC(1));
    const { transaction: signed, signature } = serviceSigned(f, built, walletSignLegacy(built.transactionBase64, f.buyer));
    const options = { lastValidBlockHeight: built.lastValidBlockHeight };
    expect(await checkTransaction(f.sandbox.connection, signature, options)).toEqual({ status: 'pending' });

    f.sandbox.expireBlockhash();
    expect(await isBlockhashExpired(f.sandbox.connection, built.lastValidBlockHeight)).toBe(true);
    const sent = await submitTransaction(f.sandbox.connection, signed);
    expect(sent).toMatchObject({ status: 'rejected', reason: expect.stringContaining('BlockhashNotFound') });
    expect(await checkTransaction(f.sandbox.connection, signature)).toEqual({ status: 'pending' });
    expect(await checkTransaction(f.sandbox.connection, signature, options)).toEqual({ status: 'failed', reason: 'blockhash_expired' });
    expect(f.sandbox.balance(f.merchant.publicKey.toBase58(), mint)).toBe(0n);

    const fresh = await build(f, USDC(1));
    expect(fresh.lastValidBlockHeight).toBeGreaterThan(built.lastValidBlockHeight);
    expect(await isBlockhashExpired(f.sandbox.connection, fresh.lastValidBlockHeight)).toBe(false);
    expect(await isBlockhashExpired(f.sandbox.connection, fresh.lastValidBlockHeight, 151)).toBe(true);
  });

  it('answers unknown, never failed, when the RPC errors', async () => {
    const f = setup();
    const broken = { ...f.sandbox.connection, getSignatureStatuses: () => Promise.reject(new Error('ECONNRESET')) };
    expect(await checkTransaction(broken, 'x', { lastValidBlockHeight: 0 })).toEqual({ status: 'unknown', reason: 'ECONNRESET' });
    const built = await build(f, USDC(1));
    const { transaction: signed, signature } = serviceSigned(f, built, walletSignLegacy(built.transactionBase64, f.buyer));
    const offline = { ...f.sandbox.connection, sendRawTransaction: () => Promise.reject(new Error('fetch failed')) };
    expect(await submitTransaction(offline, signed)).toEqual({ status: 'unknown', signature, reason: 'fetch failed' });
  });

  it('reports a landed transaction that failed on chain as failed (no tokens moved)', async () => {
    const f = setup();
    const built = await build(f, USDC(11)); // more than the buyer holds
    const { transaction: signed, signature } = serviceSigned(f, built, walletSignLegacy(built.transactionBase64, f.buyer));
    await expect(f.sandbox.connection.sendRawTransaction(Buffer.from(signed, 'base64'))).rejects.toThrow(/simulation failed/);
    await f.sandbox.connection.sendRawTransaction(Buffer.from(signed, 'base64'), { skipPreflight: true });
    expect(await checkTransaction(f.sandbox.connection, signature)).toMatchObject({ status: 'failed', reason: expect.stringContaining('InstructionError') });
    expect(f.sandbox.balance(f.buyer.publicKey.toBase58(), f.sandbox.mint.toBase58())).toBe(USDC(10));
  });

  it('derives the reference from payment and option only', () => {
    expect(deriveReference('pay_1', 'opt_1').equals(deriveReference('pay_1', 'opt_1'))).toBe(true);
    expect(deriveReference('pay_1', 'opt_2').equals(deriveReference('pay_1', 'opt_1'))).toBe(false);
    expect(deriveReference('pay_2', 'opt_1').equals(deriveReference('pay_1', 'opt_1'))).toBe(false);
    expect(deriveReference('pay_1', 'opt_1').toBase58()).toBe(deriveReference('pay_1', 'opt_1').toBase58());
    expect(() => deriveReference('', 'opt_1')).toThrow();
  });

  it('puts the reference into the transfer and the service key first', async () => {
    const f = setup();
    const built = await build(f, 7n, 'pay_ref');
    const { Transaction } = await import('@solana/web3.js');
    const tx = Transaction.from(Buffer.from(built.transactionBase64, 'base64'));
    expect(tx.feePayer?.equals(f.sandbox.feePayer.publicKey)).toBe(true);
    const transfer = tx.instructions.at(-1);
    const source = getAssociatedTokenAddressSync(f.sandbox.mint, f.buyer.publicKey);
    expect(transfer?.keys[0]?.pubkey.equals(source)).toBe(true);
    expect(transfer?.keys.at(-1)).toEqual({ pubkey: deriveReference('pay_ref', 'opt_1'), isSigner: false, isWritable: false });
    await expect(build(f, 0n)).rejects.toThrow(RangeError);
  });
});
