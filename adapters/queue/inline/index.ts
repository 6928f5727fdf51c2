import { systemClock, type Clock } from '../../../server/ports/clock.ts';
import type { JobHandler, QueuedJob, QueuePort } from '../../../server/ports/queue.ts';
import { describeError, silentLogger, type Logger } from '../../../server/ports/logger.ts';
import { backoffDelay, resolveRetryPolicy, type RetryPolicy } from '../retry-policy.ts';

export interface InlineQueueOptions {
  /** Decides how long until a job's `runAt`; timers themselves run on real time. */
  clock?: Clock;
  logger?: Logger;
  retry?: Partial<RetryPolicy>;
  /** How long a completed id is remembered, so a second enqueue of it is ignored (BullMQ keeps it 24 h too). */
  completedTtlMs?: number;
}

interface Entry {
  job: QueuedJob;
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
  const ready: Entry[] = [];
  const running = new Set<Promise<void>>();
  let handlers: Record<string, JobHandler> | null = null;
  let concurrency = 1;
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
      ready.push(entry);
      pump();
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

  function pump() {
    while (!closed && running.size < concurrency && ready.length > 0) {
      const entry = ready.shift() as Entry;
      const p = run(entry).finally(() => {
        running.delete(p);
        pump();
      });
      running.add(p);
    }
  }

  return {
    durable: false,
    async enqueue(job) {
      if (closed) throw new Error('inline queue: closed');
      forgetOldCompletions();
      if (known.has(job.id) || completed.has(job.id)) return;
      const entry: Entry = { job, attempts: 0, dueAt: job.runAt.getTime() };
      known.set(job.id, entry);
      schedule(entry, entry.dueAt);
    },
    // Its memory goes only with its process, and startJobs requeues at every process start.
    onMemoryLost() {},
    async startWorker(h, o) {
      if (closed) throw new Error('inline queue: closed');
      if (handlers) throw new Error('inline queue: startWorker was already called');
      const c = o?.concurrency ?? 1;
      if (!Number.isInteger(c) || c < 1) throw new Error('inline queue: concurrency must be a positive integer');
      handlers = h;
      concurrency = c;
      for (const entry of known.values()) schedule(entry, entry.dueAt);
    },
    // Nothing to reach: the queue is this process's memory. Closed, it answers no longer.
    async ping() {
      if (closed) throw new Error('inline queue: closed');
    },
    async close() {
      closed = true;
      for (const entry of known.values()) if (entry.timer) clearTimeout(entry.timer);
      ready.length = 0;
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
