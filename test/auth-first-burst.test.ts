import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { createRedisRateLimiter } from '../adapters/rate-limit/redis/index.ts';
import { hashApiKey } from '../server/auth/keys.ts';
import { loadConfig } from '../server/config.ts';
import type { RateLimit, RateLimiter } from '../server/ports/rate-limiter.ts';
import type { StoragePort } from '../server/ports/storage/index.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { redisAvailable, redisUrl } from './helpers/services.ts';

/**
 * A freshly started process has proven no key yet. A client's first burst with its valid key
 * used to count every request against the address's unauthenticated allowance (97 of 200
 * concurrent creates got 429 under the default limits); it now counts once per distinct key,
 * while a flood of distinct guessed keys is throttled as before (see also auth-flood.test.ts).
 */
const defaults = loadConfig({});
const unauthenticated = defaults.unauthenticatedRateLimit!;
const perKey = defaults.rateLimit!;
const guess = () => `sk_test_${randomBytes(24).toString('base64url')}`;

/** Counts the key reads that reach storage; each answers `slow.ms` late, as a loaded database would. */
function countLookups(storage: StoragePort, slow: { ms: number }): (hash?: string) => number {
  const real = storage.apiKeys.findActiveByHash.bind(storage.apiKeys);
  const seen: string[] = [];
  storage.apiKeys.findActiveByHash = async (hash: string) => {
    seen.push(hash);
    await new Promise((r) => setTimeout(r, slow.ms));
    return real(hash);
  };
  return (hash) => (hash === undefined ? seen.length : seen.filter((h) => h === hash).length);
}

const redisUp = await redisAvailable();
const prefix = `first-burst-${process.pid}-${Date.now()}`;
const limiters: Array<{ name: string; open: (limit: RateLimit, name: string, clock: { now(): number }) => Promise<RateLimiter> }> = [
  { name: 'in-process', open: async (limit, _name, clock) => createMemoryRateLimiter(limit, clock) },
  ...(redisUp
    ? [{ name: 'redis', open: (limit: RateLimit, name: string) => createRedisRateLimiter(limit, { redisUrl, prefix: `${prefix}-${name}-${randomBytes(4).toString('hex')}` }) }]
    : []),
];

describe.each(limiters)('a fresh process under the default limits ($name limiters)', (kind) => {
  let t: TestApp | undefined;
  const opened: RateLimiter[] = [];
  afterEach(async () => {
    await t?.close();
    await Promise.all(opened.splice(0).map((l) => l.close()));
    await t?.storage.close();
  });
  async function fresh(slow = { ms: 0 }): Promise<{ t: TestApp; lookups: ReturnType<typeof countLookups> }> {
    const storage = await openEmbeddedStorage();
    const lookups = countLookups(storage, slow);
    const clock = { now: () => app.clock.now() };
    const [unauthenticatedLimiter, rateLimiter] = [await kind.open(unauthenticated, 'unauth', clock), await kind.open(perKey, 'key', clock)];
    opened.push(unauthenticatedLimiter, rateLimiter);
    const app: TestApp = await startTestApp(storage, { unauthenticatedLimiter, rateLimiter });
    t = app;
    return { t: app, lookups };
  }

  it('answers 200 concurrent creates with one valid key, never seen by it, without a 429, and reads the key once', async () => {
    // The key's read takes a second, so the whole burst arrives while it is unproven.
    const slow = { ms: 0 };
    const { t, lookups } = await fresh(slow);
    // A partner made in storage: nothing before the burst has proven its key to this process.
    const { key } = await t.newPartner();
    slow.ms = 1000;
    const create = (i: number) =>
      t.call('POST', '/v1/merchants', { key, body: { merchantName: `Shop ${i}`, merchantEmail: 'shop@x.co' }, headers: { 'Idempotency-Key': `burst-${i}` } });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => create(i)));
    expect(answers.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
    expect(lookups(hashApiKey(key))).toBe(1);
  });

  /** Requests with distinct guessed keys at once: how many were read (401) and refused (429), and the most the allowance could have refilled meanwhile. */
  async function guesses(t: TestApp, n: number) {
    const started = Date.now();
    const statuses = (await Promise.all(Array.from({ length: n }, () => t.call('GET', '/v1/merchants', { key: guess() })))).map((a) => a.status);
    // The Redis limiter refills on the real clock (the in-process one on the app's, which stands still).
    const refill = kind.name === 'redis' ? Math.ceil(((Date.now() - started) / 1000) * unauthenticated.perSecond) : 0;
    return { read: statuses.filter((s) => s === 401).length, refused: statuses.filter((s) => s === 429).length, refill };
  }

  it('still throttles a burst of distinct guessed keys past the allowance, with one read per guess let through', async () => {
    const { t, lookups } = await fresh();
    const before = lookups();
    const { read, refused, refill } = await guesses(t, 200);
    expect(read + refused).toBe(200);
    expect(read).toBeGreaterThanOrEqual(unauthenticated.burst);
    expect(read).toBeLessThanOrEqual(unauthenticated.burst + refill);
    expect(lookups() - before).toBe(read);
  });
});
