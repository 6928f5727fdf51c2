import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from '../../test/helpers/embedded-storage.ts';
import { createManualClock } from '../ports/clock.ts';
import type { QueuedJob } from '../ports/queue.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { silentLogger } from '../ports/logger.ts';
import { wrapJobHandler } from './run-worker.ts';

describe('job worker bookkeeping', () => {
  let storage: StoragePort;
  const clock = createManualClock();
  const queued = (id: string): QueuedJob => ({ id, type: 'noop.test', payload: {}, runAt: new Date(clock.now()) });
  const deps = () => ({ storage, clock, logger: silentLogger });

  beforeAll(async () => {
    storage = await openEmbeddedStorage();
    await storage.jobs.insert(['w1', 'w2', 'w3'].map((id) => ({ id, type: 'noop.test', payload: {}, runAt: new Date(clock.now()), createdAt: new Date(clock.now()) })));
  });
  afterAll(async () => {
    await storage?.close();
  });

  it('runs a job, marks it completed, and skips a second delivery', async () => {
    let runs = 0;
    const h = wrapJobHandler('noop.test', async () => void (runs += 1), deps());
    await h(queued('w1'));
    expect((await storage.jobs.get('w1'))?.completedAt).toEqual(new Date(clock.now()));
    await h(queued('w1'));
    expect(runs).toBe(1);
  });

  it('records a failure and rethrows it so the queue retries', async () => {
    const h = wrapJobHandler(
      'noop.test',
      async () => {
        throw new Error('chain RPC timed out');
      },
      deps(),
    );
    await expect(h(queued('w2'))).rejects.toThrow('chain RPC timed out');
    const rec = await storage.jobs.get('w2');
    expect(rec).toMatchObject({ attempts: 1, completedAt: null });
    expect(rec?.lastError).toContain('chain RPC timed out');
  });

  it('passes a retryAt through and leaves the job unfinished', async () => {
    const retryAt = new Date(clock.now() + 5000);
    const h = wrapJobHandler('noop.test', async () => ({ retryAt }), deps());
    expect(await h(queued('w3'))).toEqual({ retryAt });
    expect((await storage.jobs.get('w3'))?.completedAt).toBeNull();
  });
});
