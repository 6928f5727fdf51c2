import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullmqQueue } from '../../adapters/queue/bullmq/index.ts';
import { deleteKeysWithPrefix } from '../../test/helpers/redis-cleanup.ts';
import { waitFor } from '../../test/helpers/wait-for.ts';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import type { SqlDb } from '../../adapters/storage/postgres/sql-db.ts';
import { dropSchema, postgresAvailable, postgresUrl, redisAvailable, redisUrl, uniqueSchema } from '../../test/helpers/services.ts';
import type { Clock } from '../ports/clock.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { silentLogger } from '../ports/logger.ts';
import { createOutboxRelay } from './outbox-relay.ts';
import { startJobs } from './start-jobs.ts';
import { countRuns, createEffectTables, effectHandler, runChildAndKill } from './test-support/crash-harness.ts';

/** A clock past the 30 s relay lease, so claims held by a "dead" relay have lapsed. */
const afterLease: Clock = { now: () => Date.now() + 31_000 };
const services = (await postgresAvailable()) && (await redisAvailable());

if (services) {
  describe('crash safety: PostgreSQL outbox + BullMQ on Redis', () => {
    const schema = uniqueSchema('crash');
    const prefix = `crash_${process.pid}_${Date.now().toString(36)}`;
    let storage: StoragePort & { db: SqlDb };
    let n = 0;
    const newQueue = (connectionName?: string) =>
      createBullmqQueue({ redisUrl, prefix, queueName: `q${++n}`, retry: { baseMs: 50, maxMs: 500 }, ...(connectionName ? { connectionName } : {}) });
    const completed = (id: string) => async () => Boolean((await storage.jobs.get(id))?.completedAt);

    beforeAll(async () => {
      storage = await createPostgresStorage({ url: postgresUrl, schema, poolSize: 10 });
      await createEffectTables(storage.db);
    });
    afterAll(async () => {
      await storage?.close();
      await dropSchema(schema);
      await deleteKeysWithPrefix(redisUrl, prefix);
    });

    for (const mode of ['write', 'claim'] as const) {
      it(`(a) runs exactly once a job whose writer was SIGKILLed ${mode === 'claim' ? 'while holding the relay claim' : 'before relaying'}`, async () => {
        const id = `job_a_${mode}_${Date.now().toString(36)}`;
        await runChildAndKill({ OUTBOX_DB: 'pg', OUTBOX_URL: postgresUrl, OUTBOX_SCHEMA: schema, OUTBOX_JOB_ID: id, OUTBOX_MODE: mode });
        expect(await storage.jobs.get(id)).toMatchObject({ relayedAt: null, completedAt: null });
        const queue = newQueue();
        const jobs = await startJobs({ storage, queue, handlers: { 'crash.effect': effectHandler(storage.db) }, clock: afterLease, logger: silentLogger, relayIntervalMs: 100 });
        try {
          await waitFor('the job to complete', completed(id), 30_000);
          // Marked relayed by the relay's pass, or by the completion when the job ran first: a pass
          // whose mark never came (seen twice in clean-clone rehearsals, the wait timing out at 10 and
          // at 30 s) left a completed job unmarked for good, since no pass claims a completed job.
          await waitFor('the relay to mark it relayed', async () => Boolean((await storage.jobs.get(id))?.relayedAt), 30_000);
          expect(await jobs.relay.runOnce()).toBe(0);
        } finally {
          await jobs.stop();
        }
        expect(await countRuns(storage.db, id)).toEqual({ runs: 1, effects: 1 });
      }, 90_000);
    }

    it('(b) runs exactly once when the Redis connections drop after commit, around the enqueue and while the job waits', async () => {
      const connectionName = `crashb_${process.pid}`;
      const admin = new Redis(redisUrl);
      const killOurs = async () => {
        const list = String(await admin.client('LIST'));
        const ids = [...list.matchAll(/^id=(\d+) .*name=(\S*)/gm)].filter((m) => m[2]!.startsWith(connectionName)).map((m) => m[1]!);
        for (const cid of ids) await admin.client('KILL', 'ID', cid).catch(() => 0);
        return ids.length;
      };
      const queue = newQueue(connectionName);
      const jobs = await startJobs({
        storage,
        queue,
        handlers: { 'crash.effect': effectHandler(storage.db) },
        clock: { now: () => Date.now() },
        logger: silentLogger,
        relayIntervalMs: 100,
      });
      try {
        // One job delayed by 2 s: the kill lands while it sits in Redis's delayed set.
        const delayed = `job_b1_${Date.now().toString(36)}`;
        const now = new Date();
        await storage.jobs.insert([{ id: delayed, type: 'crash.effect', payload: { marker: delayed }, runAt: new Date(now.getTime() + 2000), createdAt: now }]);
        jobs.relay.notify();
        await waitFor('the delayed job to be relayed', async () => Boolean((await storage.jobs.get(delayed))?.relayedAt));
        expect(await killOurs()).toBeGreaterThan(0);
        // Another written and nudged right before the kill, so the drop races its enqueue.
        const racing = `job_b2_${Date.now().toString(36)}`;
        await storage.jobs.insert([{ id: racing, type: 'crash.effect', payload: { marker: racing }, runAt: new Date(), createdAt: new Date() }]);
        jobs.relay.notify();
        await killOurs();
        await waitFor('both jobs to complete', async () => (await completed(delayed)()) && (await completed(racing)()), 45_000);
        expect(await countRuns(storage.db, delayed)).toEqual({ runs: 1, effects: 1 });
        expect(await countRuns(storage.db, racing)).toEqual({ runs: 1, effects: 1 });
      } finally {
        await jobs.stop();
        admin.disconnect();
      }
    }, 90_000);

    it('(b) keeps a job in the outbox while Redis cannot be reached, then runs it once', async () => {
      const id = `job_b3_${Date.now().toString(36)}`;
      await storage.jobs.insert([{ id, type: 'crash.effect', payload: { marker: id }, runAt: new Date(), createdAt: new Date() }]);
      const dead = createBullmqQueue({ redisUrl: 'redis://127.0.0.1:1', prefix, queueName: 'unreachable' });
      const deadRelay = createOutboxRelay({ storage, queue: dead, clock: { now: () => Date.now() }, logger: silentLogger, enqueueTimeoutMs: 500 });
      expect(await deadRelay.runOnce()).toBe(0);
      void dead.close().catch(() => {});
      expect((await storage.jobs.get(id))?.relayedAt).toBeNull();
      const jobs = await startJobs({
        storage,
        queue: newQueue(),
        handlers: { 'crash.effect': effectHandler(storage.db) },
        clock: afterLease,
        logger: silentLogger,
        relayIntervalMs: 100,
      });
      try {
        await waitFor('the job to complete', completed(id), 30_000);
      } finally {
        await jobs.stop();
      }
      expect(await countRuns(storage.db, id)).toEqual({ runs: 1, effects: 1 });
    }, 90_000);

    it('(d) runs once a job Redis lost: it came back empty (a restart without persistence) while the job waited in its delayed set', async () => {
      const queueName = `q${++n}`;
      const queue = createBullmqQueue({ redisUrl, prefix, queueName, retry: { baseMs: 50, maxMs: 500 }, memoryCheckMs: 100 });
      const jobs = await startJobs({
        storage,
        queue,
        handlers: { 'crash.effect': effectHandler(storage.db) },
        clock: { now: () => Date.now() },
        logger: silentLogger,
        relayIntervalMs: 100,
      });
      try {
        const id = `job_d_${Date.now().toString(36)}`;
        const now = new Date();
        await storage.jobs.insert([{ id, type: 'crash.effect', payload: { marker: id }, runAt: new Date(now.getTime() + 1500), createdAt: now }]);
        jobs.relay.notify();
        await waitFor('the job to be relayed', async () => Boolean((await storage.jobs.get(id))?.relayedAt));
        expect(await deleteKeysWithPrefix(redisUrl, `${prefix}:${queueName}`)).toBeGreaterThan(0);
        await waitFor('the lost job to complete', completed(id), 30_000);
        expect(await countRuns(storage.db, id)).toEqual({ runs: 1, effects: 1 });
      } finally {
        await jobs.stop();
      }
    }, 60_000);

    it('(c) runs exactly once a job the relay enqueued twice because it died before markRelayed', async () => {
      const id = `job_c_${Date.now().toString(36)}`;
      await storage.jobs.insert([{ id, type: 'crash.effect', payload: { marker: id }, runAt: new Date(), createdAt: new Date() }]);
      const queue = newQueue();
      const dying = { jobs: { ...storage.jobs, markRelayed: async () => Promise.reject(new Error('process died before markRelayed')) } };
      const relay1 = createOutboxRelay({ storage: dying, queue, clock: { now: () => Date.now() }, logger: silentLogger });
      await expect(relay1.runOnce()).rejects.toThrow(/died/);
      // The next relay, after the lease, finds it unrelayed and enqueues it again.
      const relay2 = createOutboxRelay({ storage, queue, clock: afterLease, logger: silentLogger });
      expect(await relay2.runOnce()).toBe(1);
      const jobs = await startJobs({ storage, queue, handlers: { 'crash.effect': effectHandler(storage.db) }, clock: afterLease, logger: silentLogger, relayIntervalMs: 100 });
      try {
        await waitFor('the job to complete', completed(id), 30_000);
        // Once more after completion: the id is still known to Redis, and completed in the outbox.
        await queue.enqueue({ id, type: 'crash.effect', payload: { marker: id }, runAt: new Date() });
        const marker = `job_c_marker_${Date.now().toString(36)}`;
        await storage.jobs.insert([{ id: marker, type: 'crash.effect', payload: { marker }, runAt: new Date(), createdAt: new Date() }]);
        jobs.relay.notify();
        await waitFor('a later job to complete', completed(marker), 30_000);
      } finally {
        await jobs.stop();
      }
      expect(await countRuns(storage.db, id)).toEqual({ runs: 1, effects: 1 });
    }, 90_000);
  });
}
