import { systemClock, type Clock } from '../../../server/ports/clock.ts';
import type { JobHandler, QueuedJob, QueuePort } from '../../../server/ports/queue.ts';
import { describeError, silentLogger, type Logger } from '../../../server/ports/logger.ts';
import { backoffDelay, resolveRetryPolicy, type RetryPolicy } from '../retry-policy.ts';
import { poolOf, resolveConcurrency, resolvePoolNames } from '../pools.ts';

export interface InlineQueueOptions {
  /** Decides how long until a job's `runAt`; timers themselves run on real time. */
  clock?: Clock;
  logger?: Logger;
  retry?: Partial<RetryPolicy>;
  /** How long a completed id is remembered, so a second enqueue of it is ignored (BullMQ keeps it 24 h too). */
  completedTtlMs?: number;
  /** Named pools besides the default one (see `QueuedJob.pool`): each runs on slots of its own. */
  pools?: readonly string[];
}

interface Entry {
  job: QueuedJob;
  pool: string;
  attempts: number;
  dueAt: number;
  timer?: NodeJS.Timeout;
}

/** setTimeout's ceiling; a longer wait is taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The embedded queue: in-process timers, nothing kept across a restart (`durable: false`). That
 * is safe only because every job is in the outbox first: at start the composition root calls
 * `storage.jobs.requeueUnfinished()` so the relay hands this queue everything not yet completed.
 * Jobs enqueued before `startWorker` wait for it.
 */
export function createInlineQueue(opts: InlineQueueOptions = {}): QueuePort {
  const clock = opts.clock ?? systemClock;
  const log = opts.logger ?? silentLogger;
  const policy = resolveRetryPolicy('inline queue', opts.retry);
  const completedTtlMs = opts.completedTtlMs ?? 24 * 3600_000;
  const known = new Map<string, Entry>();
  const completed = new Map<string, number>();
  const knownPools = resolvePoolNames('inline queue', opts.pools);
  /** Per pool: entries due and waiting for a slot, and how many of its handlers run. */
  const ready = new Map<string, Entry[]>([...knownPools].map((p) => [p, []]));
  const busy = new Map<string, number>([...knownPools].map((p) => [p, 0]));
  const running = new Set<Promise<void>>();
  let handlers: Record<string, JobHandler> | null = null;
  let slots = new Map<string, number>();
  let closed = false;

  const forgetOldCompletions = () => {
    const before = Date.now() - completedTtlMs;
    for (const [id, at] of completed) {
      if (at >= before) break; // insertion order is completion order
      completed.delete(id);
    }
  };

  const schedule = (entry: Entry, dueAt: number) => {
    if (closed) return;
    entry.dueAt = dueAt;
    if (!handlers) return; // startWorker schedules what is waiting
    const wait = dueAt - clock.now();
    if (wait <= 0) {
      ready.get(entry.pool)!.push(entry);
      pump(entry.pool);
      return;
    }
    entry.timer = setTimeout(
      () => {
        entry.timer = undefined;
        schedule(entry, entry.dueAt);
      },
      Math.min(wait, MAX_TIMER_MS),
    );
  };

  const run = async (entry: Entry) => {
    const { job } = entry;
    try {
      const handler = handlers?.[job.type];
      if (!handler) throw new Error(`no handler for job type ${job.type}`);
      const outcome = await handler(job);
      if (outcome && outcome.retryAt instanceof Date) {
        schedule(entry, outcome.retryAt.getTime());
        return;
      }
      known.delete(job.id);
      completed.set(job.id, Date.now());
    } catch (err) {
      entry.attempts += 1;
      if (entry.attempts >= policy.maxAttempts) {
        known.delete(job.id);
        log.error(
          {
            jobId: job.id,
            type: job.type,
            attempts: entry.attempts,
            err: describeError(err),
          },
          'job failed for the last time; left unfinished in the outbox',
        );
        return;
      }
      const delay = backoffDelay(policy, entry.attempts);
      log.warn(
        {
          jobId: job.id,
          type: job.type,
          attempts: entry.attempts,
          retryInMs: delay,
          err: describeError(err),
        },
        'job failed; will retry',
      );
      schedule(entry, clock.now() + delay);
    }
  };

  function add(job: QueuedJob) {
    if (closed) throw new Error('inline queue: closed');
    forgetOldCompletions();
    if (known.has(job.id) || completed.has(job.id)) return;
    const entry: Entry = { job, pool: poolOf(knownPools, job.pool), attempts: 0, dueAt: job.runAt.getTime() };
    known.set(job.id, entry);
    schedule(entry, entry.dueAt);
  }

  function pump(pool: string) {
    const waiting = ready.get(pool)!;
    while (!closed && busy.get(pool)! < (slots.get(pool) ?? 0) && waiting.length > 0) {
      const entry = waiting.shift() as Entry;
      busy.set(pool, busy.get(pool)! + 1);
      const p = run(entry).finally(() => {
        running.delete(p);
        busy.set(pool, busy.get(pool)! - 1);
        pump(pool);
      });
      running.add(p);
    }
  }

  return {
    durable: false,
    async enqueue(job) {
      add(job);
    },
    async enqueueMany(jobs) {
      for (const job of jobs) add(job);
    },
    // Its memory goes only with its process, and startJobs requeues at every process start.
    onMemoryLost() {},
    async startWorker(h, o) {
      if (closed) throw new Error('inline queue: closed');
      if (handlers) throw new Error('inline queue: startWorker was already called');
      slots = resolveConcurrency('inline queue', knownPools, o);
      handlers = h;
      for (const entry of known.values()) schedule(entry, entry.dueAt);
    },
    // Nothing to reach: the queue is this process's memory. Closed, it answers no longer.
    async ping() {
      if (closed) throw new Error('inline queue: closed');
    },
    async close() {
      closed = true;
      for (const entry of known.values()) if (entry.timer) clearTimeout(entry.timer);
      for (const waiting of ready.values()) waiting.length = 0;
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
