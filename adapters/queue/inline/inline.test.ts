import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../server/ports/logger.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { runQueueConformance } from '../conformance/queue-conformance.ts';
import { createInlineQueue } from './index.ts';

const inline = async (o?: { pools?: string[] }) => createInlineQueue({ retry: { baseMs: 50, maxMs: 200 }, ...(o?.pools ? { pools: o.pools } : {}) });
runQueueConformance('inline', inline, { durable: false, reopen: inline });

describe('inline queue specifics', () => {
  it('validates its options when built', () => {
    expect(() => createInlineQueue({ retry: { maxAttempts: 0 } })).toThrow(/retry.maxAttempts/);
    expect(() => createInlineQueue({ retry: { baseMs: 100, maxMs: 10 } })).toThrow(/retry.maxMs/);
  });

  it('gives up after maxAttempts and logs it, and refuses work once closed', async () => {
    const errors: string[] = [];
    const logger = {
      ...silentLogger,
      error: (_o: object, msg: string) => void errors.push(msg),
    };
    const q = createInlineQueue({
      logger,
      retry: { maxAttempts: 3, baseMs: 10, maxMs: 20 },
    });
    let calls = 0;
    await q.startWorker({
      'bad.test': async () => {
        calls += 1;
        throw new Error('always');
      },
    });
    await q.enqueue({
      id: 'bad1',
      type: 'bad.test',
      payload: {},
      runAt: new Date(),
    });
    await waitFor('the last attempt to be logged', () => errors.length === 1);
    expect(calls).toBe(3);
    await q.close();
    await expect(
      q.enqueue({
        id: 'late',
        type: 'bad.test',
        payload: {},
        runAt: new Date(),
      }),
    ).rejects.toThrow(/closed/);
  });
});
