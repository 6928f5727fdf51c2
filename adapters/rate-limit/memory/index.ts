import type { Clock } from '../../../server/ports/clock.ts';
import { validateRateLimit, type RateDecision, type RateLimit, type RateLimiter } from '../../../server/ports/rate-limiter.ts';

/**
 * Counts in this process only: the embedded default, and what one API process enforces on its
 * own. GCRA (a token bucket kept as one number per key): each key stores the time its bucket
 * would be full again, so a check is one comparison and one write, and a key whose time has
 * passed holds nothing worth keeping.
 */
export function createMemoryRateLimiter(limit: RateLimit, clock: Clock, opts: { maxKeys?: number } = {}): RateLimiter {
  validateRateLimit(limit);
  const interval = 1000 / limit.perSecond;
  const window = interval * limit.burst;
  const maxKeys = opts.maxKeys ?? 100_000;
  const fullAt = new Map<string, number>();

  // Many distinct clients: drop the ones whose bucket has refilled (forgetting them changes
  // nothing); if that is not enough, start over rather than grow without bound.
  const prune = (now: number) => {
    for (const [key, at] of fullAt) if (at <= now) fullAt.delete(key);
    if (fullAt.size >= maxKeys) fullAt.clear();
  };

  return {
    async take(key): Promise<RateDecision> {
      const now = clock.now();
      const next = Math.max(fullAt.get(key) ?? now, now) + interval;
      const over = next - now - window;
      if (over > 0) return { allowed: false, retryAfterMs: Math.ceil(over) };
      if (!fullAt.has(key) && fullAt.size >= maxKeys) prune(now);
      fullAt.set(key, next);
      return { allowed: true };
    },
    async close() {
      fullAt.clear();
    },
  };
}
