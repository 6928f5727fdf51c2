import type { Clock } from '../ports/clock.ts';
import type { JobHandler } from '../ports/queue.ts';
import type { StoragePort } from '../ports/storage.ts';
import type { JobLogger } from './logger.ts';

/** What job handlers may use; the payments code adds its chain and webhook ports here. */
export interface JobHandlerDeps {
  storage: StoragePort;
  clock: Clock;
  logger: JobLogger;
}

/**
 * The registry of job types, one entry per type written to the outbox (expire a payment, submit
 * a transfer, confirm it, deliver a webhook). Both the API process (embedded or same-process
 * workers) and `npm run worker` take their handlers from here, so every process runs the same set.
 * Each handler must be idempotent: see `wrapJobHandler` in run-worker.ts for why.
 */
export function buildJobHandlers(deps: JobHandlerDeps): Record<string, JobHandler> {
  void deps;
  return {};
}
