import { describe, expect, it } from 'vitest';
import { useStore, type OpenStore } from './store-fixtures.ts';
import { runInTrace } from '../../../server/domain/trace-context.ts';

const t0 = new Date('2026-11-22T10:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const job = (id: string, createdMs = 0) => ({ id, type: 'noop.test', payload: { n: id }, runAt: at(createdMs + 5), createdAt: at(createdMs) });

/**
 * JobRepository (the outbox) on every adapter. The tests run in order on one store of their own,
 * each starting where the last left the outbox: claims see every unrelayed job in the store.
 */
export function runJobConformance(name: string, open: OpenStore): void {
  describe(`job repository conformance: ${name}`, () => {
    const store = useStore(open);

    it('stores jobs as given, ignoring a second write of an id', async () => {
      await store.s.jobs.insert([job('j2', 2), job('j1', 1), job('j3', 3)]);
      await store.s.jobs.insert([{ ...job('j1', 1), type: 'other', payload: { n: 'changed' } }]);
      expect(await store.s.jobs.get('j1')).toEqual({ ...job('j1', 1), relayedAt: null, completedAt: null, attempts: 0, lastError: null, traceId: null });
      expect(await store.s.jobs.get('nope')).toBeNull();
      await store.s.jobs.insert([]);
    });

    it('claims oldest first, hides claimed jobs until the lease ends, and forgets relayed ones', async () => {
      const first = await store.s.jobs.claimUnrelayed(2, at(10));
      expect(first.map((j) => j.id)).toEqual(['j1', 'j2']);
      expect(first[0]).toEqual({ ...job('j1', 1), relayedAt: null, completedAt: null, attempts: 0, lastError: null, traceId: null });
      expect((await store.s.jobs.claimUnrelayed(10, at(11))).map((j) => j.id)).toEqual(['j3']);
      expect(await store.s.jobs.claimUnrelayed(10, at(12))).toEqual([]);
      await store.s.jobs.markRelayed(['j1'], at(13));
      await store.s.jobs.markRelayed([], at(13));
      // After the lease, a claim that was never marked relayed is offered again; j1 is not.
      const again = await store.s.jobs.claimUnrelayed(10, at(40_000));
      expect(again.map((j) => j.id)).toEqual(['j2', 'j3']);
      await store.s.jobs.markRelayed(['j2', 'j3'], at(40_001));
      expect(await store.s.jobs.get('j1')).toMatchObject({ relayedAt: at(13), completedAt: null });
      expect(await store.s.jobs.claimUnrelayed(10, at(100_000))).toEqual([]);
    });

    it('marks completion once, records failures with bounded text, and requeues only unfinished jobs', async () => {
      expect(await store.s.jobs.markCompleted('j1', at(50))).toBe(true);
      expect(await store.s.jobs.markCompleted('j1', at(51))).toBe(false);
      expect(await store.s.jobs.markCompleted('nope', at(51))).toBe(false);
      expect((await store.s.jobs.get('j1'))?.completedAt).toEqual(at(50));
      await store.s.jobs.recordFailure('j2', 'boom');
      expect(await store.s.jobs.get('j2')).toMatchObject({ attempts: 1, lastError: 'boom' });
      await store.s.jobs.recordFailure('j2', 'x'.repeat(10_000));
      const j2 = await store.s.jobs.get('j2');
      expect(j2?.attempts).toBe(2);
      expect(j2?.lastError).toBe('x'.repeat(4000));
      // j2 and j3 were relayed but never finished: a queue that lost its memory gets them again.
      expect(await store.s.jobs.requeueUnfinished()).toBe(2);
      expect(await store.s.jobs.get('j3')).toMatchObject({ relayedAt: null });
      expect(await store.s.jobs.requeueUnfinished()).toBe(0);
      const offered = await store.s.jobs.claimUnrelayed(10, at(60));
      expect(offered.map((j) => j.id)).toEqual(['j2', 'j3']);
      // A claimed (leased) job is unfinished too.
      expect(await store.s.jobs.requeueUnfinished()).toBe(2);
      await store.s.jobs.markCompleted('j2', at(70));
      await store.s.jobs.markCompleted('j3', at(70));
      expect(await store.s.jobs.claimUnrelayed(10, at(200_000))).toEqual([]);
    });

    it('answers when the oldest job not yet relayed was written, claimed or not; null when none waits', async () => {
      expect(await store.s.jobs.oldestUnrelayedAt()).toBeNull();
      await store.s.jobs.insert([job('lag2', 90_002), job('lag1', 90_001)]);
      expect(await store.s.jobs.oldestUnrelayedAt()).toEqual(at(90_001));
      expect((await store.s.jobs.claimUnrelayed(1, at(90_010))).map((j) => j.id)).toEqual(['lag1']);
      expect(await store.s.jobs.oldestUnrelayedAt()).toEqual(at(90_001));
      await store.s.jobs.markRelayed(['lag1'], at(90_011));
      expect(await store.s.jobs.oldestUnrelayedAt()).toEqual(at(90_002));
      await store.s.jobs.markCompleted('lag2', at(90_012));
      expect(await store.s.jobs.oldestUnrelayedAt()).toBeNull();
      // It ran, so it was handed on, though its relay never said so (died or timed out after the enqueue).
      expect(await store.s.jobs.get('lag2')).toMatchObject({ relayedAt: at(90_012), completedAt: at(90_012) });
      expect(await store.s.jobs.get('lag1')).toMatchObject({ relayedAt: at(90_011) });
    });

    it('gives concurrent claims disjoint sets, together every job', async () => {
      const ids = Array.from({ length: 60 }, (_, i) => `c${String(i).padStart(2, '0')}`);
      await store.s.jobs.insert(ids.map((id, i) => job(id, 100_000 + i)));
      const now = at(200_000);
      const [a, b] = await Promise.all([store.s.jobs.claimUnrelayed(40, now), store.s.jobs.claimUnrelayed(40, now)]);
      const seen = [...a, ...b].map((j) => j.id);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.sort()).toEqual(ids);
      const more = await Promise.all(Array.from({ length: 4 }, () => store.s.jobs.claimUnrelayed(15, at(300_000))));
      const again = more.flat().map((j) => j.id);
      expect(new Set(again).size).toBe(again.length);
      expect(again.sort()).toEqual(ids);
    });

    it("keeps the trace a job is written in: its own, else the writer's current one, else none", async () => {
      await runInTrace({ traceId: 'trace-1' }, () =>
        store.s.jobs.insert([job('t1', 400_000), { ...job('t2', 400_001), traceId: 'own' }, { ...job('t3', 400_002), traceId: null }]),
      );
      await store.s.jobs.insert([job('t4', 400_003)]);
      expect(await store.s.jobs.get('t1')).toEqual({ ...job('t1', 400_000), relayedAt: null, completedAt: null, attempts: 0, lastError: null, traceId: 'trace-1' });
      // The c.. jobs are still leased (until 330 000): the claim offers these four, with their traces.
      const claimed = await store.s.jobs.claimUnrelayed(10, at(301_000));
      expect(claimed.map((j) => [j.id, j.traceId])).toEqual([
        ['t1', 'trace-1'],
        ['t2', 'own'],
        ['t3', null],
        ['t4', null],
      ]);
    });
  });
}
