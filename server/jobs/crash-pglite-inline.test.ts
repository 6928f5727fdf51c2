import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createInlineQueue } from '../../adapters/queue/inline/index.ts';
import { waitFor } from '../../test/helpers/wait-for.ts';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { openEmbeddedStorage } from '../../test/helpers/embedded-storage.ts';
import type { Clock } from '../ports/clock.ts';
import { silentLogger } from '../ports/logger.ts';
import { createOutboxRelay } from './outbox-relay.ts';
import { startJobWorker } from './run-worker.ts';
import { startJobs } from './start-jobs.ts';
import { countRuns, createEffectTables, effectHandler, runChildAndKill } from './test-support/crash-harness.ts';

const clock: Clock = { now: () => Date.now() };
const afterLease: Clock = { now: () => Date.now() + 31_000 };

describe('crash safety: embedded PGlite outbox + inline queue', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'outbox-crash-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  for (const mode of ['write', 'relay-inline'] as const) {
    it(`(a) runs exactly once, after a restart, a job whose process was SIGKILLed ${mode === 'write' ? 'before relaying' : 'after relaying it to its in-memory queue'}`, async () => {
      const dir = tempDir();
      const id = `job_a_${mode}`;
      await runChildAndKill({ OUTBOX_DB: 'pglite', OUTBOX_DIR: dir, OUTBOX_JOB_ID: id, OUTBOX_MODE: mode });
      const storage = await createPostgresStorage({ embedded: true, dataDir: dir });
      try {
        const before = await storage.jobs.get(id);
        expect(before?.completedAt).toBeNull();
        expect(before?.relayedAt === null).toBe(mode === 'write');
        await createEffectTables(storage.db);
        // startJobs sees a non-durable queue and requeues every unfinished job first.
        const jobs = await startJobs({
          storage,
          queue: createInlineQueue(),
          handlers: { 'crash.effect': effectHandler(storage.db) },
          clock,
          logger: silentLogger,
          relayIntervalMs: 100,
        });
        try {
          await waitFor('the job to complete', async () => Boolean((await storage.jobs.get(id))?.completedAt), 30_000);
          expect(await jobs.relay.runOnce()).toBe(0);
        } finally {
          await jobs.stop();
        }
        expect(await countRuns(storage.db, id)).toEqual({ runs: 1, effects: 1 });
      } finally {
        await storage.close();
      }
    }, 90_000);
  }

  it('(c) runs exactly once a job relayed twice, the second time into a restarted queue after it completed', async () => {
    const storage = await openEmbeddedStorage();
    try {
      await createEffectTables(storage.db);
      const id = 'job_c';
      await storage.jobs.insert([{ id, type: 'crash.effect', payload: { marker: id }, runAt: new Date(), createdAt: new Date() }]);
      const handlers = { 'crash.effect': effectHandler(storage.db) };
      const first = createInlineQueue();
      const dying = { jobs: { ...storage.jobs, markRelayed: async () => Promise.reject(new Error('process died before markRelayed')) } };
      await expect(createOutboxRelay({ storage: dying, queue: first, clock, logger: silentLogger }).runOnce()).rejects.toThrow(/died/);
      await startJobWorker({ storage, queue: first, handlers, clock, logger: silentLogger });
      await waitFor('the first delivery to complete', async () => Boolean((await storage.jobs.get(id))?.completedAt));
      await first.close();
      // A restarted process: a fresh queue knows nothing, and a relay enqueues the job again.
      const second = createInlineQueue();
      let delivered = 0;
      await startJobWorker({
        storage,
        queue: second,
        handlers: {
          'crash.effect': async (job) => {
            delivered += 1;
            return handlers['crash.effect'](job);
          },
        },
        clock,
        logger: silentLogger,
      });
      await second.enqueue({ id, type: 'crash.effect', payload: { marker: id }, runAt: new Date() });
      expect(await createOutboxRelay({ storage, queue: second, clock: afterLease, logger: silentLogger }).runOnce()).toBe(0); // completed: not offered again
      await second.close();
      expect(delivered).toBe(0); // the wrapper skipped the duplicate before the handler
      expect(await countRuns(storage.db, id)).toEqual({ runs: 1, effects: 1 });
    } finally {
      await storage.close();
    }
  }, 90_000);
});
