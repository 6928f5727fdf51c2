import type { NewJob } from '../../../server/domain/jobs/records.ts';
import type { NewWebhookDelivery, WebhookAttemptRecord, WebhookDeliveryStatus, WebhookDispatchItem, WebhookEndpointPatch } from '../../../server/domain/webhooks/records.ts';
import type { WebhookRepository } from '../../../server/ports/storage/webhooks.ts';
import { createBatcher } from './batcher.ts';
import { INSERT_JOBS_FROM_PARAM, jobsParam } from './payment-sql.ts';
import type { SqlClient, SqlDb } from './sql-db.ts';
import { currentTraceId } from '../../../server/domain/trace-context.ts';
import { toAttempt, toDelivery, toEndpoint, toEvent, toPendingDelivery } from './webhook-rows.ts';

type Row = Record<string, unknown>;
type AttemptToRecord = { deliveryId: string; attempt: WebhookAttemptRecord; next: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null } };

const PATCH_COLUMNS: Array<[keyof WebhookEndpointPatch, string]> = [
  ['url', 'url'],
  ['enabledEvents', 'enabled_events'],
  ['enabled', 'enabled'],
  ['disabledReason', 'disabled_reason'],
  ['secret', 'secret'],
  ['previousSecret', 'previous_secret'],
  ['previousSecretExpiresAt', 'previous_secret_expires_at'],
  ['updatedAt', 'updated_at'],
];

/** Deliveries and the jobs that send them, in two statements whatever the batch size; jobs are created at `at`. */
async function insertDeliveries(tx: SqlClient, deliveries: NewWebhookDelivery[], jobs: NewJob[], at: Date, traceId: string | undefined): Promise<void> {
  if (deliveries.length > 0) {
    const rows = JSON.stringify(
      deliveries.map((d) => ({ ...d, createdAt: d.createdAt.toISOString(), traceId: d.traceId !== undefined ? d.traceId : (traceId ?? null), paymentId: d.paymentId ?? null })),
    );
    await tx.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, partner_id, event_id, event_type, body, status, created_at, trace_id, payment_id)
       SELECT d."id", d."endpointId", d."partnerId", d."eventId", d."eventType", d."body", 'pending', d."createdAt", d."traceId", d."paymentId"
       FROM jsonb_to_recordset($1::jsonb)
         AS d("id" text, "endpointId" text, "partnerId" text, "eventId" text, "eventType" text, "body" text, "createdAt" timestamptz, "traceId" text, "paymentId" text)`,
      [rows],
    );
  }
  if (jobs.length > 0) await tx.query(`${INSERT_JOBS_FROM_PARAM('$1')} ON CONFLICT (id) DO NOTHING`, [jobsParam(jobs, at, traceId)]);
}

/**
 * Many attempts in one statement (one round trip, one commit): each input row updates its delivery
 * only while that delivery is pending at the attempt before, and its attempt row is written only
 * if that update happened. Two rows for one delivery and attempt (a job run twice at once) update
 * it once: the row PostgreSQL picked comes back in RETURNING, the other answers false.
 */
const RECORD_ATTEMPTS_SQL = `
  WITH i AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb)
      AS x(n int, id text, status text, attempt int, code int, next timestamptz, at timestamptz, ms int, error text)
  ), u AS (
    UPDATE webhook_deliveries d SET status = i.status, attempt_count = i.attempt, last_status_code = i.code, next_attempt_at = i.next,
      delivered_at = CASE WHEN i.status = 'delivered' THEN i.at ELSE NULL END
    FROM i WHERE d.id = i.id AND d.status = 'pending' AND d.attempt_count = i.attempt - 1
    RETURNING i.n
  ), a AS (
    INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, duration_ms, error)
    SELECT i.id, i.attempt, i.at, i.code, i.ms, i.error FROM i JOIN u ON u.n = i.n
  )
  SELECT n FROM u`;

async function recordAttempts(db: SqlClient, items: AttemptToRecord[]): Promise<boolean[]> {
  const rows = items.map(({ deliveryId, attempt: a, next }, n) => ({
    n,
    id: deliveryId,
    status: next.status,
    attempt: a.attempt,
    code: a.statusCode,
    next: next.nextAttemptAt?.toISOString() ?? null,
    at: a.at.toISOString(),
    ms: a.durationMs,
    error: a.error,
  }));
  const { rows: done } = await db.query<Row>(RECORD_ATTEMPTS_SQL, [JSON.stringify(rows)], 'webhook_attempts_record');
  const recorded = new Set(done.map((r) => Number(r.n)));
  return items.map((_, n) => recorded.has(n));
}

/** Webhook endpoints, deliveries and the event dispatcher's claim on PostgreSQL or PGlite. */
export function createWebhookRepository(db: SqlDb): WebhookRepository {
  const attemptsOf = async (ids: string[]) => {
    if (ids.length === 0) return new Map<string, ReturnType<typeof toAttempt>[]>();
    const { rows } = await db.query<Row>('SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, attempt', [ids]);
    const map = new Map<string, ReturnType<typeof toAttempt>[]>();
    for (const r of rows) map.set(String(r.delivery_id), [...(map.get(String(r.delivery_id)) ?? []), toAttempt(r)]);
    return map;
  };
  // The delivery job's two statements, each shared by the attempts in flight at once (see
  // batcher.ts): its read of the delivery with its endpoint, and its record of the outcome.
  // Both run at once when the database is idle; batches form only while it is busy.
  const readToSend = createBatcher<string, ReturnType<typeof toPendingDelivery> | null>({
    async run(ids) {
      const { rows } = await db.query<Row>(
        `SELECT d.*, to_jsonb(e.*) AS endpoint FROM webhook_deliveries d LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.id = ANY($1::text[])`,
        [ids],
        'webhook_deliveries_to_send',
      );
      const byId = new Map(rows.map((r) => [String(r.id), r]));
      return ids.map((id) => {
        const r = byId.get(id);
        return r ? toPendingDelivery(r) : null;
      });
    },
    maxInFlight: 2,
    maxBatch: 256,
  });
  const recordInBatch = createBatcher<AttemptToRecord, boolean>({ run: (items) => recordAttempts(db, items), maxInFlight: 2, maxBatch: 256 });
  return {
    async createEndpoint(e) {
      await db.query(
        `INSERT INTO webhook_endpoints (id, partner_id, url, enabled_events, enabled, disabled_reason, secret, previous_secret, previous_secret_expires_at, created_at, updated_at, deleted_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [e.id, e.partnerId, e.url, e.enabledEvents, e.enabled, e.disabledReason, e.secret, e.previousSecret, e.previousSecretExpiresAt, e.createdAt, e.updatedAt, e.deletedAt],
      );
    },
    createEndpointWithinLimit(e, limit) {
      return db.transaction(async (tx) => {
        // One partner's creates take turns, so two at limit − 1 cannot both see room.
        await tx.query('SELECT pg_advisory_xact_lock(72150002, hashtext($1))', [e.partnerId]);
        const { rowCount } = await tx.query(
          `INSERT INTO webhook_endpoints (id, partner_id, url, enabled_events, enabled, disabled_reason, secret, previous_secret, previous_secret_expires_at, created_at, updated_at, deleted_at)
           SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12
           WHERE (SELECT count(*) FROM webhook_endpoints WHERE partner_id = $2 AND deleted_at IS NULL) < $13`,
          [
            e.id,
            e.partnerId,
            e.url,
            e.enabledEvents,
            e.enabled,
            e.disabledReason,
            e.secret,
            e.previousSecret,
            e.previousSecretExpiresAt,
            e.createdAt,
            e.updatedAt,
            e.deletedAt,
            limit,
          ],
        );
        return rowCount === 1;
      });
    },
    async listEndpoints(partnerId) {
      const { rows } = await db.query<Row>('SELECT * FROM webhook_endpoints WHERE partner_id = $1 AND deleted_at IS NULL ORDER BY id DESC', [partnerId]);
      return rows.map(toEndpoint);
    },
    async getEndpoint(partnerId, id) {
      const { rows } = await db.query<Row>('SELECT * FROM webhook_endpoints WHERE partner_id = $1 AND id = $2 AND deleted_at IS NULL', [partnerId, id]);
      return rows[0] ? toEndpoint(rows[0]) : null;
    },
    async getEndpointById(id) {
      const { rows } = await db.query<Row>('SELECT * FROM webhook_endpoints WHERE id = $1', [id], 'webhook_endpoint_by_id');
      return rows[0] ? toEndpoint(rows[0]) : null;
    },
    async updateEndpoint(partnerId, id, patch) {
      const params: unknown[] = [partnerId, id];
      const sets = PATCH_COLUMNS.filter(([k]) => patch[k] !== undefined).map(([k, col]) => `${col} = $${params.push(patch[k])}`);
      const { rows } = await db.query<Row>(`UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE partner_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING *`, params);
      return rows[0] ? toEndpoint(rows[0]) : null;
    },
    async deleteEndpoint(partnerId, id, at) {
      const { rowCount } = await db.query(
        'UPDATE webhook_endpoints SET deleted_at = $3, enabled = false, updated_at = $3 WHERE partner_id = $1 AND id = $2 AND deleted_at IS NULL',
        [partnerId, id, at],
      );
      return rowCount > 0;
    },
    dispatchPending(limit, now, plan) {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<Row>(
          `UPDATE payment_events SET dispatched_at = $2
           WHERE (payment_id, state_version) IN (
             SELECT payment_id, state_version FROM payment_events WHERE dispatched_at IS NULL
             ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING id, payment_id, partner_id, type, state_version, created_at, data, trace_id`,
          [limit, now],
        );
        if (rows.length === 0) return { events: 0, deliveries: 0 };
        const events = rows.map(toEvent).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.stateVersion - b.stateVersion);
        const partnerIds = [...new Set(events.map((e) => e.partnerId))];
        const { rows: eps } = await tx.query<Row>(
          `SELECT e.id, e.partner_id, e.enabled_events, p.default_version FROM webhook_endpoints e JOIN partners p ON p.id = e.partner_id
           WHERE e.partner_id = ANY($1::text[]) AND e.enabled AND e.deleted_at IS NULL`,
          [partnerIds],
        );
        const items: WebhookDispatchItem[] = [];
        for (const event of events) {
          const mine = eps.filter((r) => r.partner_id === event.partnerId && (r.enabled_events as string[]).includes(event.type));
          if (mine.length > 0) items.push({ event, apiVersion: String(mine[0]!.default_version), endpointIds: mine.map((r) => String(r.id)) });
        }
        const { deliveries, jobs } = items.length > 0 ? plan(items) : { deliveries: [], jobs: [] };
        // The plan names each delivery's and job's trace (its events'); none is taken from this pass.
        await insertDeliveries(tx, deliveries, jobs, now, undefined);
        return { events: events.length, deliveries: deliveries.length };
      });
    },
    async createDelivery(d, job) {
      const traceId = currentTraceId();
      await db.transaction((tx) => insertDeliveries(tx, [d], [job], d.createdAt, traceId));
    },
    async getEvent(partnerId, eventId) {
      const { rows } = await db.query<Row>('SELECT * FROM payment_events WHERE id = $1 AND partner_id = $2', [eventId, partnerId]);
      return rows[0] ? toEvent(rows[0]) : null;
    },
    async getDelivery(id) {
      const { rows } = await db.query<Row>('SELECT * FROM webhook_deliveries WHERE id = $1', [id], 'webhook_delivery_by_id');
      return rows[0] ? toDelivery(rows[0], (await attemptsOf([id])).get(id) ?? []) : null;
    },
    recordAttempt(deliveryId, attempt, next) {
      return recordInBatch({ deliveryId, attempt, next });
    },
    getDeliveryToSend(id) {
      return readToSend(id);
    },
    async purgeSettledDeliveries(before, limit) {
      // Oldest first by the created_at index; rows another purge holds are skipped, not waited for.
      // The attempts go in the same statement, before the foreign key is checked at its end.
      const { rows } = await db.query<Row>(
        `WITH d AS (
           SELECT id FROM webhook_deliveries WHERE created_at < $1 AND status <> 'pending' ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED
         ), a AS (
           DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM d)
         )
         DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM d) RETURNING 1`,
        [before, limit],
        'webhook_deliveries_purge',
      );
      return rows.length;
    },
    async listDeliveries(partnerId, endpointId, q) {
      const params: unknown[] = [partnerId, endpointId, q.limit];
      const before = q.beforeId ? `AND id < $${params.push(q.beforeId)}` : '';
      const { rows } = await db.query<Row>(`SELECT * FROM webhook_deliveries WHERE partner_id = $1 AND endpoint_id = $2 ${before} ORDER BY id DESC LIMIT $3`, params);
      const attempts = await attemptsOf(rows.map((r) => String(r.id)));
      return rows.map((r) => toDelivery(r, attempts.get(String(r.id)) ?? []));
    },
  };
}
