import { createPassLoop, type PassLoop } from './pass-loop.ts';
import type { Clock } from '../ports/clock.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { describeError, type Logger } from '../ports/logger.ts';
import { planDeliveries } from '../domain/webhooks/events.ts';

export interface WebhookDispatcherOptions {
  storage: Pick<StoragePort, 'webhooks'>;
  clock: Clock;
  logger: Logger;
  /** Called after a pass wrote delivery jobs, so the outbox relay hands them on at once. */
  onJobsWritten?: () => void;
  /** How often to look for undispatched events without a nudge; default 500 ms. */
  intervalMs?: number;
  /** Events claimed per unit; default 200. */
  batch?: number;
  /**
   * Nudges (one per create) within this many ms share one pass; default 10. A pass is a
   * transaction of three or four statements whatever it carries: under steady creates, back-to-back
   * passes each carried the few events made during the last (`npm run bench -- profile`). 10 ms is
   * nothing against the 5 s an event may take to reach its endpoint (issue 33).
   */
  gatherMs?: number;
}

/** `runOnce()` dispatches until no undispatched event is left and answers how many deliveries it wrote. */
export type WebhookDispatcher = PassLoop;

/**
 * Fans payment events out to webhook endpoints after the fact, so the payment units write nothing
 * for webhooks: each unit claims undispatched events (disjoint across processes), writes their
 * deliveries, one `webhook.deliver` job per endpoint naming that endpoint's deliveries (see
 * server/domain/webhooks/deliver-batch.ts), and marks the events dispatched, atomically.
 * A process that dies mid-pass loses nothing: its transaction rolls back and the events stay.
 */
export function createWebhookDispatcher(opts: WebhookDispatcherOptions): WebhookDispatcher {
  const intervalMs = opts.intervalMs ?? 500;
  const batch = opts.batch ?? 200;
  const pass = async (stopped: () => boolean): Promise<number> => {
    let written = 0;
    for (;;) {
      const now = opts.clock.now();
      const r = await opts.storage.webhooks.dispatchPending(batch, new Date(now), (items) => planDeliveries(items, now));
      written += r.deliveries;
      if (r.deliveries > 0) opts.onJobsWritten?.();
      if (r.events < batch || stopped()) return written;
    }
  };

  return createPassLoop({
    intervalMs,
    gatherMs: opts.gatherMs ?? 10,
    pass,
    onError: (err) => opts.logger.warn({ err: describeError(err) }, 'webhook dispatch pass failed; will retry'),
  });
}
