import { describe, expect, it } from 'vitest';
import { displayAmount } from './money.ts';

describe('displayAmount: cents at least, every significant digit, nothing rounded', () => {
  it.each([
    [10_500_000n, 6, '10.50'],
    [10_000_000n, 6, '10.00'],
    [1n, 6, '0.000001'],
    [10_123_456n, 6, '10.123456'],
    [1n, 18, '0.000000000000000001'],
    [1050n, 2, '10.50'],
    [7n, 0, '7'],
  ])('%s base units at %s decimals → %s', (value, decimals, text) => {
    expect(displayAmount(value, decimals)).toBe(text);
  });
});
