import { LRUCache } from 'lru-cache';
import type { Clock } from '../../ports/clock.ts';
import { isHttpFetchError, type HttpFetchPort } from '../../ports/http-fetch.ts';
import type { JobHandler } from '../../ports/queue.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from './records.ts';
import type { Logger } from '../../ports/logger.ts';
import { DELIVERY_TIMEOUT_MS, nextAttemptDelay, WEBHOOK_RETRY_SCHEDULE_MS } from './schedule.ts';
import { signedHeaders } from './signing.ts';
import { isAllowedLoopback } from './url-policy.ts';
import { BATCH_BUDGET_MS, createBatchSender } from './deliver-batch.ts';
import { runInTrace, traceparentFor } from '../trace-context.ts';
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
   * Attempts to one endpoint in flight in this process at once (default 8). More are put back for
   * a second, so a slow endpoint holds at most this many of the worker's slots and others flow.
   */
  maxInFlightPerEndpoint?: number;
  /** Attempts counted by outcome and timed; endpoints disabled counted. */
  metrics?: MetricsPort;
}

/** How much of a receiver's answer is read; the body itself is not kept. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/**
 * Bounds of the wait before a job put back by the per-endpoint cap runs again. Within them the
 * wait follows the endpoint: about as long as its attempts take (the recent average, or the age
 * of its oldest attempt in flight if that is longer), since that is when a slot frees up. A
 * receiver answering in a millisecond has its queued deliveries back in tens of milliseconds
 * (a fixed second made the cap, not the receiver, set a fast endpoint's rate); a slow or hanging
 * one waits the full second, so its backlog costs the queue a few put-backs per second at most.
 */
const BUSY_RETRY_MIN_MS = 20;
const BUSY_RETRY_MAX_MS = 1000;
/** Weight of the newest attempt in an endpoint's running average of attempt durations. */
const DURATION_WEIGHT = 0.2;

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
  const cap = deps.maxInFlightPerEndpoint ?? 8;
  const policy = { allowLoopback: deps.allowLoopbackEndpoints ?? false };
  /** Per endpoint: start times (performance.now()) of its attempts in flight in this process. */
  const inFlight = new Map<string, Set<number>>();
  /** Per endpoint: running average of its attempts' durations, ms; endpoints not tried lately are forgotten. */
  const typicalMs = new LRUCache<string, number>({ max: 10_000 });
  const busy = (endpointId: string) => (inFlight.get(endpointId)?.size ?? 0) >= cap;

  async function post(endpoint: WebhookEndpointRecord, delivery: Pick<WebhookDeliveryRecord, 'eventId' | 'body' | 'traceId'>, now: number): Promise<AttemptResult> {
    const headers: Record<string, string> = { ...signedHeaders(delivery.eventId, now, delivery.body, signingSecrets(endpoint, now)), 'content-type': 'application/json' };
    // Unsigned and informative: a receiver may join its handling to the trace of the change.
    const traceparent = traceparentFor(delivery.traceId);
    if (traceparent) headers.traceparent = traceparent;
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    try {
      const res = await deps.fetch.fetch(endpoint.url, {
        method: 'POST',
        headers,
        body: delivery.body,
        maxBytes: MAX_RESPONSE_BYTES,
        timeoutMs,
        connectTimeoutMs: Math.min(timeoutMs, 5000),
        maxRedirects: 0,
        httpsOnly: !isAllowedLoopback(endpoint.url, policy),
      });
      return { statusCode: res.status, error: null, durationMs: took() };
    } catch (err) {
      if (!isHttpFetchError(err)) throw err;
      return { statusCode: null, error: deliveryFailureOf(err.code), durationMs: took() };
    }
  }

  /** Put back until a slot is likely free (see BUSY_RETRY_MIN_MS), with jitter so a crowd of waiting jobs does not come back at once. */
  const later = (endpointId: string) => {
    const oldest = Math.min(...(inFlight.get(endpointId) ?? []));
    const age = Number.isFinite(oldest) ? performance.now() - oldest : 0;
    const wait = Math.min(BUSY_RETRY_MAX_MS, Math.max(BUSY_RETRY_MIN_MS, typicalMs.get(endpointId) ?? 0, age));
    return { retryAt: new Date(deps.clock.now() + Math.round(wait / 2 + Math.random() * wait)) };
  };

  type Found = NonNullable<Awaited<ReturnType<WebhookDeliveryDeps['storage']['webhooks']['getDeliveryToSend']>>>;

  /**
   * One attempt of a delivery read pending: records it and answers when the next is due (or
   * nothing when settled or recorded by a concurrent run). `'busy'`: the endpoint has no slot.
   */
  async function attemptFound({ delivery, endpoint }: Found): Promise<'busy' | { retryAt: Date } | undefined> {
    const attempt = delivery.attemptCount + 1;
    if (!endpoint || endpoint.deletedAt || !endpoint.enabled) {
      const at = new Date(deps.clock.now());
      await deps.storage.webhooks.recordAttempt(
        delivery.id,
        { attempt, at, statusCode: null, durationMs: 0, error: 'endpoint disabled or deleted' },
        { status: 'failed', nextAttemptAt: null },
      );
      return;
    }
    if (busy(endpoint.id)) return 'busy';
    const mine = inFlight.get(endpoint.id) ?? new Set<number>();
    inFlight.set(endpoint.id, mine);
    // Unique within the set: two attempts starting in the same tick must not share an entry.
    let startedAt = performance.now();
    while (mine.has(startedAt)) startedAt += 1e-6;
    mine.add(startedAt);
    let result: AttemptResult;
    const now = deps.clock.now();
    try {
      result = await post(endpoint, delivery, now);
    } finally {
      mine.delete(startedAt);
      if (mine.size === 0) inFlight.delete(endpoint.id);
    }
    const took = performance.now() - startedAt;
    const avg = typicalMs.get(endpoint.id);
    typicalMs.set(endpoint.id, avg === undefined ? took : avg + DURATION_WEIGHT * (took - avg));
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
      { deliveryId: delivery.id, endpointId: endpoint.id, eventType: delivery.eventType, attempt, statusCode: result.statusCode, ms: Math.round(took), status },
      'webhook attempt',
    );
    if (nextAttemptAt) return { retryAt: nextAttemptAt };
  }

  // Each attempt runs, and logs, in the trace of the change that caused its event: a batch mixes payments.
  const attemptTraced = (found: Found) => runInTrace({ traceId: found.delivery.traceId ?? undefined, paymentId: found.delivery.paymentId ?? undefined }, () => attemptFound(found));

  const sendBatch = createBatchSender({
    storage: deps.storage,
    clock: deps.clock,
    cap,
    budgetMs: deps.batchBudgetMs ?? BATCH_BUDGET_MS,
    attempt: attemptTraced,
    wait: (endpointId) => later(endpointId).retryAt.getTime() - deps.clock.now(),
    ...(deps.onJobsWritten ? { onJobsWritten: deps.onJobsWritten } : {}),
  });

  return async (job) => {
    if (Array.isArray(job.payload.deliveryIds)) return sendBatch(String(job.payload.endpointId), job.payload.deliveryIds.map(String));
    // The job names its endpoint, so a busy endpoint's jobs are put back before any read.
    const named = typeof job.payload.endpointId === 'string' ? job.payload.endpointId : null;
    if (named && busy(named)) return later(named);
    // One read for the delivery and its endpoint (shared with the attempts in flight at once).
    const found = await deps.storage.webhooks.getDeliveryToSend(String(job.payload.deliveryId));
    if (!found || found.delivery.status !== 'pending') return;
    const outcome = await attemptTraced(found);
    return outcome === 'busy' ? later(found.delivery.endpointId) : outcome;
  };
}
