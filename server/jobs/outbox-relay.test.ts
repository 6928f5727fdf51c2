import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from '../../test/helpers/embedded-storage.ts';
import { waitFor } from '../../test/helpers/wait-for.ts';
import { createManualClock } from '../ports/clock.ts';
import type { QueuedJob, QueuePort } from '../ports/queue.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { silentLogger } from '../ports/logger.ts';
import { createOutboxRelay } from './outbox-relay.ts';

/** A queue that records enqueues and can be told to fail them. */
function recordingQueue() {
  const enqueued: QueuedJob[] = [];
  const calls: number[] = [];
  let failNext = 0;
  const queue: QueuePort = {
    durable: true,
    async enqueue(job) {
      return queue.enqueueMany([job]);
    },
    async enqueueMany(jobs) {
      if (failNext > 0) {
        failNext -= 1;
        throw new Error('redis is down');
      }
      calls.push(jobs.length);
      enqueued.push(...jobs);
    },
    async startWorker() {},
    onMemoryLost() {},
    async ping() {},
    async close() {},
  };
  return { queue, enqueued, calls, failNextEnqueues: (n: number) => void (failNext = n) };
}

describe('outbox relay', () => {
  let storage: StoragePort;
  const clock = createManualClock();
  const now = () => new Date(clock.now());
  const write = (ids: string[]) => storage.jobs.insert(ids.map((id, i) => ({ id, type: 'noop.test', payload: { id }, runAt: now(), createdAt: new Date(clock.now() + i) })));

  beforeAll(async () => {
    storage = await openEmbeddedStorage();
  });
  afterAll(async () => {
    await storage?.close();
  });

  it('relays every unrelayed job in batches, oldest first, and marks them relayed', async () => {
    const { queue, enqueued, calls } = recordingQueue();
    const relay = createOutboxRelay({ storage, queue, clock, logger: silentLogger, batch: 2 });
    await write(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(await relay.runOnce()).toBe(5);
    expect(enqueued.map((j) => j.id)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    // Each claim handed over at once: not a round trip per job.
    expect(calls).toEqual([2, 2, 1]);
    expect(enqueued[0]).toMatchObject({ type: 'noop.test', payload: { id: 'a1' } });
    expect((await storage.jobs.get('a5'))?.relayedAt).toEqual(now());
    expect(await relay.runOnce()).toBe(0);
  });

  it('leaves a job whose enqueue failed for a later pass, after its claim lapses', async () => {
    const { queue, enqueued, failNextEnqueues } = recordingQueue();
    const relay = createOutboxRelay({ storage, queue, clock, logger: silentLogger });
    await write(['b1', 'b2']);
    failNextEnqueues(1);
    expect(await relay.runOnce()).toBe(0);
    expect((await storage.jobs.get('b1'))?.relayedAt).toBeNull();
    expect(await relay.runOnce()).toBe(0); // still claimed by the failed pass
    clock.advance(31_000);
    expect(await relay.runOnce()).toBe(2);
    expect(enqueued.map((j) => j.id)).toEqual(['b1', 'b2']);
  });

  it('relays at once when notified instead of waiting for the interval', async () => {
    const { queue, enqueued } = recordingQueue();
    const relay = createOutboxRelay({ storage, queue, clock, logger: silentLogger, intervalMs: 600_000 });
    relay.start();
    try {
      await waitFor('the first pass', async () => (await relay.runOnce()) === 0);
      await write(['c1']);
      relay.notify();
      await waitFor('the notified job to be enqueued', () => enqueued.some((j) => j.id === 'c1'), 5_000);
    } finally {
      await relay.stop();
    }
    await write(['c2']);
    relay.notify();
    expect(await relay.runOnce()).toBe(1); // runOnce still works by hand; notify after stop does nothing
  });

  it('queues each job in the pool its type and payload name', async () => {
    const { queue, enqueued } = recordingQueue();
    const poolOf = (type: string, payload: Record<string, unknown>) => (type === 'noop.test' && payload.id === 'p1' ? 'settle.eip155-1' : 'default');
    const relay = createOutboxRelay({ storage, queue, clock, logger: silentLogger, poolOf });
    await write(['p1', 'p2']);
    expect(await relay.runOnce()).toBe(2);
    expect(enqueued.map((j) => [j.id, j.pool])).toEqual([
      ['p1', 'settle.eip155-1'],
      ['p2', 'default'],
    ]);
  });

  it('validates its options', () => {
    const { queue } = recordingQueue();
    expect(() => createOutboxRelay({ storage, queue, clock, logger: silentLogger, batch: 0 })).toThrow(/batch/);
    expect(() => createOutboxRelay({ storage, queue, clock, logger: silentLogger, intervalMs: 1 })).toThrow(/intervalMs/);
  });
});

describe('outbox relay against a queue that never answers', () => {
  it('gives up on the enqueue after enqueueTimeoutMs and keeps the job in the outbox', async () => {
    const storage = await openEmbeddedStorage();
    try {
      const clock = createManualClock();
      await storage.jobs.insert([{ id: 'h1', type: 'noop.test', payload: {}, runAt: new Date(clock.now()), createdAt: new Date(clock.now()) }]);
      const hung: QueuePort = {
        durable: true,
        enqueue: () => new Promise<void>(() => {}),
        enqueueMany: () => new Promise<void>(() => {}),
        startWorker: async () => {},
        onMemoryLost: () => {},
        ping: async () => {},
        close: async () => {},
      };
      const relay = createOutboxRelay({ storage, queue: hung, clock, logger: silentLogger, enqueueTimeoutMs: 200 });
      expect(await relay.runOnce()).toBe(0);
      expect((await storage.jobs.get('h1'))?.relayedAt).toBeNull();
    } finally {
      await storage.close();
    }
  });
});
