import type { Clock } from '../../ports/clock.ts';
import type { StoragePort } from '../../ports/storage.ts';
import { describeError, type JobLogger } from '../../jobs/logger.ts';
import { planDeliveries } from './events.ts';

export interface WebhookDispatcherOptions {
  storage: Pick<StoragePort, 'webhooks'>;
  clock: Clock;
  logger: JobLogger;
  /** Called after a pass wrote delivery jobs, so the outbox relay hands them on at once. */
  onJobsWritten?: () => void;
  /** How often to look for undispatched events without a nudge; default 500 ms. */
  intervalMs?: number;
  /** Events claimed per unit; default 200. */
  batch?: number;
}

export interface WebhookDispatcher {
  start(): void;
  stop(): Promise<void>;
  /** Dispatches until no undispatched event is left; answers how many deliveries it wrote. */
  runOnce(): Promise<number>;
  /** Asks for a pass now (after a request committed payment events). */
  notify(): void;
}

/**
 * Fans payment events out to webhook endpoints after the fact, so the payment units write nothing
 * for webhooks: each unit claims undispatched events (disjoint across processes), writes one
 * `webhook.deliver` job per subscribed endpoint and marks the events dispatched, atomically.
 * A process that dies mid-pass loses nothing: its transaction rolls back and the events stay.
 */
export function createWebhookDispatcher(opts: WebhookDispatcherOptions): WebhookDispatcher {
  const intervalMs = opts.intervalMs ?? 500;
  const batch = opts.batch ?? 200;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<number> | null = null;
  let again = false;
  let stopped = false;

  const pass = async (): Promise<number> => {
    let written = 0;
    for (;;) {
      const now = opts.clock.now();
      const r = await opts.storage.webhooks.dispatchPending(batch, new Date(now), (items) => planDeliveries(items, now));
      written += r.deliveries;
      if (r.deliveries > 0) opts.onJobsWritten?.();
      if (r.events < batch || stopped) return written;
    }
  };

  const runOnce = (): Promise<number> => {
    if (current) {
      again = true;
      return current;
    }
    current = (async () => {
      let total = 0;
      do {
        again = false;
        total += await pass();
      } while (again && !stopped);
      return total;
    })().finally(() => {
      current = null;
    });
    return current;
  };

  const background = () => {
    runOnce().catch((err: unknown) => opts.logger.warn({ err: describeError(err) }, 'webhook dispatch pass failed; will retry'));
  };

  return {
    start() {
      if (timer || stopped) return;
      timer = setInterval(background, intervalMs);
      background();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      if (current) await current.catch(() => 0);
    },
    runOnce,
    notify() {
      if (!stopped) setImmediate(background);
    },
  };
}
