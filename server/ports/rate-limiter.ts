/**
 * How often one client may call: a sustained rate with a burst on top. A client that has been
 * quiet may send `burst` requests at once; after that, one every 1/`perSecond` s.
 */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Counts requests per client key; adapters decide where the counts live (one process, Redis). */
export interface RateLimiter {
  take(key: string): Promise<RateDecision>;
  close(): Promise<void>;
}

export function validateRateLimit(limit: RateLimit): void {
  if (!(Number.isFinite(limit.perSecond) && limit.perSecond > 0)) throw new Error('rate limit: perSecond must be a positive number');
  if (!(Number.isInteger(limit.burst) && limit.burst >= 1)) throw new Error('rate limit: burst must be an integer of at least 1');
}
