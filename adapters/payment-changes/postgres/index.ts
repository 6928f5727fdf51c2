import type { PaymentChangesPort } from '../../../server/ports/payment-changes.ts';
import { createSubscriptions } from '../subscriptions.ts';
import { startServerListener } from './server-listener.ts';

/**
 * Where a PostgreSQL database delivers notifications: in-process for the embedded engine, on a
 * connection of the listener's own for a server. The PostgreSQL storage's `db.notifications` has
 * this shape; it is restated here so this adapter depends on no other adapter's code.
 */
export type NotificationSource =
  { engine: 'pglite'; listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> } | { engine: 'server'; url: string };

export interface PostgresPaymentChangesOptions {
  /** The PostgreSQL storage's database (`createPostgresStorage(…).db`), whose changes it announces. */
  db: { notifications: NotificationSource };
  /** The channel the storage notifies payment changes on (its `PAYMENT_CHANGES_CHANNEL`), handed in by the composition root. */
  channel: string;
  /** Server only: delay before reconnecting a dropped listener, doubling from minMs up to maxMs. */
  reconnect?: { minMs?: number; maxMs?: number };
  /** Server only: the listener's name in pg_stat_activity. */
  applicationName?: string;
  /** A lost connection or a failed reconnect (the listener keeps trying); default: ignored. */
  onError?: (err: unknown) => void;
}

/**
 * Payment changes from PostgreSQL LISTEN/NOTIFY: the storage notifies inside the transaction
 * that changes a payment, so every process on the database (API processes, workers) hears each
 * change exactly at its commit, whoever made it. One listener per process, on a connection of
 * its own for a server or in-process for the embedded engine (PGlite delivers NOTIFY too).
 */
export async function createPostgresPaymentChanges(opts: PostgresPaymentChangesOptions): Promise<PaymentChangesPort> {
  const minMs = opts.reconnect?.minMs ?? 100;
  const maxMs = opts.reconnect?.maxMs ?? 5_000;
  if (!(Number.isFinite(minMs) && minMs > 0 && maxMs >= minMs)) throw new Error('payment changes: reconnect needs 0 < minMs <= maxMs');
  const onError = opts.onError ?? (() => {});
  const subs = createSubscriptions(onError);
  const source = opts.db.notifications;

  let stop: () => Promise<void>;
  if (source.engine === 'pglite') {
    // One engine in this process: nothing to lose, nothing to reconnect.
    stop = await source.listen(opts.channel, (id) => subs.changed(id));
  } else {
    const listener = await startServerListener({
      url: source.url,
      channel: opts.channel,
      applicationName: opts.applicationName ?? 'mps-payment-changes',
      reconnect: { minMs, maxMs },
      onPayload: (id) => subs.changed(id),
      // Listening again, but what was notified meanwhile is gone: every waiter reads once.
      onReconnected: () => subs.resyncAll(),
      onError,
    });
    stop = () => listener.close();
  }
  return {
    subscribe: subs.subscribe,
    async close() {
      subs.closeAll();
      // Closing after the storage (its engine already gone) has nothing left to release.
      await stop().catch(onError);
    },
  };
}
