// A leaf module (it imports only the vocabulary): the state machine names event types, and the
// webhook records import payment records, so the list cannot live beside the delivery code without a cycle.
import type { Exact, SpecSchema } from '../vocabulary.ts';

/** The event types an endpoint may subscribe to: the spec's `WebhookEventType`, listed once for the runtime. */
export const WEBHOOK_EVENT_TYPES = [
  'payment.created',
  'payment.processing',
  'payment.requires_action',
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.cancelled',
  'payment.refunded',
  // From 2026-11-27 (see payments/wire-versions.ts): a succeeded payment's block dropped for good.
  'payment.reversed',
  // From 2026-11-28 (late-funds-job.ts): a succeeded payment paid again.
  'payment.paid_twice',
] as const satisfies readonly SpecSchema<'WebhookEventType'>[];
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
// An event type the spec declares and this list lacks (or the reverse) fails typecheck here.
const _eventTypesAreTheSpecs: Exact<WebhookEventType, SpecSchema<'WebhookEventType'>> = true;
