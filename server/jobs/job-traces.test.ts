import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullmqQueue } from '../../adapters/queue/bullmq/index.ts';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { captureLogs } from '../../test/helpers/log-capture.ts';
import { deleteKeysWithPrefix } from '../../test/helpers/redis-cleanup.ts';
import { dropSchema, postgresAvailable, postgresUrl, redisAvailable, redisUrl, uniqueSchema } from '../../test/helpers/services.ts';
import { waitFor } from '../../test/helpers/wait-for.ts';
import { currentTrace, runInTrace, type TraceContext } from '../domain/trace-context.ts';
import { systemClock } from '../ports/clock.ts';
import { silentLogger } from '../ports/logger.ts';
import type { JobHandler } from '../ports/queue.ts';
import { createOutboxRelay } from './outbox-relay.ts';
import { startJobs } from './start-jobs.ts';

const services = (await postgresAvailable()) && (await redisAvailable());

/**
 * A job's trace is a column of its outbox row, not state of the process that wrote it: a job
 * written in a request's trace and relayed by a process that is then gone runs in that trace in
 * another process (its own storage connection and queue client); a row without a trace (written
 * before the column existed, or outside any trace) still runs, in none.
 */
if (services) {
  describe('job traces across processes: PostgreSQL outbox + BullMQ', () => {
    const schema = uniqueSchema('trace');
    const prefix = `trace_${process.pid}_${Date.now().toString(36)}`;
    const queueName = 'q';
    const open = () => createPostgresStorage({ url: postgresUrl, schema, poolSize: 4 });
    afterAll(async () => {
      await dropSchema(schema);
      await deleteKeysWithPrefix(redisUrl, prefix);
    });

    let writer: Awaited<ReturnType<typeof open>>;
    beforeAll(async () => {
      writer = await open();
    });

    it('runs a relayed job in the trace it was written in, and a job without one in none', async () => {
      const at = new Date();
      const job = (id: string, paymentId: string) => ({ id, type: 'trace.test', payload: { paymentId }, runAt: at, createdAt: at });
      await runInTrace({ traceId: 'req-confirm-1' }, () => writer.jobs.insert([job('job_traced', 'pay_traced')]));
      // A row as written before migration 014: no trace_id given at all.
      await writer.db.query('INSERT INTO outbox_jobs (id, type, payload, run_at, created_at) VALUES ($1, $2, $3, $4, $4)', [
        'job_old',
        'trace.test',
        JSON.stringify({ paymentId: 'pay_old' }),
        at,
      ]);
      // The writing process relays them and goes away before any runs.
      const writerQueue = createBullmqQueue({ redisUrl, prefix, queueName });
      // Relayed from inside another trace: what the queue holds is ids, the trace stays in the row.
      const relayed = await runInTrace({ traceId: 'req-unrelated' }, () =>
        createOutboxRelay({ storage: writer, queue: writerQueue, clock: systemClock, logger: silentLogger }).runOnce(),
      );
      expect(relayed).toBe(2);
      await writerQueue.close();
      await writer.close();

      const worker = await open();
      const { logger, lines } = captureLogs();
      const seen = new Map<string, TraceContext | undefined>();
      const handler: JobHandler = async (j) => {
        seen.set(j.id, { ...currentTrace() });
        logger.info({ jobId: j.id }, 'trace test job ran');
      };
      const jobs = await startJobs({ storage: worker, queue: createBullmqQueue({ redisUrl, prefix, queueName }), handlers: { 'trace.test': handler }, clock: systemClock, logger });
      try {
        await waitFor('both jobs to complete', async () => Boolean((await worker.jobs.get('job_traced'))?.completedAt && (await worker.jobs.get('job_old'))?.completedAt), 30_000);
      } finally {
        await jobs.stop();
        await worker.close();
      }
      expect(seen.get('job_traced')).toEqual({ traceId: 'req-confirm-1', paymentId: 'pay_traced' });
      expect(seen.get('job_old')).toEqual({ paymentId: 'pay_old' });
      const ran = (id: string) => lines.find((l) => l.msg === 'trace test job ran' && l.jobId === id);
      expect(ran('job_traced')).toMatchObject({ traceId: 'req-confirm-1', paymentId: 'pay_traced' });
      expect(ran('job_old')).toMatchObject({ paymentId: 'pay_old' });
      expect(ran('job_old')).not.toHaveProperty('traceId');
      expect(lines.some((l) => l.traceId === 'req-unrelated')).toBe(false);
    }, 60_000);
  });
}
