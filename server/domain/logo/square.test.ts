import { describe, expect, it } from 'vitest';
import { isSquareEnough, squareDeviation } from './square.ts';

describe('isSquareEnough (|W − H| / max(W, H) ≤ 5 %)', () => {
  it.each([
    [1024, 1024, true],
    [1000, 1040, true], // 3.8 %
    [1040, 1000, true],
    [1000, 1050, true], // 4.8 %
    [950, 1000, true], // exactly 5 %: boundary included
    [949, 1000, false], // 5.1 %
    [1000, 1060, false], // 5.7 %
    [1060, 1000, false],
    [500, 1000, false],
  ])('%i×%i → %s', (w, h, expected) => {
    expect(isSquareEnough(w, h, 5)).toBe(expected);
  });

  it('measures the deviation against the longer side', () => {
    expect(squareDeviation(1000, 1040)).toBeCloseTo(40 / 1040, 12);
    expect(squareDeviation(1000, 1060)).toBeCloseTo(60 / 1060, 12);
    expect(squareDeviation(0, 0)).toBe(0);
  });
});
