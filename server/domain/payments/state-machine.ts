import type { WebhookEventType } from '../webhooks/event-types.ts';
import type { Exact, SpecSchema } from '../vocabulary.ts';

/**
 * The payment state machine: the only table of allowed transitions. Every status change goes
 * through `transitionPayment` (transition.ts), which asks storage to apply it only if the
 * payment is still in one of the states this table allows it from; so two racing transitions
 * (cancel against confirm, expiry against success) end in exactly one winner.
 */

/** Every status a payment may be in: the spec's `PaymentStatus`, listed once for the runtime. */
export const PAYMENT_STATUSES = ['requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled'] as const satisfies readonly SpecSchema<'PaymentStatus'>[];
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
// A status the spec declares and this list lacks (or the reverse) fails typecheck here.
const _statusesAreTheSpecs: Exact<PaymentStatus, SpecSchema<'PaymentStatus'>> = true;

const ALLOWED: Record<PaymentStatus, readonly PaymentStatus[]> = {
  requires_action: ['processing', 'succeeded', 'failed', 'expired', 'cancelled'],
  // Once funds may be moving, only the chain decides: no expiry, no cancel. Back to
  // requires_action only when the chain shows the attempt can no longer pay the merchant
  // (reverted, its authorization used up elsewhere, its hash never seen): nothing a buyer does
  // may pin a payment.
  processing: ['succeeded', 'failed', 'requires_action'],
  succeeded: [],
  // Funds that reach the merchant after the payment ended, found final on chain for one of its
  // quotes (late-funds-job.ts), still paid it: the payment counts as paid with that transaction.
  // Only from a caller that read the payment in this state (transition.ts), never as a race's winner.
  failed: ['succeeded'],
  expired: ['succeeded'],
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

/** The event a new payment is announced with. */
export const CREATED_EVENT_TYPE = 'payment.created' satisfies WebhookEventType;

/** The event a refund is announced with (a refund is not a status: the payment stays succeeded). */
export const REFUNDED_EVENT_TYPE = 'payment.refunded' satisfies WebhookEventType;

/** The event each move into a state is announced with, `payment.<status>` (a new payment: CREATED_EVENT_TYPE). */
export const EVENT_TYPE = Object.fromEntries(PAYMENT_STATUSES.map((s) => [s, `payment.${s}`])) as { readonly [S in PaymentStatus]: `payment.${S}` };
// Every status's event is one the spec lets an endpoint subscribe to.
const _everyMoveHasASpecEvent: Exact<(typeof EVENT_TYPE)[PaymentStatus] extends WebhookEventType ? true : false, true> = true;

/** How long a poller should wait; null once nothing will change. */
export function pollInMs(status: PaymentStatus): number | null {
  if (status === 'requires_action') return 2000;
  if (status === 'processing') return 1000;
  return null;
}
