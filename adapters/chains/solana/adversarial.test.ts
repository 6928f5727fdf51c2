import { describe, expect, it } from 'vitest';
import { Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { build, rawSign, setup, USDC, walletSignLegacy, type Fixture } from './test-fixtures.ts';
import { verifySignedTransaction, type VerifyFailure } from './verify.ts';
import { submitTransaction } from './submit.ts';
import type { BuiltPaymentTransaction } from './build.ts';
import { base58Encode } from './base58.ts';

const AMOUNT = USDC(1.5);

/** Decodes the built transaction, lets `change` edit it, then the buyer signs the edited message. */
function tamper(built: BuiltPaymentTransaction, f: Fixture, change: (tx: Transaction) => void): string {
  const tx = Transaction.from(Buffer.from(built.transactionBase64, 'base64'));
  change(tx);
  tx.partialSign(f.buyer);
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
}

const transferOf = (tx: Transaction) => tx.instructions.at(-1) as Transaction['instructions'][number];

interface Attack {
  name: string;
  reason: VerifyFailure;
  make(f: Fixture, built: BuiltPaymentTransaction): Promise<string> | string;
  /** Whether the forged bytes are worth broadcasting to prove they cannot land either. */
  broadcast: boolean;
}

const attacks: Attack[] = [
  {
    name: 'destination changed to the attacker',
    reason: 'message_mismatch',
    broadcast: true,
    make: (f, built) =>
      tamper(built, f, (tx) => {
        const ix = transferOf(tx);
        (ix.keys[2] as { pubkey: unknown }).pubkey = getAssociatedTokenAddressSync(f.sandbox.mint, f.attacker.publicKey);
      }),
  },
  {
    name: 'amount lowered',
    reason: 'message_mismatch',
    broadcast: true,
    make: (f, built) =>
      tamper(built, f, (tx) => {
        const ix = transferOf(tx);
        ix.data = Buffer.from(ix.data);
        ix.data.writeBigUInt64LE(1n, 1);
      }),
  },
  {
    name: 'mint changed',
    reason: 'message_mismatch',
    broadcast: true,
    make: (f, built) =>
      tamper(built, f, (tx) => {
        (transferOf(tx).keys[1] as { pubkey: unknown }).pubkey = Keypair.generate().publicKey;
      }),
  },
  {
    name: 'extra instruction draining the fee payer',
    reason: 'message_mismatch',
    broadcast: true,
    make: (f, built) =>
      tamper(built, f, (tx) => {
        tx.add(SystemProgram.transfer({ fromPubkey: f.sandbox.feePayer.publicKey, toPubkey: f.attacker.publicKey, lamports: LAMPORTS_PER_SOL }));
      }),
  },
  {
    name: 'buyer slot signed by another key',
    reason: 'invalid_buyer_signature',
    broadcast: true,
    make: (f, built) => {
      const tx = Transaction.from(Buffer.from(built.transactionBase64, 'base64'));
      tx.addSignature(f.buyer.publicKey, rawSign(tx.serializeMessage(), f.attacker));
      return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
    },
  },
  {
    name: 'fee payer slot filled by someone else',
    reason: 'fee_payer_slot_filled',
    broadcast: true,
    make: (f, built) => {
      const tx = Transaction.from(Buffer.from(walletSignLegacy(built.transactionBase64, f.buyer), 'base64'));
      tx.addSignature(f.sandbox.feePayer.publicKey, rawSign(tx.serializeMessage(), f.attacker));
      return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
    },
  },
  {
    name: 'not signed by the buyer at all',
    reason: 'missing_buyer_signature',
    broadcast: true,
    make: (_f, built) => built.transactionBase64,
  },
  {
    name: 'a transaction built for another payment (other reference)',
    reason: 'message_mismatch',
    broadcast: false,
    make: async (f) => walletSignLegacy((await build(f, AMOUNT, 'pay_other')).transactionBase64, f.buyer),
  },
  {
    name: 'a detached signature (base64) instead of a transaction',
    reason: 'not_a_transaction',
    broadcast: false,
    make: (f, built) => rawSign(Buffer.from(built.messageBase64, 'base64'), f.buyer).toString('base64'),
  },
  {
    name: 'a detached signature (base58) instead of a transaction',
    reason: 'not_a_transaction',
    broadcast: false,
    make: (f, built) => base58Encode(rawSign(Buffer.from(built.messageBase64, 'base64'), f.buyer)),
  },
  {
    name: 'trailing bytes after the signed message',
    reason: 'message_mismatch',
    broadcast: false,
    make: (f, built) => Buffer.concat([Buffer.from(walletSignLegacy(built.transactionBase64, f.buyer), 'base64'), Buffer.from([0])]).toString('base64'),
  },
];

describe('verifySignedTransaction refuses what the service did not build', () => {
  it.each(attacks)('$name', async (attack) => {
    const f = setup();
    const built = await build(f, AMOUNT);
    const forged = await attack.make(f, built);
    const verdict = verifySignedTransaction(forged, { messageBase64: built.messageBase64, buyer: f.buyer.publicKey, feePayer: f.sandbox.feePayer.publicKey });
    expect(verdict).toEqual({ ok: false, reason: attack.reason });

    if (attack.broadcast) {
      // Even if the wallet broadcast the forgery itself (no preflight), our fee payer never signed it.
      const sent = await submitTransaction(f.sandbox.connection, forged);
      expect(sent.status).toBe('rejected');
    }
    const mint = f.sandbox.mint.toBase58();
    expect(f.sandbox.balance(f.buyer.publicKey.toBase58(), mint)).toBe(USDC(10));
    expect(f.sandbox.balance(f.attacker.publicKey.toBase58(), mint)).toBe(0n);
    expect(f.sandbox.balance(f.attacker.publicKey.toBase58(), null)).toBe(0n);
    expect(f.sandbox.balance(f.merchant.publicKey.toBase58(), mint)).toBe(0n);

    // The genuine transaction still verifies and pays exactly once afterwards.
    const genuine = walletSignLegacy(built.transactionBase64, f.buyer);
    expect(verifySignedTransaction(genuine, { messageBase64: built.messageBase64, buyer: f.buyer.publicKey, feePayer: f.sandbox.feePayer.publicKey }).ok).toBe(true);
  });

  it('refuses a correctly signed transaction when the option belongs to another buyer', async () => {
    const f = setup();
    const built = await build(f, AMOUNT);
    const signed = walletSignLegacy(built.transactionBase64, f.buyer);
    const verdict = verifySignedTransaction(signed, { messageBase64: built.messageBase64, buyer: f.attacker.publicKey, feePayer: f.sandbox.feePayer.publicKey });
    expect(verdict).toEqual({ ok: false, reason: 'buyer_not_signer' });
    const wrongPayer = verifySignedTransaction(signed, { messageBase64: built.messageBase64, buyer: f.buyer.publicKey, feePayer: f.attacker.publicKey });
    expect(wrongPayer).toEqual({ ok: false, reason: 'unexpected_fee_payer' });
  });

  it.each(['', 'not base64!', '%%%', 'AAAA'])('refuses junk input %j', async (junk) => {
    const f = setup();
    const built = await build(f, AMOUNT);
    expect(verifySignedTransaction(junk, { messageBase64: built.messageBase64, buyer: f.buyer.publicKey, feePayer: f.sandbox.feePayer.publicKey })).toEqual({
      ok: false,
      reason: 'not_a_transaction',
    });
  });
});
