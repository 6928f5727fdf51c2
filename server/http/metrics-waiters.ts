import type { MetricsPort } from '../ports/metrics.ts';
import type { PaymentChangesPort } from '../ports/payment-changes.ts';
import { METRICS } from '../ports/metric-catalog.ts';

/**
 * Payment changes that count their subscribers into `payment_long_poll_waiters`: every
 * subscription is a long-poll waiting (server/domain/payments/long-poll.ts is the one
 * subscriber), so the gauge is exact without touching the wait itself.
 */
export function countedWaiters(changes: PaymentChangesPort, metrics: MetricsPort): PaymentChangesPort {
  return {
    subscribe(paymentId, onSignal) {
      const unsubscribe = changes.subscribe(paymentId, onSignal);
      metrics.add(METRICS.longPollWaiters, {}, 1);
      let gone = false;
      return () => {
        if (!gone) metrics.add(METRICS.longPollWaiters, {}, -1);
        gone = true;
        unsubscribe();
      };
    },
    close: () => changes.close(),
  };
}
