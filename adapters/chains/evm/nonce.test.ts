import { describe, expect, it } from 'vitest';
import { deriveNonce } from './nonce.ts';

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
