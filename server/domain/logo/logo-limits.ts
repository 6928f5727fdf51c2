/**
 * Limits from the interface's "Merchant logo specification" plus the fetch budget we grant a
 * partner's logo URL. Callers may override any of them (tests use shorter timeouts).
 */
export type LogoLimits = {
  /** Largest accepted file, in bytes (the spec's 2 MB = 2 × 1024 × 1024). */
  maxBytes: number;
  /** Smallest accepted width and height, px. */
  minSide: number;
  /** Largest accepted width and height, px. */
  maxSide: number;
  /** Square tolerance in whole percent; see {@link isSquareEnough} for the exact rule. */
  squareTolerancePercent: number;
  /** Whole fetch budget (DNS, connects, redirects, body), ms. */
  timeoutMs: number;
  /** Budget for each TCP connect plus TLS handshake, ms. */
  connectTimeoutMs: number;
  /** Redirects followed, each re-checked by the SSRF guard. */
  maxRedirects: number;
};

export const DEFAULT_LOGO_LIMITS: Readonly<LogoLimits> = Object.freeze({
  maxBytes: 2 * 1024 * 1024,
  minSide: 500,
  maxSide: 4096,
  squareTolerancePercent: 5,
  timeoutMs: 10_000,
  connectTimeoutMs: 5_000,
  maxRedirects: 3,
});
