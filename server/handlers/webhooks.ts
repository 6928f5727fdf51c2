import { AppError, notFound, validationError } from '../errors.ts';
import { newId } from '../domain/ids.ts';
import type { Clock } from '../ports/clock.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../domain/webhooks/records.ts';
import { partnerOf } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import { deliveryJob, envelopeOf, newDeliveryId } from '../domain/webhooks/events.ts';
import type { WebhookEventType as EventType } from '../domain/webhooks/event-types.ts';
import { SECRET_OVERLAP_MS } from '../domain/webhooks/schedule.ts';
import { MAX_WEBHOOK_ENDPOINTS } from '../domain/webhooks/limits.ts';
import { newWebhookSecret } from '../domain/webhooks/signing.ts';
import { endpointUrlProblem, type EndpointUrlPolicy } from '../domain/webhooks/url-policy.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

export interface WebhookHandlerDeps {
  storage: StoragePort;
  clock: Clock;
  /** What an endpoint URL must satisfy (loopback allowance, own port, DNS, address guard): built by the composition root. */
  webhookEndpoints: EndpointUrlPolicy;
  /** Called after a delivery job was written, so the relay hands it on at once. */
  onJobsWritten?: () => void;
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
function shownError(error: string | null): string | null {
  if (error === null || error === 'timeout' || error === 'connection_failed' || error === 'endpoint disabled or deleted') return error;
  return error.startsWith('timeout') ? 'timeout' : 'connection_failed';
}

/** Webhook endpoints and their deliveries: the partner side of the Webhooks area. */
export function webhookHandlers(deps: WebhookHandlerDeps): Pick<OperationHandlers, WebhookOps> {
  const { storage, clock } = deps;
  const policy = deps.webhookEndpoints;

  async function assertUrl(url: string) {
    const problem = await endpointUrlProblem(url, policy);
    if (problem) throw validationError([{ field: 'body.url', message: problem }], 'The webhook URL is not acceptable');
  }
  async function endpointOf(partnerId: string, id: string) {
    const e = await storage.webhooks.getEndpoint(partnerId, id);
    if (!e) throw notFound('No webhook endpoint with this id');
    return e;
  }
  /** Writes a delivery of `body` with its job; the relay is nudged so it goes out now. */
  async function deliver(e: WebhookEndpointRecord, event: { id: string; type: string }, body: string) {
    const now = clock.now();
    const d = { id: newDeliveryId(now), endpointId: e.id, partnerId: e.partnerId, eventId: event.id, eventType: event.type, body, createdAt: new Date(now) };
    await storage.webhooks.createDelivery(d, deliveryJob(d));
    deps.onJobsWritten?.();
    return {
      status: 202 as const,
      body: { delivery: deliveryView({ ...d, status: 'pending', attemptCount: 0, lastStatusCode: null, nextAttemptAt: new Date(now), deliveredAt: null, attempts: [] }) },
    };
  }

  return {
    async createWebhookEndpoint({ body, ctx }) {
      const partner = partnerOf(ctx);
      await assertUrl(body.url);
      const now = new Date(clock.now());
      const e: WebhookEndpointRecord = {
        id: newId('webhookEndpoint', now.getTime()),
        partnerId: partner.id,
        url: body.url,
        enabledEvents: [...new Set(body.enabledEvents)],
        enabled: body.enabled ?? true,
        disabledReason: null,
        secret: newWebhookSecret(),
        previousSecret: null,
        previousSecretExpiresAt: null,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      };
      if (!(await storage.webhooks.createEndpointWithinLimit(e, MAX_WEBHOOK_ENDPOINTS))) {
        throw new AppError('webhook_endpoint_limit', `A partner may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`, {
          details: { limit: MAX_WEBHOOK_ENDPOINTS },
        });
      }
      return { status: 201, body: { endpoint: endpointView(e, now.getTime()), secret: e.secret } };
    },

    async listWebhookEndpoints({ ctx }) {
      const now = clock.now();
      return { status: 200, body: { data: (await storage.webhooks.listEndpoints(partnerOf(ctx).id)).map((e) => endpointView(e, now)) } };
    },

    async getWebhookEndpoint({ path, ctx }) {
      return { status: 200, body: { endpoint: endpointView(await endpointOf(partnerOf(ctx).id, path.endpointId), clock.now()) } };
    },

    async updateWebhookEndpoint({ path, body, ctx }) {
      const partner = partnerOf(ctx);
      if (body.url === undefined && body.enabledEvents === undefined && body.enabled === undefined) {
        throw validationError([{ field: 'body', message: 'give at least one of url, enabledEvents, enabled' }]);
      }
      await endpointOf(partner.id, path.endpointId);
      if (body.url !== undefined) await assertUrl(body.url);
      const updated = await storage.webhooks.updateEndpoint(partner.id, path.endpointId, {
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.enabledEvents !== undefined ? { enabledEvents: [...new Set(body.enabledEvents)] } : {}),
        // Turning an endpoint back on clears why the service had turned it off.
        ...(body.enabled !== undefined ? { enabled: body.enabled, ...(body.enabled ? { disabledReason: null } : {}) } : {}),
        updatedAt: new Date(clock.now()),
      });
      if (!updated) throw notFound('No webhook endpoint with this id');
      return { status: 200, body: { endpoint: endpointView(updated, clock.now()) } };
    },

    async deleteWebhookEndpoint({ path, ctx }) {
      if (!(await storage.webhooks.deleteEndpoint(partnerOf(ctx).id, path.endpointId, new Date(clock.now())))) throw notFound('No webhook endpoint with this id');
      return { status: 200, body: { id: path.endpointId, deleted: true } };
    },

    async rotateWebhookSecret({ path, ctx }) {
      const partner = partnerOf(ctx);
      const e = await endpointOf(partner.id, path.endpointId);
      const now = clock.now();
      const secret = newWebhookSecret();
      const updated = await storage.webhooks.updateEndpoint(partner.id, e.id, {
        secret,
        previousSecret: e.secret,
        previousSecretExpiresAt: new Date(now + SECRET_OVERLAP_MS),
        updatedAt: new Date(now),
      });
      if (!updated) throw notFound('No webhook endpoint with this id');
      return { status: 200, body: { endpoint: endpointView(updated, now), secret } };
    },

    async listWebhookDeliveries({ path, query, ctx }) {
      const partner = partnerOf(ctx);
      await endpointOf(partner.id, path.endpointId);
      const limit = query.limit ?? 20;
      const after = decodeCursor(query.cursor, ['before'] as const);
      const items = await storage.webhooks.listDeliveries(partner.id, path.endpointId, { ...(after ? { beforeId: after.before } : {}), limit: limit + 1 });
      const page = items.slice(0, limit);
      const last = page[page.length - 1];
      return { status: 200, body: { data: page.map(deliveryView), nextCursor: items.length > limit && last ? encodeCursor({ before: last.id }) : null } };
    },

    async redeliverWebhookEvent({ path, ctx }) {
      const partner = partnerOf(ctx);
      const e = await endpointOf(partner.id, path.endpointId);
      const event = await storage.webhooks.getEvent(partner.id, path.eventId);
      if (!event) throw notFound('No event with this id');
      return deliver(e, event, envelopeOf(event, partner.defaultVersion));
    },

    async sendTestWebhook({ path, ctx }) {
      const partner = partnerOf(ctx);
      const e = await endpointOf(partner.id, path.endpointId);
      const now = clock.now();
      const event = {
        id: newId('event', now),
        type: 'webhook.test',
        createdAt: new Date(now),
        data: { endpointId: e.id, message: 'A test event: the endpoint receives and verifies deliveries.' },
      };
      return deliver(e, event, envelopeOf(event, partner.defaultVersion));
    },
  };
}
