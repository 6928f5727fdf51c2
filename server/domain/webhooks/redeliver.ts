import { notFound } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import { newId } from '../ids.ts';
import type { PartnerRecord } from '../partners/records.ts';
import type { PaymentEventRecord } from '../payments/records.ts';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from './records.ts';
import { getEndpoint } from './endpoints.ts';
import { deliveryJob, envelopeOf, newDeliveryId } from './events.ts';

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
  if (!event) throw notFound('No event with this id');
  return deliver(deps, e, event, partner.defaultVersion);
}

/** A `webhook.test` event, stored nowhere but in its delivery, sent to one of the partner's endpoints. */
export async function sendTestEvent(deps: WebhookDeliveryDeps, partner: Partner, endpointId: string): Promise<WebhookDeliveryRecord> {
  const e = await getEndpoint(deps, partner.id, endpointId);
  const now = deps.clock.now();
  const event = {
    id: newId('event', now),
    type: 'webhook.test',
    createdAt: new Date(now),
    data: { endpointId: e.id, message: 'A test event: the endpoint receives and verifies deliveries.' },
  };
  return deliver(deps, e, event, partner.defaultVersion);
}
