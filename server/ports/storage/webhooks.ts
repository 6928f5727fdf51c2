import type { PaymentEventRecord } from '../../domain/payments/records.ts';
import type { NewJob } from '../../domain/jobs/records.ts';
import type {
  NewWebhookDelivery,
  WebhookAttemptRecord,
  WebhookDeliveryPlan,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookDispatchItem,
  WebhookEndpointPatch,
  WebhookEndpointRecord,
} from '../../domain/webhooks/records.ts';

/**
 * Webhook endpoints and deliveries. Endpoints are read and written within their partner (the
 * delivery side alone reads by id); each event is dispatched once, and each delivery attempt is
 * recorded once.
 */
export interface WebhookRepository {
  createEndpoint(endpoint: WebhookEndpointRecord): Promise<void>;
  /**
   * Creates the endpoint unless its partner already has `limit` live (not deleted) ones; false,
   * with nothing written, when it has. Concurrent creates for one partner cannot overshoot.
   */
  createEndpointWithinLimit(endpoint: WebhookEndpointRecord, limit: number): Promise<boolean>;
  /** The partner's live endpoints, newest first. */
  listEndpoints(partnerId: string): Promise<WebhookEndpointRecord[]>;
  /** A live endpoint of this partner. */
  getEndpoint(partnerId: string, id: string): Promise<WebhookEndpointRecord | null>;
  /** By id alone, deleted ones included: the delivery side. */
  getEndpointById(id: string): Promise<WebhookEndpointRecord | null>;
  updateEndpoint(partnerId: string, id: string, patch: WebhookEndpointPatch): Promise<WebhookEndpointRecord | null>;
  /** True when a live endpoint was deleted by this call. */
  deleteEndpoint(partnerId: string, id: string, at: Date): Promise<boolean>;
  /**
   * One unit: claims up to `limit` undispatched payment events (disjoint across processes), writes
   * the deliveries and jobs `plan` makes of them (jobs created at `now`), and marks the events
   * dispatched. Answers how many events and deliveries it wrote.
   */
  dispatchPending(limit: number, now: Date, plan: (items: WebhookDispatchItem[]) => WebhookDeliveryPlan): Promise<{ events: number; deliveries: number }>;
  /** A delivery and the job that sends it, in one unit (redelivery, test events); the job is created with the delivery. */
  createDelivery(delivery: NewWebhookDelivery, job: NewJob): Promise<void>;
  /** One of the partner's payment events. */
  getEvent(partnerId: string, eventId: string): Promise<PaymentEventRecord | null>;
  getDelivery(id: string): Promise<WebhookDeliveryRecord | null>;
  /**
   * What one delivery attempt reads: the delivery (without its attempts) and its endpoint by id,
   * deleted ones included (null when the endpoint row is gone); null when the delivery is unknown.
   */
  getDeliveryToSend(id: string): Promise<{ delivery: Omit<WebhookDeliveryRecord, 'attempts'>; endpoint: WebhookEndpointRecord | null } | null>;
  /**
   * Records an attempt and the delivery's new state, in one unit; false (nothing written) when the
   * delivery is no longer pending or this attempt number is already recorded.
   */
  recordAttempt(deliveryId: string, attempt: WebhookAttemptRecord, next: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null }): Promise<boolean>;
  /**
   * Deletes up to `limit` settled deliveries (delivered or failed) made before `before`, with
   * their attempts; answers how many. Pending ones stay, whatever their age: their retries still
   * run. Bounded, so the periodic purge never holds the table for long.
   */
  purgeSettledDeliveries(before: Date, limit: number): Promise<number>;
  /** An endpoint's deliveries, newest first, with their attempts. */
  listDeliveries(partnerId: string, endpointId: string, q: { beforeId?: string; limit: number }): Promise<WebhookDeliveryRecord[]>;
}
