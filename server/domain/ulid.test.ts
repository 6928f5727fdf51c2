import { describe, expect, it } from 'vitest';
import { decodeTime } from 'ulid';
import { monotonicUlid } from './ulid.ts';
import { newId } from './ids.ts';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The 80-bit random part of a ULID as a bigint. */
const randomPart = (id: string) => [...id.slice(-16)].reduce((n, c) => n * 32n + BigInt(ALPHABET.indexOf(c)), 0n);
const popcount = (n: bigint) => n.toString(2).replaceAll('0', '').length;

describe('monotonicUlid', () => {
  it('makes 26-character Crockford ids whose time decodes back', () => {
    const next = monotonicUlid();
    const at = Date.UTC(2026, 10, 22, 12, 0, 0, 123);
    const id = next(at);
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(decodeTime(id)).toBe(at);
  });

  it('sorts by the millisecond it is given, whatever was made before', () => {
    const next = monotonicUlid();
    const at = 1_800_000_000_000;
    const same = Array.from({ length: 50 }, () => next(at));
    const earlier = next(at - 10);
    const later = next(at + 1);
    expect(decodeTime(earlier)).toBe(at - 10);
    for (const id of same) expect(earlier < id && id < later).toBe(true);
  });

  // A payment id is a bearer capability (pay page, gateway cancel): knowing one id must not give
  // away the next. The old generator counted up within a millisecond (the next id was this one + 1).
  it('gives every id fresh random bits: ids of one millisecond share no predictable relation', () => {
    const next = monotonicUlid();
    const at = 1_800_000_000_000;
    const ids = Array.from({ length: 10_000 }, () => next(at));
    expect(new Set(ids).size).toBe(ids.length);
    const parts = ids.map(randomPart);
    let sequential = 0;
    let fewBitsApart = 0;
    for (let i = 1; i < parts.length; i++) {
      const d = parts[i]! - parts[i - 1]!;
      if (d > 0n && d < 1000n) sequential++;
      // Two independent 80-bit values differ in ~40 bits; fewer than 16 is a 1-in-10^6 event.
      if (popcount(parts[i]! ^ parts[i - 1]!) < 16) fewBitsApart++;
    }
    expect(sequential).toBe(0);
    expect(fewBitsApart).toBe(0);
    // Each of the 80 bits is set in about half of the ids (not a counter's low bits only).
    for (let bit = 0n; bit < 80n; bit++) {
      const set = parts.filter((p) => (p >> bit) & 1n).length;
      expect(set).toBeGreaterThan(4500);
      expect(set).toBeLessThan(5500);
    }
  });

  it('gives ids from the process-wide generator (newId) fresh random parts too', () => {
    const at = 1_800_000_000_000;
    const a = newId('payment', at);
    const b = newId('payment', at);
    expect(a.slice(0, 14)).toBe(b.slice(0, 14)); // pay_ + the same time
    expect(popcount(randomPart(a) ^ randomPart(b))).toBeGreaterThanOrEqual(16);
    expect(randomPart(b) - randomPart(a)).not.toBe(1n);
  });

  it('refuses a time that is not a millisecond count', () => {
    expect(() => monotonicUlid()(1.5)).toThrow(RangeError);
    expect(() => monotonicUlid()(-1)).toThrow(RangeError);
  });
});
