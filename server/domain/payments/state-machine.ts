/**
 * The payment state machine: the only table of allowed transitions. Every status change goes
 * through `transitionPayment` (transition.ts), which asks storage to apply it only if the
 * payment is still in one of the states this table allows it from; so two racing transitions
 * (cancel against confirm, expiry against success) end in exactly one winner.
 */
export const PAYMENT_STATUSES = ['requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

const ALLOWED: Record<PaymentStatus, readonly PaymentStatus[]> = {
  requires_action: ['processing', 'succeeded', 'failed', 'expired', 'cancelled'],
  // Once funds may be moving, only the chain decides: no expiry, no cancel.
  processing: ['succeeded', 'failed'],
  succeeded: [],
  failed: [],
  expired: [],
  cancelled: [],
};

export const FINAL_STATUSES: ReadonlySet<PaymentStatus> = new Set(['succeeded', 'failed', 'expired', 'cancelled']);

export const isFinal = (s: PaymentStatus) => FINAL_STATUSES.has(s);

export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return ALLOWED[from].includes(to);
}

/** The states a payment may be in for a move to `to`. */
export function sourcesOf(to: PaymentStatus): PaymentStatus[] {
  return PAYMENT_STATUSES.filter((from) => ALLOWED[from].includes(to));
}

/** The event each state is announced with. */
export const EVENT_TYPE: Record<PaymentStatus, string> = {
  requires_action: 'payment.created',
  processing: 'payment.processing',
  succeeded: 'payment.succeeded',
  failed: 'payment.failed',
  expired: 'payment.expired',
  cancelled: 'payment.cancelled',
};

/** How long a poller should wait; null once nothing will change. */
export function pollInMs(status: PaymentStatus): number | null {
  if (status === 'requires_action') return 2000;
  if (status === 'processing') return 1000;
  return null;
}
