import { AppError, notFound } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { RateLimit, RateLimiter } from '../../ports/rate-limiter.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import { newId } from '../ids.ts';
import type { PartnerRecord } from '../partners/records.ts';
import type { PaymentEventRecord } from '../payments/records.ts';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from './records.ts';
import { getEndpoint } from './endpoints.ts';
import { deliveryJob, envelopeOf, newDeliveryId } from './events.ts';
import { declaresEvent } from '../payments/wire-versions.ts';

/**
 * Deliveries a partner asks for, outside the dispatcher: an event sent again, or a test event.
 * Each is one delivery and its job written together, in the partner's default API version; the
 * relay is nudged so it goes out now.
 */
export interface WebhookDeliveryDeps {
  storage: StoragePort;
  clock: Clock;
  /** Called after a delivery job was written, so the relay hands it on at once. */
  onJobsWritten?: () => void;
  /**
   * How often deliveries may be asked for (see `DELIVERY_REQUEST_LIMITS`): test events per
   * endpoint, redeliveries per partner. Each adds a row and an attempt (up to 15 s of a webhook
   * slot); unlimited, a partner could keep the webhook pool busy and the delivery log growing.
   * The composition root always passes them; absent (unit tests), nothing is limited.
   */
  requestLimits?: { testEvents: RateLimiter; redeliveries: RateLimiter };
}

/**
 * Test events: 10 in a row per endpoint, then one every 6 s (a developer trying an endpoint sends
 * a few). Redeliveries: 100 in a row per partner, then 2 a second (catching up after an outage
 * goes through them at that pace).
 */
export const DELIVERY_REQUEST_LIMITS: { testEvents: RateLimit; redeliveries: RateLimit } = {
  testEvents: { perSecond: 1 / 6, burst: 10 },
  redeliveries: { perSecond: 2, burst: 100 },
};

/** 429 `rate_limited` (with its Retry-After) once `key` is over its limit. */
async function withinLimit(limiter: RateLimiter | undefined, key: string, what: string): Promise<void> {
  const decision = await limiter?.take(key);
  if (!decision || decision.allowed) return;
  const retryAfterS = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  throw new AppError('rate_limited', `Too many ${what}: retry after ${retryAfterS} s`, { details: { retryAfterS } });
}

type Partner = Pick<PartnerRecord, 'id' | 'defaultVersion'>;

/** Writes a delivery of the event to the endpoint with its job; the delivery as it now stands (pending, due now). */
async function deliver(
  deps: WebhookDeliveryDeps,
  e: WebhookEndpointRecord,
  event: Pick<PaymentEventRecord, 'id' | 'type' | 'createdAt' | 'data'> & { paymentId?: string },
  apiVersion: string,
): Promise<WebhookDeliveryRecord> {
  const now = deps.clock.now();
  const body = envelopeOf(event, apiVersion);
  // Its trace is the request's that asks for it (the storage takes the current one).
  const d = {
    id: newDeliveryId(now),
    endpointId: e.id,
    partnerId: e.partnerId,
    eventId: event.id,
    eventType: event.type,
    body,
    createdAt: new Date(now),
    paymentId: event.paymentId ?? null,
  };
  await deps.storage.webhooks.createDelivery(d, deliveryJob(d));
  deps.onJobsWritten?.();
  return { ...d, status: 'pending', attemptCount: 0, lastStatusCode: null, nextAttemptAt: new Date(now), deliveredAt: null, attempts: [] };
}

/** One of the partner's events sent again to one of its endpoints; 404 for an unknown endpoint, then an unknown event. */
export async function redeliverEvent(deps: WebhookDeliveryDeps, partner: Partner, endpointId: string, eventId: string): Promise<WebhookDeliveryRecord> {
  const e = await getEndpoint(deps, partner.id, endpointId);
  const event = await deps.storage.webhooks.getEvent(partner.id, eventId);
  // An event the pinned version does not declare is not one its endpoints can be sent (nor learn of).
  if (!event || !declaresEvent(event.type, partner.defaultVersion)) throw notFound('No event with this id');
  await withinLimit(deps.requestLimits?.redeliveries, partner.id, 'redeliveries');
  return deliver(deps, e, event, partner.defaultVersion);
}

/** A `webhook.test` event, stored nowhere but in its delivery, sent to one of the partner's endpoints. */
export async function sendTestEvent(deps: WebhookDeliveryDeps, partner: Partner, endpointId: string): Promise<WebhookDeliveryRecord> {
  const e = await getEndpoint(deps, partner.id, endpointId);
  await withinLimit(deps.requestLimits?.testEvents, e.id, 'test events for this endpoint');
  const now = deps.clock.now();
  const event = {
    id: newId('event', now),
    type: 'webhook.test',
    createdAt: new Date(now),
    data: { endpointId: e.id, message: 'A test event: the endpoint receives and verifies deliveries.' },
  };
  return deliver(deps, e, event, partner.defaultVersion);
}
