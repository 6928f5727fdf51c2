import type { PaymentChangesPort } from '../../../server/ports/payment-changes.ts';
import { createSubscriptions } from '../subscriptions.ts';

/**
 * In-process change events: whoever changes a payment in this process calls `publish`. For
 * tests and for a storage with no notifications of its own; the PostgreSQL storage (server or
 * embedded) notifies by itself, so the service uses the PostgreSQL adapter with it.
 */
export interface MemoryPaymentChanges extends PaymentChangesPort {
  publish(paymentId: string): void;
  /** What a reconnecting listener does: every subscriber re-reads. */
  resyncAll(): void;
  /** Subscribed payments. */
  readonly size: number;
}

export function createMemoryPaymentChanges(): MemoryPaymentChanges {
  const subs = createSubscriptions();
  return {
    subscribe: subs.subscribe,
    publish: (paymentId) => subs.changed(paymentId),
    resyncAll: () => subs.resyncAll(),
    async close() {
      subs.closeAll();
    },
    get size() {
      return subs.size;
    },
  };
}
