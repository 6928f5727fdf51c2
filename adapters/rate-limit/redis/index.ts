import { Redis } from 'ioredis';
import { validateRateLimit, type RateDecision, type RateLimit, type RateLimiter } from '../../../server/ports/rate-limiter.ts';

export interface RedisRateLimiterOptions {
  /** redis:// or rediss:// */
  redisUrl: string;
  /** Key prefix, default `ratelimit`; API processes that share limits must agree on it. */
  prefix?: string;
  /** How long to wait for the first connection before serving anyway (default 5 s). */
  connectTimeoutMs?: number;
  /** Told when Redis cannot answer and a request is let through. */
  onError?: (err: unknown) => void;
}

// GCRA in one script, so a check and its update are atomic across processes, timed by Redis's
// own clock so processes with drifting clocks still share one bucket. It decides ARGV[3] requests
// of one key in arrival order, exactly as that many single checks in a row would: the first ones
// that fit pass (each moving the bucket on by one interval), the rest are refused with the wait
// until the next may pass (a refusal does not move the bucket). Answers {passed, wait in ms}.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local full_at = tonumber(redis.call('GET', KEYS[1]) or now)
if full_at < now then full_at = now end
local passed = 0
while passed < n and full_at + interval - now - window <= 0 do
  full_at = full_at + interval
  passed = passed + 1
end
if passed > 0 then redis.call('SET', KEYS[1], tostring(full_at), 'PX', math.ceil(full_at - now) + 1000) end
if passed == n then return {passed, 0} end
return {passed, math.ceil(full_at + interval - now - window)}`;

/** Requests of one key decided in one call at most: a bound on the script's loop and the batch's wait. */
const MAX_BATCH = 256;

/**
 * Counts shared by every API process on one Redis, so the limit holds however many processes
 * serve behind the load balancer. When Redis does not answer, requests are let through (and
 * `onError` hears of it): the limiter protects the service, it must not take payments down with it.
 *
 * One call in flight per key: takes of a key that arrive while its call is out wait for it and
 * then go together in the next call, decided in arrival order as single checks would be (the
 * script above). A busy client's requests then cost a Redis round trip per batch instead of one
 * each (the round trip was 13–17 % of the API's CPU per create and status request, measured with
 * `npm run bench -- profile`); a quiet client's take is sent at once, as before.
 */
export async function createRedisRateLimiter(limit: RateLimit, opts: RedisRateLimiterOptions): Promise<RateLimiter> {
  validateRateLimit(limit);
  if (!/^rediss?:\/\/\S+$/.test(opts.redisUrl)) throw new Error('redis rate limiter: redisUrl must start with redis:// or rediss://');
  const prefix = opts.prefix ?? 'ratelimit';
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(prefix)) throw new Error('redis rate limiter: prefix must be 1-100 of A-Z a-z 0-9 _ . -');
  // No offline queue and one try: while Redis is away a check fails at once instead of waiting.
  const redis = new Redis(opts.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectionName: 'rate-limiter' });
  redis.on('error', () => {}); // reconnects by itself; each failed check reports through onError
  redis.defineCommand('gcraTake', { numberOfKeys: 1, lua: TAKE }); // EVALSHA: the script is sent once
  const gcraTake = (redis as unknown as { gcraTake(key: string, interval: string, window: string, n: number): Promise<[number, number]> }).gcraTake.bind(redis);
  // Checks made before the connection is up would be let through; wait for it a little, but a
  // Redis that is down must not stop the API from starting.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, opts.connectTimeoutMs ?? 5_000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const interval = String(1000 / limit.perSecond);
  const window = String((1000 / limit.perSecond) * limit.burst);
  type Waiter = (decision: RateDecision) => void;
  // Per key: the takes waiting for the next call; a key is present while its call is out.
  const waiting = new Map<string, Waiter[]>();
  const send = (key: string, batch: Waiter[]) => {
    gcraTake(`${prefix}:${key}`, interval, window, batch.length)
      .then(
        ([passed, over]) => batch.forEach((decide, i) => decide(i < passed ? { allowed: true } : { allowed: false, retryAfterMs: Number(over) })),
        (err: unknown) => {
          opts.onError?.(err);
          for (const decide of batch) decide({ allowed: true });
        },
      )
      .finally(() => {
        const next = waiting.get(key)!;
        if (next.length === 0) return void waiting.delete(key);
        waiting.set(key, next.slice(MAX_BATCH));
        send(key, next.slice(0, MAX_BATCH));
      });
  };
  return {
    take(key): Promise<RateDecision> {
      return new Promise((decide) => {
        const queued = waiting.get(key);
        if (queued) return void queued.push(decide);
        waiting.set(key, []);
        send(key, [decide]);
      });
    },
    async close() {
      redis.disconnect();
    },
  };
}
