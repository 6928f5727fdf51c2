import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AbiCoder, hexlify, keccak256 } from 'ethers';
import { abiEncodeStrings, deriveNonce } from './nonce.ts';

describe('deriveNonce', () => {
  it('is deterministic and the Permit2 form is the same 256-bit value', () => {
    const a = deriveNonce('pay_01JD0000000000000000000000', 'opt_1');
    expect(deriveNonce('pay_01JD0000000000000000000000', 'opt_1')).toEqual(a);
    expect(a.eip3009).toMatch(/^0x[0-9a-f]{64}$/);
    expect(a.permit2).toBe(BigInt(a.eip3009));
  });

  it('differs per payment and per option, with no concatenation ambiguity', () => {
    const seen = new Set([
      deriveNonce('pay_a', 'opt_1').eip3009,
      deriveNonce('pay_b', 'opt_1').eip3009,
      deriveNonce('pay_a', 'opt_2').eip3009,
      deriveNonce('pay_ab', 'c').eip3009,
      deriveNonce('pay_a', 'bc').eip3009,
    ]);
    expect(seen.size).toBe(5);
  });

  it('rejects empty ids', () => {
    expect(() => deriveNonce('', 'opt')).toThrow();
    expect(() => deriveNonce('pay', '')).toThrow();
  });
});

describe('abiEncodeStrings', () => {
  it('gives the bytes of the general ABI coder for any strings, including empty and multi-byte ones', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 80 }), { minLength: 1, maxLength: 4 }), (values) => {
        const expected = AbiCoder.defaultAbiCoder().encode(
          values.map(() => 'string'),
          values,
        );
        expect(hexlify(abiEncodeStrings(values))).toBe(expected);
      }),
      { numRuns: 300 },
    );
    for (const n of [0, 31, 32, 33, 64]) {
      const v = ['x'.repeat(n), 'pay_1'];
      expect(hexlify(abiEncodeStrings(v))).toBe(AbiCoder.defaultAbiCoder().encode(['string', 'string'], v));
    }
  });

  it('keeps the nonces quoted before it was written (the same hash as ethers’ coder)', () => {
    const tag = 'merchant-payments/evm-payment-nonce/v1';
    const viaEthers = keccak256(AbiCoder.defaultAbiCoder().encode(['string', 'string', 'string'], [tag, 'pay_01JD0000000000000000000000', 'opt_1']));
    expect(deriveNonce('pay_01JD0000000000000000000000', 'opt_1').eip3009).toBe(viaEthers);
  });
});
