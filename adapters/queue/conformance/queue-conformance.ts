import { afterEach, describe, expect, it } from 'vitest';
import type { QueuePort } from '../../../server/ports/queue.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { definePoolCases } from './pool-conformance.ts';
import { job, recorder, type QueueFactory } from './queue-fixtures.ts';

export interface QueueConformanceOptions {
  /** What the adapter's `durable` must say: whether jobs survive a restart of the process. */
  durable: boolean;
  /**
   * A new queue over the store of the queue the factory made last, as a restarted process
   * would open it (for a queue without a store, simply a new one).
   */
  reopen: QueueFactory;
  /**
   * Empties the store of the queue the factory made last, as a server restarted without
   * persistence comes back; absent for a queue whose memory goes only with its process.
   */
  forget?: () => Promise<void>;
  /**
   * A queue whose store cannot be reached (a Redis port nothing listens on); absent for a queue
   * without a store. Its `ping` must reject, and soon: readiness and the doctor wait on it.
   */
  unreachable?: QueueFactory;
}

/**
 * The behaviour every QueuePort adapter must show; the outbox relay and the job worker rely on
 * exactly these properties (dedup by id, delays, retries, retryAt, concurrency, graceful close,
 * refusal once closed, pools that never wait for each other's slots, and `durable` telling the
 * truth about a restart). Every member of the
 * port is called: durable, enqueue, enqueueMany, startWorker, onMemoryLost, ping, close.
 */
export function runQueueConformance(name: string, factory: QueueFactory, opts: QueueConformanceOptions): void {
  describe(`queue conformance: ${name}`, () => {
    const open: QueuePort[] = [];
    const make = async (o?: { pools?: string[] }) => {
      const q = await factory(o);
      open.push(q);
      return q;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((q) => q.close()));
    });

    it('runs a job once, with its type and payload', async () => {
      const q = await make();
      const r = recorder();
      await q.startWorker({ 'a.test': r.handler, 'marker.test': r.handler }, { concurrency: 1 });
      const a = job('a.test', { amount: '10.5', nested: { ok: true } });
      await q.enqueue(a);
      await waitFor('the job to run', () => r.count(a.id) === 1);
      const marker = job('marker.test');
      await q.enqueue(marker);
      await waitFor('the marker job', () => r.count(marker.id) === 1);
      expect(r.count(a.id)).toBe(1);
      const seen = r.runs.find((x) => x.id === a.id)?.job;
      expect(seen?.type).toBe('a.test');
      expect(seen?.payload).toEqual({ amount: '10.5', nested: { ok: true } });
      expect(seen?.runAt.getTime()).toBe(a.runAt.getTime());
    });

    it('runs jobs enqueued before the worker started', async () => {
      const q = await make();
      const r = recorder();
      const a = job('a.test');
      await q.enqueue(a);
      await q.startWorker({ 'a.test': r.handler });
      await waitFor('the early job to run', () => r.count(a.id) === 1);
    });

    it('does not run a delayed job before its runAt', async () => {
      const q = await make();
      const r = recorder();
      await q.startWorker({ 'a.test': r.handler });
      const runAt = new Date(Date.now() + 1_200);
      const a = job('a.test', {}, runAt);
      await q.enqueue(a);
      await waitFor('the delayed job to run', () => r.count(a.id) === 1);
      expect(r.runs[0]!.at).toBeGreaterThanOrEqual(runAt.getTime() - 5);
    });

    it('treats a second enqueue of one id as a no-op, before, during and after its run', async () => {
      const q = await make();
      const r = recorder();
      let release!: () => void;
      const gate = new Promise<void>((res) => (release = res));
      let started = 0;
      await q.startWorker(
        {
          'slow.test': async (j) => {
            started += 1;
            await gate;
            await r.handler(j);
          },
          'marker.test': r.handler,
        },
        { concurrency: 4 },
      );
      const a = job('slow.test');
      await Promise.all([q.enqueue(a), q.enqueue({ ...a })]);
      await waitFor('the job to start', () => started === 1);
      await q.enqueue({ ...a });
      release();
      await waitFor('the job to finish', () => r.count(a.id) === 1);
      await q.enqueue({ ...a });
      const marker = job('marker.test', {}, new Date(Date.now() + 300));
      await q.enqueue(marker);
      await waitFor('the marker job', () => r.count(marker.id) === 1);
      expect(started).toBe(1);
      expect(r.count(a.id)).toBe(1);
    });

    it('retries a job that throws until it succeeds', async () => {
      const q = await make();
      let calls = 0;
      let done = false;
      await q.startWorker({
        'flaky.test': async () => {
          calls += 1;
          if (calls < 3) throw new Error(`transient failure ${calls}`);
          done = true;
        },
      });
      await q.enqueue(job('flaky.test'));
      await waitFor('the third attempt to succeed', () => done);
      expect(calls).toBe(3);
    });

    it('runs a job again at the retryAt its handler answers', async () => {
      const q = await make();
      const calls: number[] = [];
      let retryAt = 0;
      await q.startWorker({
        'poll.test': async () => {
          calls.push(Date.now());
          if (calls.length === 1) {
            retryAt = Date.now() + 800;
            return { retryAt: new Date(retryAt) };
          }
          return undefined;
        },
      });
      await q.enqueue(job('poll.test'));
      await waitFor('the second run', () => calls.length === 2);
      expect(calls[1]!).toBeGreaterThanOrEqual(retryAt - 5);
      await new Promise((res) => setTimeout(res, 300));
      expect(calls).toHaveLength(2);
    });

    it('never runs more handlers at once than its concurrency', async () => {
      const q = await make();
      let inFlight = 0;
      let peak = 0;
      let finished = 0;
      await q.startWorker(
        {
          'busy.test': async () => {
            inFlight += 1;
            peak = Math.max(peak, inFlight);
            await new Promise((res) => setTimeout(res, 150));
            inFlight -= 1;
            finished += 1;
          },
        },
        { concurrency: 2 },
      );
      for (let i = 0; i < 6; i++) await q.enqueue(job('busy.test', { i }));
      await waitFor('all six jobs', () => finished === 6);
      expect(peak).toBe(2);
    });

    definePoolCases(make, factory);

    it('waits in close() for handlers in flight', async () => {
      const q = await make();
      let started = false;
      let finished = false;
      await q.startWorker({
        'slow.test': async () => {
          started = true;
          await new Promise((res) => setTimeout(res, 500));
          finished = true;
        },
      });
      await q.enqueue(job('slow.test'));
      await waitFor('the job to start', () => started);
      await q.close();
      expect(finished).toBe(true);
    });

    it('answers ping while open, and refuses it once closed', async () => {
      const q = await factory();
      await q.ping();
      await q.close();
      await expect(q.ping()).rejects.toThrow(/closed/);
    });

    const unreachable = opts.unreachable;
    if (unreachable) {
      it('rejects ping within a few seconds when its store cannot be reached', async () => {
        const q = await unreachable();
        try {
          const started = Date.now();
          await expect(q.ping()).rejects.toThrow();
          expect(Date.now() - started).toBeLessThan(10_000);
        } finally {
          await q.close();
        }
      }, 20_000);
    }

    it('refuses enqueue and startWorker once closed', async () => {
      const q = await factory();
      await q.close();
      await expect(q.enqueue(job('a.test'))).rejects.toThrow(/closed/);
      await expect(q.enqueueMany([job('a.test')])).rejects.toThrow(/closed/);
      await expect(q.startWorker({ 'a.test': async () => undefined })).rejects.toThrow(/closed/);
    });

    it(`keeps a job enqueued before a restart ${opts.durable ? 'and runs it after (durable)' : 'only in memory: it is gone after (not durable)'}, in the default pool and a named one`, async () => {
      const first = await factory({ pools: ['fast'] });
      expect(first.durable).toBe(opts.durable);
      const a = job('a.test', {}, new Date(Date.now() + 200));
      const b = job('a.test', {}, new Date(Date.now() + 200), 'fast');
      await first.enqueue(a);
      await first.enqueue(b);
      await first.close(); // before any worker started: the job was never run here
      const again = await opts.reopen({ pools: ['fast'] });
      open.push(again);
      expect(again.durable).toBe(opts.durable);
      const r = recorder();
      await again.startWorker({ 'a.test': r.handler, 'marker.test': r.handler }, { pools: { fast: 1 } });
      // Markers due after the kept jobs, one per pool: once they ran, the kept jobs had their turn.
      const marker = job('marker.test', {}, new Date(Date.now() + 600));
      const fastMarker = job('marker.test', {}, new Date(Date.now() + 600), 'fast');
      await again.enqueue(marker);
      await again.enqueue(fastMarker);
      await waitFor('the marker jobs', () => r.count(marker.id) === 1 && r.count(fastMarker.id) === 1);
      expect(r.count(a.id)).toBe(opts.durable ? 1 : 0);
      expect(r.count(b.id)).toBe(opts.durable ? 1 : 0);
    });

    const forget = opts.forget;
    if (forget) {
      it('tells its listeners when its store comes back empty, once per loss, not before', async () => {
        const q = await make();
        let told = 0;
        q.onMemoryLost(() => told++);
        // A store this queue never reached counts as lost (jobs handed to it earlier may be gone).
        await waitFor('the first look at the store', () => told === 1);
        await new Promise((r) => setTimeout(r, 300));
        expect(told).toBe(1);
        await forget();
        await waitFor('the loss to be noticed', () => told === 2);
        await new Promise((r) => setTimeout(r, 300));
        expect(told).toBe(2);
      });
    } else {
      it('never reports a lost memory while its process lives (it forgets only with it)', async () => {
        const q = await make();
        let told = 0;
        q.onMemoryLost(() => told++);
        await q.enqueue(job('a.test'));
        await new Promise((r) => setTimeout(r, 200));
        expect(told).toBe(0);
      });
    }
  });
}
