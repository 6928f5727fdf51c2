import { describe, expect, it } from 'vitest';
import { decodeTime } from 'ulid';
import { monotonicUlid } from './ulid.ts';

describe('monotonicUlid', () => {
  it('makes 26-character Crockford ids whose time decodes back', () => {
    const next = monotonicUlid();
    const at = Date.UTC(2026, 10, 22, 12, 0, 0, 123);
    const id = next(at);
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(decodeTime(id)).toBe(at);
  });

  it('sorts in the order made, within one millisecond and across a clock step back', () => {
    const next = monotonicUlid();
    const at = 1_800_000_000_000;
    const ids = [next(at), ...Array.from({ length: 5000 }, () => next(at)), next(at - 10), next(at + 1)];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('differs between generators in the same millisecond (random part)', () => {
    const at = 1_800_000_000_000;
    const a = new Set(Array.from({ length: 200 }, () => monotonicUlid()(at).slice(10)));
    expect(a.size).toBe(200);
  });

  it('refuses a time that is not a millisecond count', () => {
    expect(() => monotonicUlid()(1.5)).toThrow(RangeError);
    expect(() => monotonicUlid()(-1)).toThrow(RangeError);
  });
});
