import type { PaymentEventRecord } from '../../../server/domain/payments/records.ts';
import type { WebhookAttemptRecord, WebhookDeliveryRecord, WebhookEndpointRecord } from '../../../server/domain/webhooks/records.ts';
import { scalarText } from './rows.ts';

/** Row → record mapping for the webhook tables (both engines answer the same shapes). */
type Row = Record<string, unknown>;

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : scalarText(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function toEndpoint(r: Row): WebhookEndpointRecord {
  return {
    id: String(r.id),
    partnerId: String(r.partner_id),
    url: String(r.url),
    enabledEvents: (r.enabled_events as string[]).map(String),
    enabled: Boolean(r.enabled),
    disabledReason: strOrNull(r.disabled_reason),
    secret: String(r.secret),
    previousSecret: strOrNull(r.previous_secret),
    previousSecretExpiresAt: dateOrNull(r.previous_secret_expires_at),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
    deletedAt: dateOrNull(r.deleted_at),
  };
}

export function toAttempt(r: Row): WebhookAttemptRecord {
  return { attempt: Number(r.attempt), at: date(r.at), statusCode: numOrNull(r.status_code), durationMs: Number(r.duration_ms), error: strOrNull(r.error) };
}

export function toDelivery(r: Row, attempts: WebhookAttemptRecord[]): WebhookDeliveryRecord {
  return {
    id: String(r.id),
    endpointId: String(r.endpoint_id),
    partnerId: String(r.partner_id),
    eventId: String(r.event_id),
    eventType: String(r.event_type),
    body: String(r.body),
    status: String(r.status) as WebhookDeliveryRecord['status'],
    attemptCount: Number(r.attempt_count),
    lastStatusCode: numOrNull(r.last_status_code),
    nextAttemptAt: dateOrNull(r.next_attempt_at),
    createdAt: date(r.created_at),
    deliveredAt: dateOrNull(r.delivered_at),
    attempts,
    traceId: strOrNull(r.trace_id),
    paymentId: strOrNull(r.payment_id),
  };
}

/** A delivery row with its endpoint as `to_jsonb` made it (null when the endpoint row is missing). */
export function toPendingDelivery(r: Row): { delivery: Omit<WebhookDeliveryRecord, 'attempts'>; endpoint: WebhookEndpointRecord | null } {
  const { attempts: _, ...delivery } = toDelivery(r, []);
  const e = typeof r.endpoint === 'string' ? (JSON.parse(r.endpoint) as Row) : (r.endpoint as Row | null);
  return { delivery, endpoint: e ? toEndpoint(e) : null };
}

export function toEvent(r: Row): PaymentEventRecord {
  return {
    id: String(r.id),
    paymentId: String(r.payment_id),
    partnerId: String(r.partner_id),
    type: String(r.type),
    stateVersion: Number(r.state_version),
    createdAt: date(r.created_at),
    data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data,
    traceId: strOrNull(r.trace_id),
  };
}
