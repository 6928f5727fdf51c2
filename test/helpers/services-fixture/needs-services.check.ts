// Run only by services.test.ts, in a vitest of its own, with the services pointed at closed ports.
import { describe, expect, it } from 'vitest';
import { postgresAvailable, redisAvailable } from '../services.ts';

const pg = await postgresAvailable();
const redis = await redisAvailable();

describe.runIf(pg)('a suite on PostgreSQL', () => {
  it('runs only when PostgreSQL answers', () => expect(pg).toBe(true));
});

if (redis) it('a test on Redis', () => expect(redis).toBe(true));

it('a test that needs neither', () => expect(1).toBe(1));
