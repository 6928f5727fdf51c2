import type { Clock } from '../../../server/ports/clock.ts';
import { validateRateLimit, type RateDecision, type RateLimit, type RateLimiter } from '../../../server/ports/rate-limiter.ts';

const EVICTION_SAMPLE = 32;

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

  // Full (many distinct clients): make room by evicting one key, never by clearing all, which let
  // a flood of new keys reset every throttled one (issue 30 item 6). Map order is recency (a take
  // moves its key to the end), so the first keys are the least recently used; of the oldest
  // EVICTION_SAMPLE, the one nearest to refilled goes (a refilled one forgets nothing), so a
  // throttled key outlives a flood of fresh ones. Not lru-cache: its eviction is by recency alone.
  const evictOne = () => {
    let victim: string | undefined;
    let least = Infinity;
    let seen = 0;
    for (const [key, at] of fullAt) {
      if (at < least) [victim, least] = [key, at];
      if (++seen >= EVICTION_SAMPLE) break;
    }
    if (victim !== undefined) fullAt.delete(victim);
  };

  return {
    async take(key): Promise<RateDecision> {
      const now = clock.now();
      const next = Math.max(fullAt.get(key) ?? now, now) + interval;
      const over = next - now - window;
      if (over > 0) return { allowed: false, retryAfterMs: Math.ceil(over) };
      if (!fullAt.delete(key) && fullAt.size >= maxKeys) evictOne();
      fullAt.set(key, next);
      return { allowed: true };
    },
    async close() {
      fullAt.clear();
    },
  };
}
