import type { PaymentChangeSignal, PaymentChangesPort } from '../../server/ports/payment-changes.ts';

type Listener = (signal: PaymentChangeSignal) => void;

/**
 * The in-memory half every adapter shares: payment id → its subscribers. One notification costs
 * one map lookup however many payments are watched, and an unsubscribed payment leaves no entry.
 */
export interface Subscriptions {
  subscribe: PaymentChangesPort['subscribe'];
  /** A change of one payment (what a notification names). */
  changed(paymentId: string): void;
  /** Everyone, e.g. after a reconnect, when notifications may have been lost. */
  resyncAll(): void;
  /** Everyone is told `closing`; later subscribers at once. */
  closeAll(): void;
  /** Subscribed payments, for diagnostics and tests. */
  readonly size: number;
}

export function createSubscriptions(onListenerError: (err: unknown) => void = () => {}): Subscriptions {
  const byPayment = new Map<string, Set<Listener>>();
  let closed = false;

  // A throwing subscriber must not keep the others of a fan-out from hearing it.
  const call = (fn: Listener, signal: PaymentChangeSignal) => {
    try {
      fn(signal);
    } catch (err) {
      onListenerError(err);
    }
  };
  const everyone = (signal: PaymentChangeSignal) => {
    // Copies first: a woken subscriber usually unsubscribes (or subscribes again) at once.
    for (const fns of [...byPayment.values()]) for (const fn of [...fns]) call(fn, signal);
  };

  return {
    subscribe(paymentId, onSignal) {
      if (closed) {
        queueMicrotask(() => call(onSignal, 'closing'));
        return () => {};
      }
      let fns = byPayment.get(paymentId);
      if (!fns) byPayment.set(paymentId, (fns = new Set()));
      // A wrapper, so the same function subscribed twice is two subscriptions.
      const entry: Listener = (s) => onSignal(s);
      fns.add(entry);
      return () => {
        const current = byPayment.get(paymentId);
        if (!current?.delete(entry)) return;
        if (current.size === 0) byPayment.delete(paymentId);
      };
    },
    changed(paymentId) {
      const fns = byPayment.get(paymentId);
      if (fns) for (const fn of [...fns]) call(fn, 'changed');
    },
    resyncAll: () => everyone('resync'),
    closeAll() {
      if (closed) return;
      closed = true;
      everyone('closing');
    },
    get size() {
      return byPayment.size;
    },
  };
}
