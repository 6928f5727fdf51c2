import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../adapters/storage/postgres/index.ts';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { createRedisRateLimiter } from '../adapters/rate-limit/redis/index.ts';
import { createKey } from '../server/auth/provisioning.ts';
import { createKeyCache, type KeyLookup } from '../server/http/key-cache.ts';
import { createManualClock, systemClock } from '../server/ports/clock.ts';
import type { RateLimiter } from '../server/ports/rate-limiter.ts';
import type { StoragePort } from '../server/ports/storage/index.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { dropSchema, postgresAvailable, postgresUrl, redisAvailable, redisUrl, uniqueSchema } from './helpers/services.ts';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';

/**
 * Guessing keys from one address used to cost a database read per guess and was never
 * throttled (600 random keys: 600 × 401). Requests without a proven key now count per client
 * address before their lookup; keys already proven are not slowed; a revoked key stops working
 * in every process within a second; the key cache is a bounded LRU.
 */
const randomKey = () => `sk_test_${randomBytes(24).toString('base64url')}`;

/** Counts the key reads that reach storage. */
function countLookups(storage: StoragePort): { count: number; of(hash?: string): number } {
  const real = storage.apiKeys.findActiveByHash.bind(storage.apiKeys);
  const seen: string[] = [];
  storage.apiKeys.findActiveByHash = (hash: string) => {
    seen.push(hash);
    return real(hash);
  };
  return {
    get count() {
      return seen.length;
    },
    of: (hash) => seen.filter((h) => h === hash).length,
  };
}

async function inBatches<T>(n: number, size: number, f: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += size) out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, j) => f(i + j)))));
  return out;
}

const redisUp = await redisAvailable();
const limiters: Array<{ name: string; open: (clock: { now(): number }) => Promise<RateLimiter> }> = [
  // A refill so slow that it never matters within a test: only the burst counts.
  { name: 'in-process', open: async (clock) => createMemoryRateLimiter({ perSecond: 0.001, burst: 20 }, clock) },
  ...(redisUp ? [{ name: 'redis', open: () => createRedisRateLimiter({ perSecond: 0.001, burst: 20 }, { redisUrl, prefix: `unauth-test-${process.pid}-${Date.now()}` }) }] : []),
];

describe.each(limiters)('an unauthenticated flood from one address ($name limiter)', (limiterKind) => {
  let t: TestApp;
  let limiter: RateLimiter;
  let lookups: ReturnType<typeof countLookups>;
  beforeAll(async () => {
    const storage = await openEmbeddedStorage();
    lookups = countLookups(storage);
    limiter = await limiterKind.open({ now: () => t.clock.now() });
    t = await startTestApp(storage, { unauthenticatedLimiter: limiter });
  });
  afterAll(async () => {
    await t?.close();
    await limiter?.close();
    await t?.storage.close();
  });

  it('gets 429 rate_limited with Retry-After past the bound, and costs no lookup beyond it; proven keys are not slowed', async () => {
    // The partner's key is proven before the flood. Its first read was a stranger's until then,
    // so it took one of the address's 20.
    expect((await t.call('GET', '/v1/merchants', { key: t.a.key })).status).toBe(200);
    const before = lookups.count;
    const answers = await inBatches(600, 50, () => t.call('GET', '/v1/merchants', { key: randomKey() }));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(19);
    expect(statuses.filter((s) => s === 429)).toHaveLength(581);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.body).toMatchObject({ code: 'rate_limited', message: expect.any(String), details: { retryAfterS: expect.any(Number) } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(lookups.count - before).toBe(19);
    // Missing and malformed keys count too, and are refused the same way now.
    expect((await t.call('GET', '/v1/merchants')).status).toBe(429);
    expect((await t.call('GET', '/v1/merchants', { key: 'not-a-key' })).status).toBe(429);
    // The proven key goes on at full speed from the same address, within and after its trust window.
    for (let i = 0; i < 20; i++) expect((await t.call('GET', '/v1/merchants', { key: t.a.key })).status).toBe(200);
    t.clock.advance(5_000);
    expect((await t.call('GET', '/v1/merchants', { key: t.a.key })).status).toBe(200);
  });
});

describe('revocation reaches every process within a second', async () => {
  // Another process is another storage connection on the same database: the key tool's revoke
  // goes through it, and this process's cache hears nothing of it.
  const pg = await postgresAvailable();
  it.runIf(pg)('a key revoked through another connection is refused within ~1 s, on the real clock', async () => {
    const schema = uniqueSchema('revoke');
    const server = await createPostgresStorage({ url: postgresUrl, schema });
    const tool = await createPostgresStorage({ url: postgresUrl, schema });
    const t = await startTestApp(server, { clock: systemClock });
    try {
      const extra = await createKey(tool, { partnerId: t.a.id, scope: 'partner', live: false });
      expect((await t.call('GET', '/v1/merchants', { key: extra.apiKey })).status).toBe(200);
      expect(await tool.apiKeys.revoke(extra.record.id, new Date())).toBe(true);
      const revokedAt = Date.now();
      let refusedAfter = -1;
      while (Date.now() - revokedAt < 3_000) {
        const r = await t.call('GET', '/v1/merchants', { key: extra.apiKey });
        if (r.status === 401) {
          expect(r.body.code).toBe('invalid_api_key');
          refusedAfter = Date.now() - revokedAt;
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(refusedAfter).toBeGreaterThanOrEqual(0);
      expect(refusedAfter).toBeLessThanOrEqual(1_200);
    } finally {
      await t.close();
      await server.close();
      await tool.close();
      await dropSchema(schema);
    }
  });

  it('on the app clock: trusted for 1 s, then read again and refused', async () => {
    const storage = await openEmbeddedStorage();
    const t = await startTestApp(storage);
    try {
      const extra = await createKey(storage, { partnerId: t.a.id, scope: 'partner', live: false });
      expect((await t.call('GET', '/v1/merchants', { key: extra.apiKey })).status).toBe(200);
      await storage.apiKeys.revoke(extra.record.id, new Date());
      t.clock.advance(999);
      expect((await t.call('GET', '/v1/merchants', { key: extra.apiKey })).status).toBe(200);
      t.clock.advance(1);
      expect((await t.call('GET', '/v1/merchants', { key: extra.apiKey })).status).toBe(401);
    } finally {
      await t.close();
      await storage.close();
    }
  });

  it('keeps the hot path cheap: one read per key per second however many requests', async () => {
    const storage = await openEmbeddedStorage();
    const lookups = countLookups(storage);
    const t = await startTestApp(storage, { clock: systemClock });
    try {
      const key = (await createKey(storage, { partnerId: t.a.id, scope: 'partner', live: false })).apiKey;
      const { hashApiKey } = await import('../server/auth/keys.ts');
      const started = Date.now();
      let served = 0;
      while (Date.now() - started < 2_100) {
        const rs = await Promise.all(Array.from({ length: 20 }, () => t.call('GET', '/v1/merchants', { key })));
        served += rs.filter((r) => r.status === 200).length;
      }
      const seconds = (Date.now() - started) / 1000;
      expect(served).toBeGreaterThan(100);
      // One read per started second (concurrent requests share a read), never one per request.
      expect(lookups.of(hashApiKey(key))).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    } finally {
      await t.close();
      await storage.close();
    }
  });
});

describe('the key cache', () => {
  const found = (id: string) => ({ key: { id }, partner: { id: 'ptnr_x' } }) as unknown as KeyLookup;

  it('is a bounded LRU of valid keys only: misses are not kept, the least recently used goes first', async () => {
    const clock = createManualClock(0);
    const reads: string[] = [];
    const cache = createKeyCache({ clock, maxKeys: 3, load: async (h) => (reads.push(h), h.startsWith('ok') ? found(h) : null) });
    for (const h of ['ok1', 'ok2', 'ok3']) await cache.load(h);
    for (let i = 0; i < 1000; i++) await cache.load(`bad${i}`);
    expect(cache.size).toBe(3);
    expect(cache.trusted('ok1')).toBeDefined(); // ok1 is now the most recently used
    await cache.load('ok4');
    expect(cache.size).toBe(3);
    expect(cache.known('ok2')).toBe(false);
    expect(['ok1', 'ok3', 'ok4'].every((h) => cache.known(h))).toBe(true);
  });

  it('trusts a lookup for trustMs, then only remembers it; concurrent reads of one key are one read', async () => {
    const clock = createManualClock(0);
    let reads = 0;
    let valid = true;
    const cache = createKeyCache({ clock, trustMs: 1_000, load: async (h) => (reads++, await new Promise((r) => setTimeout(r, 5)), valid ? found(h) : null) });
    await Promise.all(Array.from({ length: 50 }, () => cache.load('ok')));
    expect(reads).toBe(1);
    clock.advance(999);
    expect(cache.trusted('ok')).toBeDefined();
    clock.advance(1);
    expect(cache.trusted('ok')).toBeUndefined();
    expect(cache.known('ok')).toBe(true);
    valid = false;
    expect(await cache.load('ok')).toBeNull();
    expect(cache.known('ok')).toBe(false);
  });
});
