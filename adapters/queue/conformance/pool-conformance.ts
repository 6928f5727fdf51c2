import { expect, it } from 'vitest';
import type { QueuePort } from '../../../server/ports/queue.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { job, recorder, type QueueFactory } from './queue-fixtures.ts';

/** A handler that holds every job until `release()`, counting starts and ends. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((res) => (open = res));
  const g = {
    started: 0,
    finished: 0,
    handler: async () => {
      g.started += 1;
      await opened;
      g.finished += 1;
    },
    release: () => open(),
  };
  return g;
}

/**
 * Pools (`QueuedJob.pool`): each on slots of its own, so a pool whose slots are all held holds up
 * no other; a job naming an unknown pool runs in the default one; many enqueued at once, each in
 * its pool. Called by `runQueueConformance` inside its describe block, with its `make` (closed
 * after each case) and the adapter's factory.
 */
export function definePoolCases(make: (o?: { pools?: string[] }) => Promise<QueuePort>, factory: QueueFactory): void {
  it('runs each pool on slots of its own: a pool whose slots are all held holds up no other pool', async () => {
    const q = await make({ pools: ['slow', 'fast'] });
    const held = gate();
    const r = recorder();
    let polls = 0;
    await q.startWorker(
      {
        'held.test': held.handler,
        'quick.test': r.handler,
        'poll.test': async (j) => {
          polls += 1;
          if (polls === 1) return { retryAt: new Date(Date.now() + 200) };
          return r.handler(j);
        },
      },
      { concurrency: 1, pools: { slow: 1, fast: 2 } },
    );
    await q.enqueue(job('held.test', {}, new Date(), 'slow'));
    await q.enqueue(job('held.test', {}, new Date(), 'slow'));
    await waitFor('the slow pool to be full', () => held.started === 1);
    const fast = job('quick.test', {}, new Date(), 'fast');
    const again = job('poll.test', {}, new Date(), 'fast');
    const plain = job('quick.test');
    for (const j of [fast, again, plain]) await q.enqueue(j);
    // Both run while the slow pool is full, and a retryAt runs again in its own pool.
    await waitFor('the fast pool and the default pool to run theirs', () => r.count(fast.id) === 1 && r.count(again.id) === 1 && r.count(plain.id) === 1);
    expect(held.started).toBe(1);
    held.release();
    await waitFor('the slow pool to run its second job', () => held.finished === 2);
  });

  it('enqueues many at once, each in its pool, a known id among them still a no-op', async () => {
    const q = await make({ pools: ['fast'] });
    const r = recorder();
    await q.startWorker({ 'a.test': r.handler }, { concurrency: 2, pools: { fast: 2 } });
    const first = job('a.test', { n: 0 });
    await q.enqueue(first);
    await waitFor('the first job', () => r.count(first.id) === 1);
    const batch = [job('a.test', { n: 1 }), job('a.test', { n: 2 }, new Date(Date.now() + 300), 'fast'), job('a.test', { n: 3 }, new Date(), 'fast')];
    await q.enqueueMany([...batch, { ...first }, { ...batch[0]! }]);
    await waitFor('the batch', () => batch.every((j) => r.count(j.id) === 1));
    await new Promise((res) => setTimeout(res, 200));
    expect(r.count(first.id)).toBe(1);
    expect(r.count(batch[0]!.id)).toBe(1);
    expect(r.runs.find((x) => x.id === batch[1]!.id)?.job.payload).toEqual({ n: 2 });
    await q.enqueueMany([]);
  });

  it('runs a job naming a pool it was not built with in the default pool', async () => {
    const q = await make({ pools: ['fast'] });
    const held = gate();
    const r = recorder();
    await q.startWorker({ 'held.test': held.handler, 'quick.test': r.handler }, { concurrency: 1, pools: { fast: 1 } });
    await q.enqueue(job('held.test'));
    await waitFor('the default pool to be full', () => held.started === 1);
    const stray = job('quick.test', {}, new Date(), 'nowhere');
    const known = job('quick.test', {}, new Date(), 'fast');
    await q.enqueue(stray);
    await q.enqueue(known);
    await waitFor('the known pool to run its job', () => r.count(known.id) === 1);
    await new Promise((res) => setTimeout(res, 200));
    expect(r.count(stray.id)).toBe(0); // behind the default pool's one held slot
    held.release();
    await waitFor('the stray job to run in the default pool', () => r.count(stray.id) === 1);
  });

  it('refuses slots for a pool it was not built with, and a malformed pool name', async () => {
    await expect(factory({ pools: ['bad name'] })).rejects.toThrow(/pool/);
    const q = await make({ pools: ['fast'] });
    await expect(q.startWorker({ 'a.test': async () => undefined }, { pools: { elsewhere: 2 } })).rejects.toThrow(/pool "elsewhere"/);
  });
}
