import type { Clock } from '../ports/clock.ts';
import type { JobHandler, QueuePort } from '../ports/queue.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { describeError, type Logger } from '../ports/logger.ts';
import { createOutboxRelay, type OutboxRelay } from './outbox-relay.ts';
import type { PassLoop } from './pass-loop.ts';
import { startJobWorker } from './run-worker.ts';
import type { MetricsPort } from '../ports/metrics.ts';
import { meteredHandlers } from './job-metrics.ts';
import type { JobPoolPlan } from './pools.ts';
import { MAINTENANCE_JOB_TYPE, maintenanceJob, scheduleMaintenance, type MaintenanceOptions } from './maintenance.ts';

export interface StartJobsOptions {
  storage: Pick<StoragePort, 'jobs'>;
  queue: QueuePort;
  handlers: Record<string, JobHandler>;
  clock: Clock;
  logger: Logger;
  /** Consume jobs in this process; false for an API process whose workers run elsewhere. Default true. */
  runWorker?: boolean;
  /** Slots of the default pool when no `pools` are given (every job then runs there). */
  concurrency?: number;
  /**
   * The pools jobs run in (see pools.ts): the relay queues each job in its pool and the worker
   * runs each pool on its own slots. The queue must have been built with `pools.names`.
   */
  pools?: Pick<JobPoolPlan, 'concurrency' | 'poolOf'>;
  relayIntervalMs?: number;
  /**
   * Runs the periodic maintenance job (purges of expired quotes, idempotency keys and settled
   * webhook deliveries past their retention; see
   * maintenance.ts) with this storage. Every process of a deployment should pass it: the job is
   * one row whichever process writes it, and any worker may run it.
   */
  maintenance?: MaintenanceOptions & { storage: Pick<StoragePort, 'quotes' | 'idempotency' | 'webhooks'> };
  /** Job runs counted and timed per type, relayed jobs counted; absent: not counted. */
  metrics?: MetricsPort;
  /**
   * Background loops that do job work without a job per item (the expiry sweep,
   * expiry-sweep.ts): run where the worker runs (`runWorker`), started after it, stopped first.
   */
  loops?: PassLoop[];
}

export interface RunningJobs {
  /** Call `relay.notify()` after committing work that wrote jobs. */
  relay: OutboxRelay;
  /** Jobs this process is running right now (what a shutdown waits for). */
  inFlight(): number;
  /** Stops the relay, then closes the queue (which waits for handlers in flight). */
  stop(): Promise<void>;
}

/**
 * The start-up order every process uses: a queue that forgot its jobs (`durable: false`, the
 * inline queue after a restart) first gets every unfinished outbox job back via
 * `requeueUnfinished`; the maintenance job is written (when asked for); then the worker starts;
 * then the relay, which hands the queue the outbox.
 */
export async function startJobs(opts: StartJobsOptions): Promise<RunningJobs> {
  if (!opts.queue.durable && opts.runWorker === false) throw new Error('startJobs: a non-durable (inline) queue must run its worker in this process');
  if (!opts.queue.durable) {
    const n = await opts.storage.jobs.requeueUnfinished();
    if (n > 0) opts.logger.info({ jobs: n }, 'non-durable queue: unfinished outbox jobs requeued');
  }
  const m = opts.maintenance;
  const unmetered = m ? { ...opts.handlers, [MAINTENANCE_JOB_TYPE]: maintenanceJob({ storage: m.storage, clock: opts.clock, logger: opts.logger }, m) } : opts.handlers;
  const all = opts.metrics ? meteredHandlers(unmetered, opts.metrics) : unmetered;
  let running = 0;
  const handlers: Record<string, JobHandler> = {};
  for (const [type, handler] of Object.entries(all)) {
    handlers[type] = async (job) => {
      running++;
      try {
        return await handler(job);
      } finally {
        running--;
      }
    };
  }
  if (m) await scheduleMaintenance(opts.storage, opts.clock);
  const { pools, loops: allLoops, ...rest } = opts;
  const runWorker = opts.runWorker ?? true;
  const loops = runWorker ? (allLoops ?? []) : [];
  if (runWorker) await startJobWorker({ ...rest, handlers, ...(pools ? { pools: pools.concurrency } : {}) });
  for (const loop of loops) loop.start();
  const relay = createOutboxRelay({ ...rest, ...(opts.relayIntervalMs ? { intervalMs: opts.relayIntervalMs } : {}), ...(pools ? { poolOf: pools.poolOf } : {}) });
  relay.start();
  // A durable queue can still come back empty (Redis restarted without persistence): jobs it was
  // handed would wait forever as "relayed". The outbox gives it every unfinished one again.
  opts.queue.onMemoryLost(() => {
    opts.storage.jobs.requeueUnfinished().then(
      (n) => {
        opts.logger.warn({ jobs: n }, 'the queue lost its jobs: unfinished outbox jobs requeued');
        relay.notify();
      },
      (err: unknown) => opts.logger.error({ err: describeError(err) }, 'requeueing unfinished outbox jobs failed; the queue may miss jobs until the next check'),
    );
  });
  return {
    relay,
    inFlight: () => running,
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
      await relay.stop();
      await opts.queue.close();
    },
  };
}
