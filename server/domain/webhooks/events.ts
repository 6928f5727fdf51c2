import { monotonicUlid } from '../ulid.ts';
import type { NewWebhookDelivery, WebhookDeliveryPlan, WebhookDispatchItem } from './records.ts';
import type { NewJob } from '../jobs/records.ts';
import type { PaymentEventRecord } from '../payments/records.ts';
import { newId } from '../ids.ts';
import { declaresEvent, snapshotFor } from '../payments/wire-versions.ts';

const nextUlid = monotonicUlid();

/** Delivery ids sort by creation, so an endpoint's deliveries page newest first by id. */
export function newDeliveryId(now: number): string {
  return `whdl_${nextUlid(now)}`;
}

/**
 * The body every attempt posts: `{ id, type, api_version, created_at, data }`, `data` being the
 * stored snapshot (which carries `payment_state_version`) as `apiVersion` declares it. Built once
 * per delivery and stored, so retries and redeliveries send the same bytes.
 */
export function envelopeOf(event: Pick<PaymentEventRecord, 'id' | 'type' | 'createdAt' | 'data'>, apiVersion: string): string {
  return JSON.stringify({ id: event.id, type: event.type, api_version: apiVersion, created_at: event.createdAt.toISOString(), data: snapshotFor(event.data, apiVersion) });
}

/** The job that sends a delivery: `webhook.deliver`, due at once, naming the delivery and its endpoint. */
export function deliveryJob(d: Pick<NewWebhookDelivery, 'id' | 'endpointId' | 'createdAt'>): NewJob {
  return { id: newId('job', d.createdAt.getTime()), type: 'webhook.deliver', payload: { deliveryId: d.id, endpointId: d.endpointId }, runAt: d.createdAt };
}

/**
 * One delivery per event × subscribed endpoint, and one `webhook.deliver` job per endpoint naming
 * its deliveries in event order (see deliver-batch.ts for why a batch): the dispatcher's plan.
 * Events the partner's pinned version does not declare are left out.
 * Delivery ids are handed out in ascending order, so the deliveries of one pass list in event
 * order (ids of one millisecond otherwise sort at random among themselves).
 */
export function planDeliveries(items: WebhookDispatchItem[], now: number): WebhookDeliveryPlan {
  // An event type the version does not declare is sent to none of its endpoints (it is recorded, shown and alerted on).
  const planned = items.flatMap(({ event, apiVersion, endpointIds }) => {
    if (!declaresEvent(event.type, apiVersion)) return [];
    const body = envelopeOf(event, apiVersion);
    const traced = { traceId: event.traceId ?? null, paymentId: event.paymentId };
    return endpointIds.map((endpointId) => ({ endpointId, partnerId: event.partnerId, eventId: event.id, eventType: event.type, body, createdAt: new Date(now), ...traced }));
  });
  const ids = planned.map(() => newDeliveryId(now)).sort();
  const deliveries = planned.map((d, i) => ({ id: ids[i]!, ...d }));
  const byEndpoint = new Map<string, { ids: string[]; traceIds: Set<string | null> }>();
  for (const d of deliveries) {
    const batch = byEndpoint.get(d.endpointId) ?? { ids: [], traceIds: new Set() };
    batch.ids.push(d.id);
    batch.traceIds.add(d.traceId);
    byEndpoint.set(d.endpointId, batch);
  }
  // A batch job is in its deliveries' trace when they share one; each delivery is sent in its own.
  const jobs = [...byEndpoint].map(([endpointId, { ids, traceIds }]) => ({
    id: newId('job', now),
    type: 'webhook.deliver',
    payload: { endpointId, deliveryIds: ids },
    runAt: new Date(now),
    traceId: traceIds.size === 1 ? [...traceIds][0]! : null,
  }));
  return { deliveries, jobs };
}
