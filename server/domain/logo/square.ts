/**
 * "1:1 (square), tolerance ±5 %" made exact. The deviation of a W×H image is
 *
 *     deviation = |W − H| / max(W, H)
 *
 * i.e. how much of the LONGER side is missing from the shorter one (the share a center-crop to a
 * square throws away). The image is square enough when deviation ≤ tolerance (5 %), boundary
 * included. Examples: 1000×1040 → 40/1040 = 3.8 % accepted; 1000×1060 → 60/1060 = 5.7 % rejected;
 * 950×1000 → exactly 5 % accepted. The check runs in integers (100·|W − H| ≤ p·max(W, H)), so no
 * floating-point rounding can move the boundary.
 */

/** Deviation from square as a fraction of the longer side (0 for a square), for messages. */
export function squareDeviation(width: number, height: number): number {
  const longer = Math.max(width, height);
  return longer === 0 ? 0 : Math.abs(width - height) / longer;
}

/** True when |W − H| / max(W, H) ≤ tolerancePercent / 100, compared exactly in integers. */
export function isSquareEnough(width: number, height: number, tolerancePercent: number): boolean {
  return 100 * Math.abs(width - height) <= tolerancePercent * Math.max(width, height);
}
