// recoverTypedDataSigner recovers with libsecp256k1 (tiny-secp256k1) instead of ethers' JavaScript
// curve: it must answer exactly what ethers' verifyTypedData answers, signer or error, for every
// signature a buyer can send, including the malleated (high-s), compact and malformed ones.
import { Signature, Wallet, verifyTypedData, zeroPadValue, toBeHex } from 'ethers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recoverTypedDataSigner, type Eip712TypedData } from './typed-data.ts';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from './eip3009.ts';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const TYPES = TRANSFER_WITH_AUTHORIZATION_TYPES;
const wallets = Array.from({ length: 4 }, () => new Wallet(Wallet.createRandom().privateKey));

function typedData(from: string, value: bigint, nonce: string): Eip712TypedData {
  return {
    types: { EIP712Domain: [], ...TYPES },
    primaryType: 'TransferWithAuthorization',
    domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
    message: { from, to: '0x1234567890abcdef1234567890abcdef12345678', value: value.toString(), validAfter: '0', validBefore: '99999999999', nonce },
  };
}

/** Both answers, as a value or the error's message: they must be the same. */
function both(td: Eip712TypedData, signature: string): { ours: string; ethers: string } {
  const run = (f: () => string) => {
    try {
      return `signer ${f()}`;
    } catch (e) {
      return `error ${(e as Error).message.split(' (')[0]}`;
    }
  };
  return {
    ours: run(() => recoverTypedDataSigner(td, TYPES, 'TransferWithAuthorization', signature)),
    ethers: run(() => verifyTypedData(td.domain, TYPES, td.message, signature)),
  };
}

describe('recoverTypedDataSigner answers as ethers verifyTypedData does', () => {
  it('for good signatures, their malleated (high-s) twins, compact (EIP-2098) forms and v 0/1', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(3), fc.bigInt({ min: 0n, max: 2n ** 64n }), fc.uint8Array({ minLength: 32, maxLength: 32 }), async (w, value, nonceBytes) => {
        const wallet = wallets[w]!;
        const td = typedData(wallet.address, value, zeroPadValue(nonceBytes, 32));
        const signature = await wallet.signTypedData(td.domain, TYPES, td.message);
        const sig = Signature.from(signature);
        const good = both(td, signature);
        expect(good.ours).toBe(`signer ${wallet.address}`);
        expect(good.ours).toBe(good.ethers);
        const compact = both(td, sig.compactSerialized);
        expect(compact.ours).toBe(compact.ethers);
        const v01 = both(td, sig.r + sig.s.slice(2) + (sig.yParity ? '01' : '00'));
        expect(v01.ours).toBe(v01.ethers);
        // s → N − s with the other parity recovers the same key on the curve; both must agree on it.
        const highS = sig.r + toBeHex(N - BigInt(sig.s), 32).slice(2) + (sig.yParity ? '1b' : '1c');
        const malleated = both(td, highS);
        expect(malleated.ours).toBe(malleated.ethers);
      }),
      { numRuns: 40 },
    );
  });

  it('for tampered and malformed signatures: the same other signer, or the same error', async () => {
    const wallet = wallets[0]!;
    const td = typedData(wallet.address, 5n, zeroPadValue('0x01', 32));
    const signature = await wallet.signTypedData(td.domain, TYPES, td.message);
    const sig = Signature.from(signature);
    const cases = [
      sig.r + sig.s.slice(2) + (sig.yParity ? '1b' : '1c'), // the other parity: another key
      '0x' + '00'.repeat(32) + sig.s.slice(2) + '1b', // r = 0
      sig.r + '00'.repeat(32) + '1b', // s = 0
      '0x' + toBeHex(N, 32).slice(2) + sig.s.slice(2) + '1b', // r = N
      sig.r + sig.s.slice(2) + '1d', // v = 29
      signature.slice(0, -2), // 64 bytes that are not a compact signature of it
      '0x1234',
      '0x' + 'ff'.repeat(65),
    ];
    for (const s of cases) {
      const answer = both(td, s);
      expect(answer.ours, s).toBe(answer.ethers);
    }
    // A signature over other values: some other address, never the claimed signer.
    const other = both(typedData(wallet.address, 6n, zeroPadValue('0x01', 32)), signature);
    expect(other.ours).toBe(other.ethers);
    expect(other.ours).not.toBe(`signer ${wallet.address}`);
  });

  it('refuses another primary type before any curve work', () => {
    const td = { ...typedData(wallets[0]!.address, 1n, zeroPadValue('0x01', 32)), primaryType: 'Permit' };
    expect(() => recoverTypedDataSigner(td, TYPES, 'TransferWithAuthorization', '0x' + '11'.repeat(65))).toThrow(/Expected primaryType/);
  });
});
