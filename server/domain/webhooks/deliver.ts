import type { Clock } from '../../ports/clock.ts';
import { isHttpFetchError, type HttpFetchPort } from '../../ports/http-fetch.ts';
import type { JobHandler } from '../../ports/queue.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from './records.ts';
import type { Logger } from '../../ports/logger.ts';
import { DELIVERY_TIMEOUT_MS, nextAttemptDelay, WEBHOOK_RETRY_SCHEDULE_MS } from './schedule.ts';
import { signedHeaders } from './signing.ts';
import { isAllowedLoopback } from './url-policy.ts';
import { BATCH_BUDGET_MS, createBatchSender, type AttemptOutcome } from './deliver-batch.ts';
import { createInFlightSlots, type AttemptSlot } from './in-flight.ts';
import { newTraceId, runInTrace, traceparentFor } from '../trace-context.ts';
import { recordDelivery } from './delivery-metrics.ts';
import type { MetricsPort } from '../../ports/metrics.ts';

export interface WebhookDeliveryDeps {
  storage: Pick<StoragePort, 'webhooks' | 'jobs'>;
  clock: Clock;
  logger: Logger;
  /** Called after a batch job wrote follow-up jobs (retries, its rest), so the relay hands them on at once. */
  onJobsWritten?: () => void;
  /** How long one batch job starts new attempts before it hands the rest on (default 10 s; tests shorten it). */
  batchBudgetMs?: number;
  /** The SSRF-guarded fetch (see `createWebhookFetch`): it re-checks the endpoint's address at every attempt. */
  fetch: HttpFetchPort;
  /** Sandbox mode only: plain-http loopback receivers. */
  allowLoopbackEndpoints?: boolean;
  /** The API's own port, never a receiver (enforced by the fetch `createWebhookFetch` builds with it). */
  ownPort?: number;
  /** Waits between attempts; the Standard schedule by default (tests shorten it). */
  schedule?: readonly number[];
  /** Per-attempt deadline, default 15 s. */
  timeoutMs?: number;
  /**
   * Attempts to one endpoint in flight in this process at once (default 8; 1 while the endpoint is
   * slow). More wait for a slot without holding a job slot (see in-flight.ts).
   */
  maxInFlightPerEndpoint?: number;
  /**
   * Attempts to all of one partner's endpoints in flight in this process at once (default 16): at
   * most half the webhook pool's slots, so a partner whose receivers hang leaves the rest to others.
   */
  maxInFlightPerPartner?: number;
  /** How long connecting (TCP and TLS) may take, default 3 s: a receiver that accepts and never answers its handshake is dropped soon. */
  connectTimeoutMs?: number;
  /** Attempts counted by outcome and timed; endpoints disabled counted. */
  metrics?: MetricsPort;
}

/** How much of a receiver's answer is read; the body itself is not kept. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Connecting (TCP and TLS) to a receiver: far above a handshake across the world, far below the 15 s an answer may take. */
export const CONNECT_TIMEOUT_MS = 3000;

type AttemptResult = { statusCode: number | null; error: DeliveryFailure | null; durationMs: number };

/**
 * What a failed attempt records when no HTTP status came back: a class, never the socket's
 * message. Refused, reset, closed, TLS and DNS failures all read the same, so the delivery log
 * (which the partner reads) cannot be used to tell a closed port from an open one.
 */
export type DeliveryFailure = 'timeout' | 'connection_failed';

/** The class of a fetch failure (see DeliveryFailure). */
export function deliveryFailureOf(code: string): DeliveryFailure {
  return code === 'timeout' ? 'timeout' : 'connection_failed';
}

/** The secrets that sign now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(endpoint: WebhookEndpointRecord, now: number): string[] {
  const previous = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > now ? [endpoint.previousSecret] : [];
  return [endpoint.secret, ...previous];
}

/**
 * The `webhook.deliver` job. A job naming one delivery (`deliveryId`: retries, redeliveries, test
 * events) makes one attempt per run. A job naming many of one endpoint (`deliveryIds`: what the
 * dispatcher writes) makes one attempt of each; see deliver-batch.ts. Per attempt: 2xx → delivered; 410 → the endpoint is disabled
 * and the delivery failed; anything else (or no answer) → `{ retryAt }` per the schedule, then
 * failed. Idempotent: a delivery no longer pending is left alone, and an attempt is recorded only
 * if no concurrent run recorded the same attempt number first.
 */
export function createWebhookDeliverer(deps: WebhookDeliveryDeps): JobHandler {
  const schedule = deps.schedule ?? WEBHOOK_RETRY_SCHEDULE_MS;
  const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const connectTimeoutMs = Math.min(timeoutMs, deps.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
  const policy = { allowLoopback: deps.allowLoopbackEndpoints ?? false };
  const slots = createInFlightSlots({ perEndpoint: deps.maxInFlightPerEndpoint ?? 8, perPartner: deps.maxInFlightPerPartner ?? 16 });

  async function post(
    endpoint: WebhookEndpointRecord,
    delivery: Pick<WebhookDeliveryRecord, 'eventId' | 'body'> & { deliveryTraceId: string },
    now: number,
  ): Promise<AttemptResult> {
    const headers: Record<string, string> = { ...signedHeaders(delivery.eventId, now, delivery.body, signingSecrets(endpoint, now)), 'content-type': 'application/json' };
    // Unsigned and informative: a trace of this delivery's own, never the caller's (a buyer's wallet
    // chose that id and its sampled flag, issue 30 item 8). The change's trace id is the link: the
    // attempt's log line carries both (see attemptTraced and the 'webhook attempt' line).
    headers.traceparent = traceparentFor(delivery.deliveryTraceId)!;
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    try {
      const res = await deps.fetch.fetch(endpoint.url, {
        method: 'POST',
        headers,
        body: delivery.body,
        maxBytes: MAX_RESPONSE_BYTES,
        timeoutMs,
        connectTimeoutMs,
        maxRedirects: 0,
        httpsOnly: !isAllowedLoopback(endpoint.url, policy),
      });
      return { statusCode: res.status, error: null, durationMs: took() };
    } catch (err) {
      if (!isHttpFetchError(err)) throw err;
      return { statusCode: null, error: deliveryFailureOf(err.code), durationMs: took() };
    }
  }

  /** Put back until a slot is likely free (see in-flight.ts), with jitter so a crowd of waiting jobs does not come back at once. */
  const later = (endpointId: string, partnerId?: string) => {
    const wait = slots.waitMs(endpointId, partnerId);
    return { retryAt: new Date(deps.clock.now() + Math.round(wait / 2 + Math.random() * wait)) };
  };

  type Found = NonNullable<Awaited<ReturnType<WebhookDeliveryDeps['storage']['webhooks']['getDeliveryToSend']>>>;

  /**
   * Starts one attempt of a delivery read pending: `'busy'` when its endpoint or partner has no
   * free slot; else the attempt's outcome once recorded (when the next is due, or nothing when
   * settled or recorded by a concurrent run).
   */
  function startAttempt({ delivery, endpoint }: Found): 'busy' | Promise<AttemptOutcome> {
    if (!endpoint || endpoint.deletedAt || !endpoint.enabled) {
      const at = new Date(deps.clock.now());
      const failed = { attempt: delivery.attemptCount + 1, at, statusCode: null, durationMs: 0, error: 'endpoint disabled or deleted' };
      return deps.storage.webhooks.recordAttempt(delivery.id, failed, { status: 'failed', nextAttemptAt: null }).then(() => undefined);
    }
    const slot = slots.tryAcquire(endpoint);
    if (!slot) return 'busy';
    return finishAttempt(delivery, endpoint, slot);
  }

  async function finishAttempt(delivery: Found['delivery'], endpoint: WebhookEndpointRecord, slot: AttemptSlot): Promise<AttemptOutcome> {
    const attempt = delivery.attemptCount + 1;
    const now = deps.clock.now();
    let result: AttemptResult | undefined;
    const deliveryTraceId = newTraceId();
    try {
      result = await post(endpoint, { ...delivery, deliveryTraceId }, now);
    } finally {
      slot.release({ durationMs: result?.durationMs ?? 0, timedOut: result?.error === 'timeout' });
    }
    const took = result.durationMs;
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const gone = result.statusCode === 410;
    const delay = ok || gone ? null : nextAttemptDelay(schedule, attempt);
    const nextAttemptAt = delay === null ? null : new Date(deps.clock.now() + delay);
    const status = ok ? 'delivered' : nextAttemptAt ? 'pending' : 'failed';
    const recorded = await deps.storage.webhooks.recordAttempt(delivery.id, { attempt, at: new Date(now), ...result }, { status, nextAttemptAt });
    if (!recorded) return;
    recordDelivery(deps.metrics, status, gone, took);
    if (gone) {
      deps.logger.warn({ endpointId: endpoint.id }, 'webhook endpoint answered 410 Gone; disabled');
      await deps.storage.webhooks.updateEndpoint(endpoint.partnerId, endpoint.id, { enabled: false, disabledReason: 'gone', updatedAt: new Date(deps.clock.now()) });
    }
    // One line per recorded attempt, in the delivery's trace (see attemptTraced).
    deps.logger.info(
      { deliveryId: delivery.id, endpointId: endpoint.id, eventType: delivery.eventType, attempt, statusCode: result.statusCode, ms: Math.round(took), status, deliveryTraceId },
      'webhook attempt',
    );
    if (nextAttemptAt) return { retryAt: nextAttemptAt };
  }

  // Each attempt runs, and logs, in the trace of the change that caused its event: a batch mixes payments.
  const attemptTraced = (found: Found) => runInTrace({ traceId: found.delivery.traceId ?? undefined, paymentId: found.delivery.paymentId ?? undefined }, () => startAttempt(found));

  const sendBatch = createBatchSender({
    storage: deps.storage,
    clock: deps.clock,
    budgetMs: deps.batchBudgetMs ?? BATCH_BUDGET_MS,
    start: attemptTraced,
    nextRelease: (endpoint, maxMs) => slots.nextRelease(endpoint, maxMs),
    wait: (endpointId) => ({ ms: slots.waitMs(endpointId), slow: slots.isSlow(endpointId) }),
    ...(deps.onJobsWritten ? { onJobsWritten: deps.onJobsWritten } : {}),
  });

  return async (job) => {
    if (Array.isArray(job.payload.deliveryIds)) return sendBatch(String(job.payload.endpointId), job.payload.deliveryIds.map(String));
    // The job names its endpoint, so a full endpoint's jobs are put back before any read.
    const named = typeof job.payload.endpointId === 'string' ? job.payload.endpointId : null;
    if (named && slots.endpointFull(named)) return later(named);
    // One read for the delivery and its endpoint (shared with the attempts in flight at once).
    const found = await deps.storage.webhooks.getDeliveryToSend(String(job.payload.deliveryId));
    if (!found || found.delivery.status !== 'pending') return;
    // A busy endpoint's (or partner's) job is put back: it holds no slot while it waits.
    const outcome = attemptTraced(found);
    return outcome === 'busy' ? later(found.delivery.endpointId, found.delivery.partnerId) : outcome;
  };
}
