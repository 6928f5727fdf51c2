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
