import { describe, expect, it } from 'vitest';
import { Keypair } from '@solana/web3.js';
import { base58Decode, base58Encode } from './base58.ts';
import { decodeBase64Strict, signatureOf, splitWireTransaction } from './wire.ts';
import { signTransactionAction } from './action.ts';
import { build, setup } from './test-fixtures.ts';

describe('wire helpers', () => {
  it('base58 agrees with web3.js and keeps leading zeros', () => {
    for (let i = 0; i < 20; i++) {
      const key = Keypair.generate().publicKey;
      expect(base58Encode(key.toBytes())).toBe(key.toBase58());
      expect(Buffer.from(base58Decode(key.toBase58())).equals(key.toBuffer())).toBe(true);
    }
    const padded = Uint8Array.from([0, 0, 1, 2, 255]);
    expect(base58Encode(padded).startsWith('11')).toBe(true);
    expect([...base58Decode(base58Encode(padded))]).toEqual([...padded]);
    expect(() => base58Decode('0OIl')).toThrow();
  });

  it('splits a built transaction into its signatures and exact message bytes', async () => {
    const f = setup();
    const built = await build(f, 10n);
    const wire = splitWireTransaction(decodeBase64Strict(built.transactionBase64) as Uint8Array);
    expect(wire?.signatures).toHaveLength(2);
    expect(Buffer.from(wire?.message ?? []).toString('base64')).toBe(built.messageBase64);
    // Every slot empty at build: the fee payer signs only at confirm.
    expect(wire?.signatures.every((sig) => sig.every((b) => b === 0))).toBe(true);
    expect(signatureOf(built.transactionBase64)).toBe('1111111111111111111111111111111111111111111111111111111111111111');
  });

  it('does not take a detached signature or junk for a transaction', () => {
    expect(splitWireTransaction(new Uint8Array(64).fill(7))).toBeNull();
    expect(splitWireTransaction(new Uint8Array(0))).toBeNull();
    expect(splitWireTransaction(Uint8Array.from([0xff, 0xff, 0xff, 0x01]))).toBeNull();
    expect(decodeBase64Strict('abc$')).toBeNull();
    expect(signatureOf('not base64')).toBeNull();
  });

  it('shapes the solana_signTransaction action as [ { transaction } ]', () => {
    expect(signTransactionAction('solana:sandbox', 'AQID')).toEqual({
      type: 'walletRpc',
      data: { chain_id: 'solana:sandbox', method: 'solana_signTransaction', params: [{ transaction: 'AQID' }] },
    });
    expect(() => signTransactionAction('eip155:1', 'AQID')).toThrow();
  });
});
