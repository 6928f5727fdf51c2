import { AppError, notFound, validationError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import { newId } from '../ids.ts';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from './records.ts';
import { MAX_WEBHOOK_ENDPOINTS } from './limits.ts';
import { SECRET_OVERLAP_MS } from './schedule.ts';
import { newWebhookSecret } from './signing.ts';
import { endpointUrlProblem, type EndpointUrlPolicy } from './url-policy.ts';
import type { PartnerRecord } from '../partners/records.ts';
import { declaresEvent } from '../payments/wire-versions.ts';

/**
 * A partner's webhook endpoints (design.md, Webhooks): each URL passes the endpoint URL policy;
 * a partner has at most MAX_WEBHOOK_ENDPOINTS live ones; an endpoint the partner turns back on
 * forgets why the service had turned it off; a rotated secret keeps signing beside the new one
 * for SECRET_OVERLAP_MS, so receivers can switch without dropping deliveries.
 */
export interface WebhookEndpointDeps {
  storage: StoragePort;
  clock: Clock;
  /** What an endpoint URL must satisfy (loopback allowance, own port, DNS, address guard). */
  endpointPolicy: EndpointUrlPolicy;
}

export interface NewEndpointInput {
  url: string;
  enabledEvents: readonly string[];
  /** Absent: on. */
  enabled?: boolean;
}

export type EndpointChanges = Partial<Pick<WebhookEndpointRecord, 'url' | 'enabled'>> & { enabledEvents?: readonly string[] };

async function assertUrl(policy: EndpointUrlPolicy, url: string): Promise<void> {
  const problem = await endpointUrlProblem(url, policy);
  if (problem) throw validationError([{ field: 'body.url', message: problem }], 'The webhook URL is not acceptable');
}

/**
 * The partner whose endpoints these are, with its pinned version: deliveries are sent in that
 * version (the envelope's `api_version`), so an endpoint subscribes only to events it declares.
 */
type EndpointOwner = Pick<PartnerRecord, 'id' | 'defaultVersion'>;

/**
 * 400 for an event type the owner's pinned version does not declare: a request under a newer
 * `Svc-Version` may name it, but its deliveries would go out in the pinned version, which cannot
 * carry it (upgrade the pin first).
 */
function assertEventsDeclared(owner: EndpointOwner, events: readonly string[] | undefined): void {
  const unknown = (events ?? []).filter((t) => !declaresEvent(t, owner.defaultVersion));
  if (unknown.length === 0) return;
  throw validationError(
    unknown.map((t) => ({ field: 'body.enabledEvents', message: `${t} is not an event of API version ${owner.defaultVersion}, the version this account's webhooks are sent in` })),
    "Subscribe only to events of the account's pinned API version; upgrade the version first",
  );
}

/** The partner's endpoint, not deleted; 404 otherwise. */
export async function getEndpoint(deps: Pick<WebhookEndpointDeps, 'storage'>, partnerId: string, id: string): Promise<WebhookEndpointRecord> {
  const e = await deps.storage.webhooks.getEndpoint(partnerId, id);
  if (!e) throw notFound('No webhook endpoint with this id');
  return e;
}

export async function listEndpoints(deps: Pick<WebhookEndpointDeps, 'storage'>, partnerId: string): Promise<WebhookEndpointRecord[]> {
  return deps.storage.webhooks.listEndpoints(partnerId);
}

/** A new endpoint with a fresh secret; 400 for a URL the policy refuses, 409 `webhook_endpoint_limit` past the cap. */
export async function createEndpoint(deps: WebhookEndpointDeps, owner: EndpointOwner, input: NewEndpointInput): Promise<WebhookEndpointRecord> {
  assertEventsDeclared(owner, input.enabledEvents);
  await assertUrl(deps.endpointPolicy, input.url);
  const partnerId = owner.id;
  const now = new Date(deps.clock.now());
  const e: WebhookEndpointRecord = {
    id: newId('webhookEndpoint', now.getTime()),
    partnerId,
    url: input.url,
    enabledEvents: [...new Set(input.enabledEvents)],
    enabled: input.enabled ?? true,
    disabledReason: null,
    secret: newWebhookSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  if (!(await deps.storage.webhooks.createEndpointWithinLimit(e, MAX_WEBHOOK_ENDPOINTS))) {
    throw new AppError('webhook_endpoint_limit', `A partner may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`, {
      details: { limit: MAX_WEBHOOK_ENDPOINTS },
    });
  }
  return e;
}

/** Changes an endpoint's URL, events or on/off switch: at least one; 404 before the URL is checked. */
export async function updateEndpoint(deps: WebhookEndpointDeps, owner: EndpointOwner, id: string, changes: EndpointChanges): Promise<WebhookEndpointRecord> {
  if (changes.url === undefined && changes.enabledEvents === undefined && changes.enabled === undefined) {
    throw validationError([{ field: 'body', message: 'give at least one of url, enabledEvents, enabled' }]);
  }
  const partnerId = owner.id;
  await getEndpoint(deps, partnerId, id);
  assertEventsDeclared(owner, changes.enabledEvents);
  if (changes.url !== undefined) await assertUrl(deps.endpointPolicy, changes.url);
  const updated = await deps.storage.webhooks.updateEndpoint(partnerId, id, {
    ...(changes.url !== undefined ? { url: changes.url } : {}),
    ...(changes.enabledEvents !== undefined ? { enabledEvents: [...new Set(changes.enabledEvents)] } : {}),
    // Turning an endpoint back on clears why the service had turned it off.
    ...(changes.enabled !== undefined ? { enabled: changes.enabled, ...(changes.enabled ? { disabledReason: null } : {}) } : {}),
    updatedAt: new Date(deps.clock.now()),
  });
  if (!updated) throw notFound('No webhook endpoint with this id');
  return updated;
}

export async function deleteEndpoint(deps: Pick<WebhookEndpointDeps, 'storage' | 'clock'>, partnerId: string, id: string): Promise<void> {
  if (!(await deps.storage.webhooks.deleteEndpoint(partnerId, id, new Date(deps.clock.now())))) throw notFound('No webhook endpoint with this id');
}

/** A new secret; the old one keeps signing until SECRET_OVERLAP_MS from now. The endpoint's `secret` is the new one. */
export async function rotateSecret(deps: Pick<WebhookEndpointDeps, 'storage' | 'clock'>, partnerId: string, id: string): Promise<WebhookEndpointRecord> {
  const e = await getEndpoint(deps, partnerId, id);
  const now = deps.clock.now();
  const updated = await deps.storage.webhooks.updateEndpoint(partnerId, e.id, {
    secret: newWebhookSecret(),
    previousSecret: e.secret,
    previousSecretExpiresAt: new Date(now + SECRET_OVERLAP_MS),
    updatedAt: new Date(now),
  });
  if (!updated) throw notFound('No webhook endpoint with this id');
  return updated;
}

/** Deliveries to the partner's endpoint, newest first, before `beforeId` when given; 404 for an unknown endpoint. */
export async function listDeliveries(
  deps: Pick<WebhookEndpointDeps, 'storage'>,
  partnerId: string,
  endpointId: string,
  page: { beforeId?: string; limit: number },
): Promise<WebhookDeliveryRecord[]> {
  await getEndpoint(deps, partnerId, endpointId);
  return deps.storage.webhooks.listDeliveries(partnerId, endpointId, page);
}
