/** Webhook endpoints of a partner, and the deliveries of payment events to them. */
import type { NewJob } from '../jobs/records.ts';
import type { PaymentEventRecord } from '../payments/records.ts';

/** A partner's webhook receiver. `secret` signs deliveries; after a rotation `previousSecret` signs beside it until it expires. */
export interface WebhookEndpointRecord {
  id: string;
  partnerId: string;
  url: string;
  enabledEvents: string[];
  enabled: boolean;
  /** Set when the service turned the endpoint off (`gone`: the receiver answered 410). */
  disabledReason: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export type WebhookEndpointPatch = Partial<
  Pick<WebhookEndpointRecord, 'url' | 'enabledEvents' | 'enabled' | 'disabledReason' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>
> & { updatedAt: Date };

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookAttemptRecord {
  attempt: number;
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** One event to one endpoint; `body` is the exact envelope every attempt posts. */
export interface WebhookDeliveryRecord {
  id: string;
  endpointId: string;
  partnerId: string;
  eventId: string;
  eventType: string;
  body: string;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  lastStatusCode: number | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
  attempts: WebhookAttemptRecord[];
  /** The trace of the change that caused its event, and the event's payment (null for a test event): its attempts are logged in them. */
  traceId?: string | null;
  paymentId?: string | null;
}

/** A delivery to write (pending, not yet attempted). */
export type NewWebhookDelivery = Omit<WebhookDeliveryRecord, 'status' | 'attemptCount' | 'lastStatusCode' | 'nextAttemptAt' | 'deliveredAt' | 'attempts'>;

/** Deliveries and the outbox jobs that send them, written together. */
export interface WebhookDeliveryPlan {
  deliveries: NewWebhookDelivery[];
  jobs: NewJob[];
}

/** An undispatched event with the endpoints of its partner subscribed to its type. */
export interface WebhookDispatchItem {
  event: PaymentEventRecord;
  /** The partner's pinned API version (the envelope's `api_version`). */
  apiVersion: string;
  endpointIds: string[];
}
