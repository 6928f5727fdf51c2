import { afterAll, describe, expect, it } from 'vitest';
import { redisAvailable, redisUrl } from '../../../test/helpers/services.ts';
import { runQueueConformance } from '../conformance/queue-conformance.ts';
import { createBullmqQueue } from './index.ts';
import { deleteKeysWithPrefix } from '../../../test/helpers/redis-cleanup.ts';

const prefix = `t_${process.pid}_${Date.now().toString(36)}`;
let n = 0;

describe('bullmq queue options', () => {
  it('validates its options when built, before touching Redis', () => {
    expect(() => createBullmqQueue({ redisUrl: 'http://localhost:6379' })).toThrow(/redisUrl/);
    expect(() => createBullmqQueue({ redisUrl, queueName: 'a:b' })).toThrow(/queueName/);
    expect(() => createBullmqQueue({ redisUrl, prefix: '' })).toThrow(/prefix/);
    expect(() => createBullmqQueue({ redisUrl, retry: { maxAttempts: 0 } })).toThrow(/maxAttempts/);
    expect(() => createBullmqQueue({ redisUrl, lockMs: 999 })).toThrow(/lockMs/);
    expect(() => createBullmqQueue({ redisUrl, lockMs: 1500.5 })).toThrow(/lockMs/);
    expect(() => createBullmqQueue({ redisUrl, pools: ['settle:eip155:1'] })).toThrow(/pool/);
  });
});

if (await redisAvailable()) {
  const open = (queueName: string, pools?: string[]) =>
    createBullmqQueue({ redisUrl, prefix, queueName, retry: { baseMs: 50, maxMs: 200 }, memoryCheckMs: 50, ...(pools ? { pools } : {}) });
  runQueueConformance('bullmq', async (o) => open(`q${++n}`, o?.pools), {
    durable: true,
    reopen: async (o) => open(`q${n}`, o?.pools),
    forget: async () => void (await deleteKeysWithPrefix(redisUrl, `${prefix}:q${n}`)),
    // Port 1: nothing listens there, so every connection attempt is refused at once.
    unreachable: async () => createBullmqQueue({ redisUrl: 'redis://127.0.0.1:1', prefix, queueName: 'unreachable' }),
  });
  afterAll(() => deleteKeysWithPrefix(redisUrl, prefix));
}
