import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { JobHandler, QueuedJob, QueuePort } from '../../../server/ports/queue.ts';
import { describeError, silentLogger, type Logger } from '../../../server/ports/logger.ts';
import { backoffDelay, resolveRetryPolicy, type RetryPolicy } from '../retry-policy.ts';
import { poolOf, resolveConcurrency, resolvePoolNames } from '../pools.ts';
import { DEFAULT_POOL } from '../../../server/ports/queue.ts';

export interface BullmqQueueOptions {
  /** redis:// or rediss:// */
  redisUrl: string;
  /** Default `payments-jobs`. Producers and workers must agree on it and on `prefix`. */
  queueName?: string;
  /** Redis key prefix, default `bull`; tests use a unique one. */
  prefix?: string;
  retry?: Partial<RetryPolicy>;
  /**
   * How long a finished job's id is kept in Redis (default 24 h): within it a second enqueue of
   * the id is ignored; after it the outbox's `completedAt` still stops a second run.
   */
  keepFinishedMs?: number;
  /**
   * A running job's lock (default 30 000, BullMQ's): a job whose worker died is run again by another
   * worker within two to three times this (stalled jobs are looked for at the same interval, and
   * a job is moved back on the check after the one that found its lock gone). A job waiting on a
   * slow RPC keeps its lock, as the worker renews it every half of it; a shorter lock costs more
   * renewals, and a worker that cannot renew in time (event loop blocked, Redis out of reach for
   * longer than the lock) has its job judged stalled and run again by another.
   */
  lockMs?: number;
  logger?: Logger;
  /** Shown by Redis `CLIENT LIST` for this queue's connections, to tell processes apart. */
  connectionName?: string;
  /** How often to look whether Redis still holds this queue's memory (default 2 s). */
  memoryCheckMs?: number;
  /** How long `ping` waits for Redis (default 2 s): BullMQ waits for a connection without end. */
  pingTimeoutMs?: number;
  /**
   * Named pools besides the default one (see `QueuedJob.pool`), each a BullMQ queue of its own
   * (`<queueName>.<pool>`) with a worker of its own, so its jobs never wait for another pool's
   * slots. Producers and workers must be built with the same list: a job is put in its pool's
   * queue, and only a worker that knows the pool takes it from there.
   */
  pools?: readonly string[];
}

interface JobData {
  type: string;
  payload: Record<string, unknown>;
  runAt: string;
}

/** The backoff type our worker's strategy answers for: capped exponential, see retry-policy.ts. */
const BACKOFF_TYPE = 'capped-exponential';

function validate(o: BullmqQueueOptions): void {
  if (typeof o.redisUrl !== 'string' || !/^rediss?:\/\/[^\s]+$/.test(o.redisUrl)) throw new Error('bullmq queue: redisUrl must start with redis:// or rediss://');
  if (o.queueName !== undefined && !/^[A-Za-z0-9_.-]{1,100}$/.test(o.queueName)) throw new Error('bullmq queue: queueName must be 1-100 of A-Z a-z 0-9 _ . -');
  if (o.prefix !== undefined && !/^[A-Za-z0-9_.-]{1,100}$/.test(o.prefix)) throw new Error('bullmq queue: prefix must be 1-100 of A-Z a-z 0-9 _ . -');
  if (o.connectionName !== undefined && !/^[A-Za-z0-9_.-]{1,100}$/.test(o.connectionName)) throw new Error('bullmq queue: connectionName must be 1-100 of A-Z a-z 0-9 _ . -');
  if (o.memoryCheckMs !== undefined && (!Number.isInteger(o.memoryCheckMs) || o.memoryCheckMs < 10))
    throw new Error('bullmq queue: memoryCheckMs must be an integer of at least 10');
  if (o.keepFinishedMs !== undefined && (!Number.isInteger(o.keepFinishedMs) || o.keepFinishedMs < 1000))
    throw new Error('bullmq queue: keepFinishedMs must be an integer of at least 1000');
  if (o.lockMs !== undefined && (!Number.isInteger(o.lockMs) || o.lockMs < 1000)) throw new Error('bullmq queue: lockMs must be an integer of at least 1000');
}

/**
 * The durable queue on Redis (BullMQ). The BullMQ job id is the outbox id, so the relay enqueuing
 * a job twice (it died between enqueue and markRelayed) adds nothing while Redis remembers the id.
 * A handler's `retryAt` moves the same job back to the delayed set (`moveToDelayed` + DelayedError),
 * which does not use up one of its retry attempts. The worker may run in the API process or in a
 * separate `npm run worker` process; producers only need the same redisUrl, queueName and prefix.
 * Its connection retries forever (`maxRetriesPerRequest: null`), so a Redis restart pauses work.
 */
export function createBullmqQueue(opts: BullmqQueueOptions): QueuePort {
  validate(opts);
  const policy = resolveRetryPolicy('bullmq queue', opts.retry);
  const log = opts.logger ?? silentLogger;
  const name = opts.queueName ?? 'payments-jobs';
  const prefix = opts.prefix ?? 'bull';
  const named = opts.connectionName ? { connectionName: opts.connectionName } : {};
  const keepSeconds = Math.ceil((opts.keepFinishedMs ?? 24 * 3600_000) / 1000);
  const pools = resolvePoolNames('bullmq queue', opts.pools);
  // The default pool keeps the queue's own name, so jobs queued before pools existed still run.
  const queueNameOf = (pool: string) => (pool === DEFAULT_POOL ? name : `${name}.${pool}`);
  const queues = new Map<string, Queue<JobData>>();
  for (const pool of pools) {
    // Enqueue fails after a few tries rather than hanging: the relay leaves the job unrelayed and retries.
    const q = new Queue<JobData>(queueNameOf(pool), { connection: { url: opts.redisUrl, maxRetriesPerRequest: 3, ...named }, prefix });
    q.on('error', (err) => log.warn({ err: describeError(err), queue: q.name }, 'bullmq queue connection error'));
    queues.set(pool, q);
  }
  const queue = queues.get(DEFAULT_POOL)!;
  const workers: Worker<JobData>[] = [];
  let started = false;
  let closed = false;
  const lostListeners: (() => void)[] = [];
  let memoryTimer: NodeJS.Timeout | null = null;
  // A key that lives as long as Redis keeps this queue's jobs: found missing, Redis has lost
  // them (restarted without persistence, failed over to an empty replica, flushed). Each process
  // that finds it missing puts it back and tells its listeners; two doing so at once only
  // requeue the outbox twice, and Redis ignores the ids it already holds.
  const memoryKey = `${prefix}:${name}:mps:memory`;
  const checkMemory = async () => {
    try {
      const client = await queue.backend.client;
      if ((await client.get(memoryKey)) !== null) return;
      await client.set(memoryKey, String(Date.now()));
      if (!closed) {
        log.warn({ queue: name }, "Redis does not hold this queue's jobs (restarted empty, or new): unfinished outbox jobs are handed to it again");
        for (const listener of lostListeners) listener();
      }
    } catch (err) {
      // Redis unreachable: looked at again at the next tick, once it is back.
      log.debug({ err: describeError(err), queue: name }, 'queue memory check failed');
    }
  };
  const memoryCheckMs = opts.memoryCheckMs ?? 2000;
  const pingTimeoutMs = opts.pingTimeoutMs ?? 2000;

  const process = async (bj: Job<JobData>, handlers: Record<string, JobHandler>, token?: string) => {
    const job: QueuedJob = { id: String(bj.id), type: bj.data.type, payload: bj.data.payload, runAt: new Date(bj.data.runAt) };
    const handler = handlers[job.type];
    if (!handler) throw new Error(`no handler for job type ${job.type}`);
    const outcome = await handler(job);
    if (outcome && outcome.retryAt instanceof Date) {
      await bj.moveToDelayed(outcome.retryAt.getTime(), token);
      throw new DelayedError();
    }
  };

  const addAll = async (jobs: QueuedJob[]): Promise<void> => {
    if (closed) throw new Error('bullmq queue: closed');
    const byPool = new Map<string, Parameters<Queue<JobData>['addBulk']>[0]>();
    for (const job of jobs) {
      // BullMQ refuses these as custom ids; outbox ids never need them.
      if (!job.id || job.id.includes(':') || /^\d+$/.test(job.id)) throw new Error(`bullmq queue: job id ${job.id} must be non-numeric and contain no ':'`);
      const pool = poolOf(pools, job.pool);
      const list = byPool.get(pool) ?? [];
      list.push({
        name: job.type,
        data: { type: job.type, payload: job.payload, runAt: job.runAt.toISOString() },
        opts: {
          jobId: job.id,
          delay: Math.max(0, job.runAt.getTime() - Date.now()),
          attempts: policy.maxAttempts,
          backoff: { type: BACKOFF_TYPE },
          removeOnComplete: { age: keepSeconds },
          removeOnFail: { age: keepSeconds },
        },
      });
      byPool.set(pool, list);
    }
    // One round trip per pool (a MULTI of the adds): a relay's batch is not a round trip per job.
    await Promise.all([...byPool].map(([pool, list]) => queues.get(pool)!.addBulk(list)));
  };

  return {
    durable: true,
    enqueue: (job) => addAll([job]),
    enqueueMany: (jobs) => addAll(jobs),
    onMemoryLost(listener) {
      lostListeners.push(listener);
      if (memoryTimer || closed) return;
      void checkMemory();
      memoryTimer = setInterval(() => void checkMemory(), memoryCheckMs);
      memoryTimer.unref();
    },
    async startWorker(handlers, o) {
      if (closed) throw new Error('bullmq queue: closed');
      if (started) throw new Error('bullmq queue: startWorker was already called');
      const slots = resolveConcurrency('bullmq queue', pools, o);
      started = true;
      for (const [pool, concurrency] of slots) {
        const w = new Worker<JobData>(queueNameOf(pool), (bj, token) => process(bj, handlers, token), {
          connection: { url: opts.redisUrl, maxRetriesPerRequest: null, ...named },
          prefix,
          concurrency,
          ...(opts.lockMs === undefined ? {} : { lockDuration: opts.lockMs, stalledInterval: opts.lockMs }),
          settings: { backoffStrategy: (attemptsMade: number) => backoffDelay(policy, attemptsMade) },
        });
        const qn = w.name;
        w.on('error', (err) => log.warn({ err: describeError(err), queue: qn }, 'bullmq worker error'));
        // Any live worker's periodic check finds a job whose worker died (or gave up at its shutdown
        // bound) once that worker's lock lapses, and runs it again here.
        w.on('stalled', (jobId) => log.warn({ jobId, queue: qn }, 'job stalled (its worker stopped without finishing it); running it again'));
        w.on('failed', (bj, err) => {
          if (!bj) return;
          const last = bj.attemptsMade >= policy.maxAttempts;
          const fields = { jobId: bj.id, type: bj.data.type, attempts: bj.attemptsMade, err: describeError(err) };
          if (last) log.error(fields, 'job failed for the last time; left unfinished in the outbox');
          else log.warn(fields, 'job failed; will retry');
        });
        workers.push(w);
      }
      await Promise.all(workers.map((w) => w.waitUntilReady()));
    },
    async ping() {
      if (closed) throw new Error('bullmq queue: closed');
      // A round trip on the queue's own connection (its client offers no PING). While Redis is
      // down BullMQ waits for it to come back without end, so the wait is bounded here.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`bullmq queue: Redis did not answer within ${pingTimeoutMs} ms`)), pingTimeoutMs);
      });
      try {
        await Promise.race([queue.backend.client.then((client) => client.get(memoryKey)), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      closed = true;
      if (memoryTimer) clearInterval(memoryTimer);
      // Worker.close() without force waits for the handlers in flight.
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}
