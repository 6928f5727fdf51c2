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

  /** Counts the scripts Redis runs on one key (MONITOR sees every client's commands): takes and give-backs apart. */
  const countCalls = async (key: string) => {
    const monitor = await new Redis(redisUrl).monitor();
    const calls = { takes: 0, giveBacks: 0 };
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (!/^eval/i.test(args[0] ?? '') || !args.includes(key)) return;
      // EVALSHA sha 1 key ARGV…: a give-back sends two arguments, a take more.
      if (args.length === 6) calls.giveBacks++;
      else calls.takes++;
    });
    return { calls, stop: () => monitor.disconnect() };
  };
  const freshKey = () => `busy${Math.random().toString(36).slice(2)}`;

  describe('redis rate limiter round trips', () => {
    it("decides a busy key's takes in one call per batch, not one call each", async () => {
      const key = freshKey();
      const { calls, stop } = await countCalls(`${prefix}:${key}`);
      const l = await createRedisRateLimiter({ perSecond: 1000, burst: 1000 }, { redisUrl, prefix });
      try {
        const decisions = await Promise.all(Array.from({ length: 64 }, () => l.take(key)));
        expect(decisions.every((d) => d.allowed)).toBe(true);
        // Commands reach the monitor shortly after they ran.
        await new Promise((r) => setTimeout(r, 200));
        // The first take goes alone; the 63 made meanwhile go together (before: 64 calls).
        expect(calls.takes).toBeGreaterThanOrEqual(1);
        expect(calls.takes).toBeLessThanOrEqual(2);
        // A quiet key's take is sent at once, alone (or comes from a lease the burst left).
        expect(await l.take(key)).toEqual({ allowed: true });
        await new Promise((r) => setTimeout(r, 200));
        expect(calls.takes).toBeLessThanOrEqual(3);
      } finally {
        await l.close();
        stop();
      }
    });

    it('serves a busy key from leases: a Redis call per lease, not per batch of requests', async () => {
      const key = freshKey();
      const { calls, stop } = await countCalls(`${prefix}:${key}`);
      const l = await createRedisRateLimiter({ perSecond: 100_000, burst: 100_000 }, { redisUrl, prefix });
      try {
        // 16 clients' connections, each sending its next request when the last was decided, as
        // the API bench's: 3,200 takes in 200 waves.
        for (let wave = 0; wave < 200; wave++) {
          const decisions = await Promise.all(Array.from({ length: 16 }, () => l.take(key)));
          expect(decisions.every((d) => d.allowed)).toBe(true);
        }
        await new Promise((r) => setTimeout(r, 200));
        // Batching alone: two calls per wave (the first take alone, the 15 behind it together), 400.
        expect(calls.takes).toBeLessThan(40);
      } finally {
        await l.close();
        stop();
      }
    });

    it('reserves nothing for a quiet key: one call per take, nothing to give back', async () => {
      const key = freshKey();
      const { calls, stop } = await countCalls(`${prefix}:${key}`);
      const l = await createRedisRateLimiter({ perSecond: 1000, burst: 1000 }, { redisUrl, prefix });
      try {
        // One request, then quiet for longer than a lease is held, three times.
        for (let i = 0; i < 3; i++) {
          expect(await l.take(key)).toEqual({ allowed: true });
          await new Promise((r) => setTimeout(r, 250));
        }
        expect(calls).toEqual({ takes: 3, giveBacks: 0 });
      } finally {
        await l.close();
        stop();
      }
    });
  });

  describe('redis rate limiter leases shared between processes', () => {
    // A rate too slow to refill during the test: every pass is one of the burst's.
    const slow = { perSecond: 0.001, burst: 1600 };
    const drive = async (l: { take(k: string): Promise<{ allowed: boolean }> }, key: string, waves: number) => {
      let allowed = 0;
      for (let wave = 0; wave < waves; wave++) for (const d of await Promise.all(Array.from({ length: 16 }, () => l.take(key)))) if (d.allowed) allowed++;
      return allowed;
    };

    it('never lets a client through more than its limit across two processes, and gives unused leases back', async () => {
      const key = freshKey();
      // Two limiters on their own Redis connections stand for two API processes.
      const [a, b, c] = [
        await createRedisRateLimiter(slow, { redisUrl, prefix }),
        await createRedisRateLimiter(slow, { redisUrl, prefix }),
        await createRedisRateLimiter(slow, { redisUrl, prefix }),
      ];
      try {
        const [byA, byB] = await Promise.all([drive(a, key, 70), drive(b, key, 70)]);
        // 2,240 takes against a burst of 1,600: never more than the burst pass, and at most a
        // lease per process (1,600 / 16 = 100) is held back unused when the refusals start.
        expect(byA + byB).toBeLessThanOrEqual(1600);
        expect(byA + byB).toBeGreaterThanOrEqual(1600 - 2 * 100);
        // Unused leases go back to the shared bucket after HOLD_MS (100 ms): a third process then
        // gets exactly what the first two left, so nothing of the burst was lost.
        await new Promise((r) => setTimeout(r, 400));
        const byC = await drive(c, key, 20);
        expect(byA + byB + byC).toBe(1600);
      } finally {
        for (const l of [a, b, c]) await l.close();
      }
    });

    it('gives its leases back when closed', async () => {
      const key = freshKey();
      const [a, b] = [await createRedisRateLimiter(slow, { redisUrl, prefix }), await createRedisRateLimiter(slow, { redisUrl, prefix })];
      try {
        const byA = await drive(a, key, 10);
        await a.close();
        const byB = await drive(b, key, 110);
        expect(byA + byB).toBe(1600);
      } finally {
        await b.close();
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
