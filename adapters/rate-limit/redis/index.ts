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
// own clock so processes with drifting clocks still share one bucket.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local full_at = tonumber(redis.call('GET', KEYS[1]) or now)
if full_at < now then full_at = now end
local next_at = full_at + interval
local over = next_at - now - window
if over > 0 then return math.ceil(over) end
redis.call('SET', KEYS[1], tostring(next_at), 'PX', math.ceil(next_at - now) + 1000)
return 0`;

/**
 * Counts shared by every API process on one Redis, so the limit holds however many processes
 * serve behind the load balancer. When Redis does not answer, requests are let through (and
 * `onError` hears of it): the limiter protects the service, it must not take payments down with it.
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
  const gcraTake = (redis as unknown as { gcraTake(key: string, interval: string, window: string): Promise<number> }).gcraTake.bind(redis);
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
  return {
    async take(key): Promise<RateDecision> {
      try {
        const over = Number(await gcraTake(`${prefix}:${key}`, interval, window));
        return over > 0 ? { allowed: false, retryAfterMs: over } : { allowed: true };
      } catch (err) {
        opts.onError?.(err);
        return { allowed: true };
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
