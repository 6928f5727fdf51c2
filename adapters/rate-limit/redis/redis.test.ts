import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisAvailable, redisUrl } from '../../../test/helpers/services.ts';
import { deleteKeysWithPrefix } from '../../../test/helpers/redis-cleanup.ts';
import { runRateLimiterConformance } from '../conformance/rate-limiter-conformance.ts';
import { createRedisRateLimiter } from './index.ts';

const prefix = `rl_${process.pid}_${Date.now().toString(36)}`;

if (await redisAvailable()) {
  // Every limiter of one scope uses the same keys, so two instances stand for two API processes.
  runRateLimiterConformance(
    'redis',
    async (limit, scope) => {
      const l = await createRedisRateLimiter(limit, { redisUrl, prefix });
      return { take: (key) => l.take(`${scope}:${key}`), close: () => l.close() };
    },
    { sharedAcrossInstances: true },
  );
  afterAll(() => deleteKeysWithPrefix(redisUrl, prefix));

  describe('redis rate limiter round trips', () => {
    it("decides a busy key's takes in one call per batch, not one call each", async () => {
      // MONITOR shows every command Redis runs (other clients' too: counted by this test's key).
      const monitor = await new Redis(redisUrl).monitor();
      const key = `${prefix}:busy${Math.random().toString(36).slice(2)}`;
      let calls = 0;
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (/^eval/i.test(args[0] ?? '') && args.includes(key)) calls++;
      });
      const l = await createRedisRateLimiter({ perSecond: 1000, burst: 1000 }, { redisUrl, prefix });
      try {
        const decisions = await Promise.all(Array.from({ length: 64 }, () => l.take(key.slice(prefix.length + 1))));
        expect(decisions.every((d) => d.allowed)).toBe(true);
        // Commands reach the monitor shortly after they ran.
        await new Promise((r) => setTimeout(r, 200));
        // The first take goes alone; the 63 made meanwhile go together (before: 64 calls).
        expect(calls).toBeGreaterThanOrEqual(1);
        expect(calls).toBeLessThanOrEqual(2);
        // A quiet key's take is sent at once, alone.
        expect(await l.take(key.slice(prefix.length + 1))).toEqual({ allowed: true });
        await new Promise((r) => setTimeout(r, 200));
        expect(calls).toBeLessThanOrEqual(3);
      } finally {
        await l.close();
        monitor.disconnect();
      }
    });
  });
}

describe('redis rate limiter without Redis', () => {
  it('lets requests through and reports why, rather than failing payments', async () => {
    const errors: unknown[] = [];
    const l = await createRedisRateLimiter({ perSecond: 1, burst: 1 }, { redisUrl: 'redis://127.0.0.1:1', connectTimeoutMs: 200, onError: (e) => errors.push(e) });
    try {
      for (let i = 0; i < 3; i++) expect(await l.take('k')).toEqual({ allowed: true });
      expect(errors).toHaveLength(3);
    } finally {
      await l.close();
    }
  });

  it('checks its options before connecting', async () => {
    await expect(createRedisRateLimiter({ perSecond: 1, burst: 1 }, { redisUrl: 'http://x' })).rejects.toThrow(/redisUrl/);
    await expect(createRedisRateLimiter({ perSecond: 1, burst: 1 }, { redisUrl, prefix: 'a:b' })).rejects.toThrow(/prefix/);
  });
});
