import { Redis } from 'ioredis';
import { validateRateLimit, type RateLimit, type RateLimiter } from '../../../server/ports/rate-limiter.ts';
import { createLeases } from './lease.ts';

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
// until the next may pass (a refusal does not move the bucket). When all passed it reserves up to
// ARGV[4] more passes for this process (lease.ts), each moving the bucket on like a pass, while
// the bucket stays at least half full. Answers {passed, wait in ms, reserved}.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local extra = tonumber(ARGV[4])
local full_at = tonumber(redis.call('GET', KEYS[1]) or now)
if full_at < now then full_at = now end
local passed = 0
while passed < n and full_at + interval - now - window <= 0 do
  full_at = full_at + interval
  passed = passed + 1
end
local reserved = 0
if passed == n then
  while reserved < extra and full_at + interval - now - window / 2 <= 0 do
    full_at = full_at + interval
    reserved = reserved + 1
  end
end
if passed + reserved > 0 then redis.call('SET', KEYS[1], tostring(full_at), 'PX', math.ceil(full_at - now) + 1000) end
if passed == n then return {passed, 0, reserved} end
return {passed, math.ceil(full_at + interval - now - window), 0}`;

// Gives ARGV[2] reserved passes back: the bucket moves back as if they had never been taken (a
// bucket that has filled up meanwhile stays full).
const GIVE_BACK = `
local f = redis.call('GET', KEYS[1])
if not f then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local full_at = tonumber(f) - tonumber(ARGV[1]) * tonumber(ARGV[2])
if full_at <= now then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], tostring(full_at), 'PX', math.ceil(full_at - now) + 1000) end
return 1`;

/**
 * Counts shared by every API process on one Redis, so the limit holds however many processes
 * serve behind the load balancer. When Redis does not answer, requests are let through (and
 * `onError` hears of it): the limiter protects the service, it must not take payments down with it.
 *
 * One call in flight per key: takes of a key that arrive while its call is out wait for it and
 * then go together in the next call, decided in arrival order as single checks would be (the
 * script above). A busy key also reserves a lease of passes ahead (lease.ts: its bound on how
 * early a client may be refused, and why it is never let through more than its limit), so its
 * requests cost a Redis round trip per lease, not one per batch: the round trip was 14–17 % of
 * the API's CPU per create and status request with batching alone (`npm run bench -- profile`).
 * A quiet client's take is sent at once, as before.
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
  redis.defineCommand('gcraGiveBack', { numberOfKeys: 1, lua: GIVE_BACK });
  // Checks made before the connection is up would be let through; wait for it a little, but a
  // Redis that is down must not stop the API from starting.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, opts.connectTimeoutMs ?? 5_000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const scripts = redis as unknown as {
    gcraTake(key: string, interval: string, window: string, n: number, extra: number): Promise<[number, number, number]>;
    gcraGiveBack(key: string, interval: string, k: number): Promise<number>;
  };
  const interval = String(1000 / limit.perSecond);
  const window = String((1000 / limit.perSecond) * limit.burst);
  const leases = createLeases(
    limit,
    async (key, n, extra) => {
      const [passed, waitMs, reserved] = await scripts.gcraTake(`${prefix}:${key}`, interval, window, n, extra);
      return { passed: Number(passed), waitMs: Number(waitMs), reserved: Number(reserved) };
    },
    async (key, k) => void (await scripts.gcraGiveBack(`${prefix}:${key}`, interval, k)),
    (err) => opts.onError?.(err),
  );
  return {
    take: (key) => leases.take(key),
    async close() {
      await leases.close();
      redis.disconnect();
    },
  };
}
