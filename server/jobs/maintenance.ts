import type { Clock } from '../ports/clock.ts';
import type { JobHandler } from '../ports/queue.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { describeError, type Logger } from '../ports/logger.ts';
import { DEFAULT_LATE_FUNDS_REACH_MS } from '../domain/payments/late-funds-job.ts';

/**
 * Periodic maintenance: purging what storage no longer needs, so it stays bounded without a human.
 * It is one outbox job with a fixed id that reschedules itself (`retryAt`) forever: every process
 * that starts jobs writes it (a second write of the id is ignored), the queue runs one copy at a
 * time whatever the number of processes (BullMQ and the inline queue both ignore a known id),
 * and each run deletes bounded batches, so no run holds a table for long.
 */
export const MAINTENANCE_JOB_TYPE = 'maintenance.purge';
export const MAINTENANCE_JOB_ID = 'job_maintenance_purge';

/** Idempotency keys are kept at least this long (the spec: "kept at least 24 hours per partner"). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;
/**
 * Quotes are kept this long past their deadline, so a wallet confirming a little late still hears
 * 409 `quote_expired` (ask for options again) rather than 404. Chosen quotes are never purged, and
 * a quote funds can arrive for without a confirm is kept while its payment is unpaid, up to the
 * late-funds reach (`lateFundsReachMs`).
 */
export const QUOTE_PURGE_GRACE_MS = 3600_000;

export interface MaintenanceOptions {
  /** Between runs that found nothing more to do; default 10 min. */
  intervalMs?: number;
  /** Rows per delete statement; default 1000. */
  batch?: number;
  /** Statements per table per run; default 10. A run that hits it comes back after `catchUpMs`. */
  maxBatches?: number;
  /** Wait before the next run when the last one left rows behind; default 1 s. */
  catchUpMs?: number;
  /**
   * Settled webhook deliveries (and their attempts) are kept this long, then purged; default 30
   * days (WEBHOOK_DELIVERY_RETENTION_DAYS). Test events and redeliveries add rows too.
   */
  webhookDeliveryRetentionMs?: number;
  /** Quotes late funds may arrive for are kept this long after their payment ended unpaid; default 7 days. */
  lateFundsReachMs?: number;
}

/** How long settled webhook deliveries are kept when nothing says otherwise. */
export const DEFAULT_DELIVERY_RETENTION_MS = 30 * 86_400_000;

type PurgeDeps = { storage: Pick<StoragePort, 'quotes' | 'idempotency' | 'webhooks'>; clock: Clock; logger: Logger };

/** Deletes batch after batch until one comes back short or the run's share is used up. */
async function purge(batches: number, size: number, once: () => Promise<number>): Promise<{ deleted: number; more: boolean }> {
  let deleted = 0;
  for (let i = 0; i < batches; i++) {
    const n = await once();
    deleted += n;
    if (n < size) return { deleted, more: false };
  }
  return { deleted, more: true };
}

/**
 * The `maintenance.purge` handler: expired, unchosen quotes past the grace (and, for the ones late
 * funds may arrive for, past the late-funds reach), idempotency keys past
 * their window, and settled webhook deliveries past their retention. It never throws (a throw would end a BullMQ job after its retries, and the
 * purge with it): a failed run is logged and the next one is scheduled as usual.
 */
export function maintenanceJob(deps: PurgeDeps, opts: MaintenanceOptions = {}): JobHandler {
  const intervalMs = opts.intervalMs ?? 600_000;
  const batch = opts.batch ?? 1000;
  const maxBatches = opts.maxBatches ?? 10;
  const catchUpMs = opts.catchUpMs ?? 1000;
  const retentionMs = opts.webhookDeliveryRetentionMs ?? DEFAULT_DELIVERY_RETENTION_MS;
  const reachMs = opts.lateFundsReachMs ?? DEFAULT_LATE_FUNDS_REACH_MS;
  return async () => {
    const now = deps.clock.now();
    try {
      const quotes = await purge(maxBatches, batch, () => deps.storage.quotes.purgeExpired(new Date(now - QUOTE_PURGE_GRACE_MS), batch, new Date(now - reachMs)));
      const keys = await purge(maxBatches, batch, () => deps.storage.idempotency.purgeCreatedBeforeBatch(new Date(now - IDEMPOTENCY_WINDOW_MS), batch));
      const deliveries = await purge(maxBatches, batch, () => deps.storage.webhooks.purgeSettledDeliveries(new Date(now - retentionMs), batch));
      if (quotes.deleted || keys.deleted || deliveries.deleted) {
        deps.logger.info({ quotes: quotes.deleted, idempotencyKeys: keys.deleted, webhookDeliveries: deliveries.deleted }, 'maintenance: purged');
      }
      return { retryAt: new Date(deps.clock.now() + (quotes.more || keys.more || deliveries.more ? catchUpMs : intervalMs)) };
    } catch (err) {
      deps.logger.warn({ err: describeError(err) }, 'maintenance: purge failed; next run as scheduled');
      return { retryAt: new Date(deps.clock.now() + intervalMs) };
    }
  };
}

/** Writes the maintenance job unless it is already in the outbox; due at once. */
export async function scheduleMaintenance(storage: Pick<StoragePort, 'jobs'>, clock: Clock): Promise<void> {
  const now = new Date(clock.now());
  await storage.jobs.insert([{ id: MAINTENANCE_JOB_ID, type: MAINTENANCE_JOB_TYPE, payload: {}, runAt: now, createdAt: now }]);
}
