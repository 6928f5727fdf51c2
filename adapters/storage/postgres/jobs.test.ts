import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from '../../../test/helpers/backends.ts';
import type { StoragePort } from '../../../server/ports/storage/index.ts';

const t0 = new Date('2026-11-22T10:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const job = (id: string, createdMs = 0) => ({ id, type: 'noop.test', payload: { n: id }, runAt: at(createdMs), createdAt: at(createdMs) });

for (const backend of await storageBackends()) {
  describe(`outbox jobs on ${backend.name}`, () => {
    let storage: StoragePort & { dispose(): Promise<void> };
    beforeAll(async () => {
      storage = await backend.open();
    });
    afterAll(async () => {
      await storage?.dispose();
    });

    it('claims oldest first, hides claimed jobs until the lease ends, and forgets relayed ones', async () => {
      await storage.jobs.insert([job('j2', 2), job('j1', 1), job('j3', 3)]);
      await storage.jobs.insert([job('j1', 1)]); // a second write of an id is ignored
      const first = await storage.jobs.claimUnrelayed(2, at(10));
      expect(first.map((j) => j.id)).toEqual(['j1', 'j2']);
      expect(first[0]).toMatchObject({ type: 'noop.test', payload: { n: 'j1' }, relayedAt: null, completedAt: null, attempts: 0, lastError: null });
      expect((await storage.jobs.claimUnrelayed(10, at(11))).map((j) => j.id)).toEqual(['j3']);
      expect(await storage.jobs.claimUnrelayed(10, at(12))).toEqual([]);
      await storage.jobs.markRelayed(['j1'], at(13));
      // After the 30 s lease, a claim that was never marked relayed is offered again; j1 is not.
      const again = await storage.jobs.claimUnrelayed(10, at(40_000));
      expect(again.map((j) => j.id)).toEqual(['j2', 'j3']);
      await storage.jobs.markRelayed(['j2', 'j3'], at(40_001));
      expect((await storage.jobs.get('j1'))?.relayedAt).toEqual(at(13));
      expect(await storage.jobs.get('nope')).toBeNull();
    });

    it('marks completion once, records failures, and requeues only unfinished jobs', async () => {
      expect(await storage.jobs.markCompleted('j1', at(50))).toBe(true);
      expect(await storage.jobs.markCompleted('j1', at(51))).toBe(false);
      expect((await storage.jobs.get('j1'))?.completedAt).toEqual(at(50));
      await storage.jobs.recordFailure('j2', 'boom');
      await storage.jobs.recordFailure('j2', 'x'.repeat(10_000));
      const j2 = await storage.jobs.get('j2');
      expect(j2?.attempts).toBe(2);
      expect(j2?.lastError?.length).toBe(4000);
      expect(await storage.jobs.requeueUnfinished()).toBe(2);
      expect((await storage.jobs.claimUnrelayed(10, at(60))).map((j) => j.id)).toEqual(['j2', 'j3']);
    });

    it('gives concurrent claims disjoint sets', async () => {
      const ids = Array.from({ length: 60 }, (_, i) => `c${String(i).padStart(2, '0')}`);
      await storage.jobs.insert(ids.map((id, i) => job(id, 100_000 + i)));
      const now = at(200_000);
      const claims = await Promise.all(Array.from({ length: 6 }, () => storage.jobs.claimUnrelayed(15, now)));
      const seen = claims.flat().map((j) => j.id);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.filter((id) => id.startsWith('c')).sort()).toEqual(ids);
    });
  });
}
