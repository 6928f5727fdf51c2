import type { Clock } from '../ports/clock.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import type { RateLimiter } from '../ports/rate-limiter.ts';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../domain/webhooks/records.ts';
import { partnerOf } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import type { WebhookEventType as EventType } from '../domain/webhooks/event-types.ts';
import type { EndpointUrlPolicy } from '../domain/webhooks/url-policy.ts';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
  type WebhookEndpointDeps,
} from '../domain/webhooks/endpoints.ts';
import { redeliverEvent, sendTestEvent, type WebhookDeliveryDeps } from '../domain/webhooks/redeliver.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { auditApiAction } from './api-audit.ts';

export interface WebhookHandlerDeps {
  storage: StoragePort;
  clock: Clock;
  /** What an endpoint URL must satisfy (loopback allowance, own port, DNS, address guard): built by the composition root. */
  webhookEndpoints: EndpointUrlPolicy;
  /** Called after a delivery job was written, so the relay hands it on at once. */
  onJobsWritten?: () => void;
  /** Test events per endpoint and redeliveries per partner (see redeliver.ts); absent: not limited. */
  webhookRequestLimits?: { testEvents: RateLimiter; redeliveries: RateLimiter };
}

type WebhookOps =
  | 'createWebhookEndpoint'
  | 'listWebhookEndpoints'
  | 'getWebhookEndpoint'
  | 'updateWebhookEndpoint'
  | 'deleteWebhookEndpoint'
  | 'rotateWebhookSecret'
  | 'listWebhookDeliveries'
  | 'redeliverWebhookEvent'
  | 'sendTestWebhook';

const iso = (d: Date | null) => d?.toISOString() ?? null;

function endpointView(e: WebhookEndpointRecord, now: number) {
  const overlap = e.previousSecretExpiresAt && e.previousSecretExpiresAt.getTime() > now ? e.previousSecretExpiresAt : null;
  return {
    id: e.id,
    url: e.url,
    enabledEvents: e.enabledEvents as EventType[],
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    previousSecretExpiresAt: iso(overlap),
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

function deliveryView(d: WebhookDeliveryRecord) {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attemptCount: d.attemptCount,
    lastStatusCode: d.lastStatusCode,
    nextAttemptAt: iso(d.nextAttemptAt),
    createdAt: d.createdAt.toISOString(),
    deliveredAt: iso(d.deliveredAt),
    attempts: d.attempts.map((a) => ({ attempt: a.attempt, at: a.at.toISOString(), statusCode: a.statusCode, durationMs: a.durationMs, error: shownError(a.error) })),
  };
}

/**
 * An attempt's error as the partner sees it: a class, never a socket message (attempts recorded
 * before errors were classed may hold one), so the log cannot tell a closed port from an open one.
 */
export function shownError(error: string | null): string | null {
  if (error === null || error === 'timeout' || error === 'connection_failed' || error === 'endpoint disabled or deleted') return error;
  return error.startsWith('timeout') ? 'timeout' : 'connection_failed';
}

/** HTTP ↔ the webhook endpoint and delivery use cases (server/domain/webhooks/endpoints.ts, redeliver.ts). */
export function webhookHandlers(deps: WebhookHandlerDeps): Pick<OperationHandlers, WebhookOps> {
  const { clock } = deps;
  const endpoints: WebhookEndpointDeps = { storage: deps.storage, clock, endpointPolicy: deps.webhookEndpoints };
  const deliveries: WebhookDeliveryDeps = {
    storage: deps.storage,
    clock,
    ...(deps.onJobsWritten ? { onJobsWritten: deps.onJobsWritten } : {}),
    ...(deps.webhookRequestLimits ? { requestLimits: deps.webhookRequestLimits } : {}),
  };
  const accepted = (d: WebhookDeliveryRecord) => ({ status: 202 as const, body: { delivery: deliveryView(d) } });

  return {
    async createWebhookEndpoint({ body, ctx }) {
      const e = await createEndpoint(endpoints, partnerOf(ctx), body);
      await auditApiAction(deps, ctx, 'webhook_endpoint.create', { type: 'webhook_endpoint', id: e.id }, { url: e.url });
      return { status: 201, body: { endpoint: endpointView(e, e.createdAt.getTime()), secret: e.secret } };
    },

    async listWebhookEndpoints({ ctx }) {
      const list = await listEndpoints(endpoints, partnerOf(ctx).id);
      const now = clock.now();
      return { status: 200, body: { data: list.map((e) => endpointView(e, now)) } };
    },

    async getWebhookEndpoint({ path, ctx }) {
      return { status: 200, body: { endpoint: endpointView(await getEndpoint(endpoints, partnerOf(ctx).id, path.endpointId), clock.now()) } };
    },

    async updateWebhookEndpoint({ path, body, ctx }) {
      const updated = await updateEndpoint(endpoints, partnerOf(ctx), path.endpointId, body);
      const target = { type: 'webhook_endpoint', id: updated.id };
      if (body.url !== undefined || body.enabledEvents !== undefined)
        await auditApiAction(deps, ctx, 'webhook_endpoint.update', target, { url: updated.url, events: updated.enabledEvents.join(' ') });
      if (body.enabled !== undefined) await auditApiAction(deps, ctx, body.enabled ? 'webhook_endpoint.enable' : 'webhook_endpoint.disable', target);
      return { status: 200, body: { endpoint: endpointView(updated, clock.now()) } };
    },

    async deleteWebhookEndpoint({ path, ctx }) {
      await deleteEndpoint(endpoints, partnerOf(ctx).id, path.endpointId);
      await auditApiAction(deps, ctx, 'webhook_endpoint.delete', { type: 'webhook_endpoint', id: path.endpointId });
      return { status: 200, body: { id: path.endpointId, deleted: true } };
    },

    async rotateWebhookSecret({ path, ctx }) {
      const updated = await rotateSecret(endpoints, partnerOf(ctx).id, path.endpointId);
      await auditApiAction(deps, ctx, 'webhook_endpoint.rotate_secret', { type: 'webhook_endpoint', id: updated.id });
      return { status: 200, body: { endpoint: endpointView(updated, clock.now()), secret: updated.secret } };
    },

    async listWebhookDeliveries({ path, query, ctx }) {
      const limit = query.limit ?? 20;
      const after = decodeCursor(query.cursor, ['before'] as const);
      const items = await listDeliveries(endpoints, partnerOf(ctx).id, path.endpointId, { ...(after ? { beforeId: after.before } : {}), limit: limit + 1 });
      const page = items.slice(0, limit);
      const last = page[page.length - 1];
      return { status: 200, body: { data: page.map(deliveryView), nextCursor: items.length > limit && last ? encodeCursor({ before: last.id }) : null } };
    },

    async redeliverWebhookEvent({ path, ctx }) {
      return accepted(await redeliverEvent(deliveries, partnerOf(ctx), path.endpointId, path.eventId));
    },

    async sendTestWebhook({ path, ctx }) {
      return accepted(await sendTestEvent(deliveries, partnerOf(ctx), path.endpointId));
    },
  };
}
