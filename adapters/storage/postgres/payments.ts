import { LRUCache } from 'lru-cache';
import type { MerchantRecord } from '../../../server/domain/merchants/records.ts';
import type { CreatePaymentResult, PaymentRecord } from '../../../server/domain/payments/records.ts';
import type { PaymentRepository } from '../../../server/ports/storage/payments.ts';
import { storedExtraPayment, toMerchant, toPayment, toSettlement } from './rows.ts';
import { INSERT_JOBS_FROM_PARAM, insertPayments, jobsParam, listClauses, lockMerchantForCreate, patchAssignments, type NewPayment } from './payment-sql.ts';
import { paymentStats } from './payment-stats.ts';
import { expireDuePayments } from './payment-expiry.ts';
import { createBatcher } from './batcher.ts';
import { isUniqueViolation, type SqlClient, type SqlDb } from './sql-db.ts';
import { NOTIFY_RETURNED_PAYMENT } from './change-channel.ts';
import { currentTraceId } from '../../../server/domain/trace-context.ts';

async function insertEvent(tx: SqlClient, e: { id: string; type: string }, p: PaymentRecord, at: Date, data: unknown, traceId: string | undefined) {
  await tx.query('INSERT INTO payment_events (id, payment_id, partner_id, type, state_version, created_at, data, trace_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
    e.id,
    p.id,
    p.partnerId,
    e.type,
    p.stateVersion,
    at,
    JSON.stringify(data),
    traceId ?? null,
  ]);
}

export function createPaymentRepository(db: SqlDb): PaymentRepository {
  // One create statement at a time, carrying every create that arrived while the last one ran.
  // Measured on this project's bench (2 cores, 16 clients): one in flight gave 15–25 % more
  // creates per second than two, and four or eight fewer still: smaller batches, more commits.
  // But a statement that stalls (a slow WAL flush, PostgreSQL off the CPU) holds every create
  // behind it for the whole stall, which the plain INSERTs of a steady load never wait for: once
  // it has run twice its usual time, up to two more statements take the waiting creates (issue
  // 19 item 5; measured in docs/benchmarks.md, "Create tail").
  const createInBatch = createBatcher<NewPayment, boolean>({
    run: (items) => insertPayments(db, items),
    maxInFlight: 1,
    maxBatch: 64,
    whenLate: { extra: 2, factor: 2, minMs: 1 },
  });
  // Reads by id share statements the same way: the hot polling reads (status, gateway status,
  // jobs) become one index scan per batch. A read joins only a batch not yet sent, so it still
  // sees every write that committed before it was asked for. One statement in flight, as for
  // creates: with two, 16 pollers made batches of one or two, each paying a socket write and pg's
  // per-result field set-up (11 % and 2 % of the API's samples per status request); with one, the
  // API spent 8 % less CPU per status request side by side (docs/benchmarks.md). A statement that
  // runs late lets one more go, so a stall does not hold every poller.
  const readInBatch = createBatcher<string, Record<string, unknown> | undefined>({
    async run(ids) {
      const { rows } = await db.query('SELECT * FROM payments WHERE id = ANY($1::text[])', [ids], 'payments_get_many');
      const byId = new Map(rows.map((r) => [r.id as string, r]));
      return ids.map((id) => byId.get(id));
    },
    maxInFlight: 1,
    maxBatch: 256,
    whenLate: { extra: 1, factor: 2, minMs: 1 },
  });
  // The merchant rows creates last read, with their row version (xmin): a create builds its event
  // from the remembered row and writes only while the row is still that version, so the common
  // create stays one statement (shared with concurrent ones) and a stale row costs one locked
  // retry, never a wrong event. Bounded: a merchant forgotten is read again on its next create.
  const merchantRows = new LRUCache<string, { version: string; merchant: MerchantRecord }>({ max: 10_000 });
  return {
    async recordTxId(id, txId, at) {
      try {
        const r = await db.query("UPDATE payments SET tx_id = $2, tx_shared = false, updated_at = $3 WHERE id = $1 AND status = 'processing' AND tx_id IS NULL", [id, txId, at]);
        return r.rowCount === 1;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },
    async recordRelayerTx(id, tx, replaces, at) {
      try {
        if (tx.everyHolder && tx.shared && replaces !== null) {
          // A batch's replacement at its nonce: every payment still holding the old one follows the new one.
          const r = await db.query<{ id: string }>(
            "UPDATE payments SET tx_id = $2, tx_raw = $3, tx_shared = true, updated_at = $4 WHERE status = 'processing' AND tx_id = $5 AND (id = $1 OR tx_shared) RETURNING id",
            [id, tx.txId, tx.rawTx, at, replaces],
          );
          return r.rows.some((row) => row.id === id);
        }
        const r = await db.query(
          "UPDATE payments SET tx_id = $2, tx_raw = $3, tx_shared = $6, updated_at = $4 WHERE id = $1 AND status = 'processing' AND tx_id IS NOT DISTINCT FROM $5",
          [id, tx.txId, tx.rawTx, at, replaces, tx.shared === true],
        );
        return r.rowCount === 1;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },
    async getRelayerTx(id) {
      const { rows } = await db.query<{ tx_id: string; tx_raw: string }>('SELECT tx_id, tx_raw FROM payments WHERE id = $1 AND tx_id IS NOT NULL AND tx_raw IS NOT NULL', [id]);
      return rows[0] ? { txId: rows[0].tx_id, rawTx: rows[0].tx_raw } : null;
    },
    async create(p, extras) {
      // Taken here, in the caller's trace: the batch may run in another request's.
      const traceId = currentTraceId();
      const event = (merchant: MerchantRecord) => ({ id: extras.event.id, type: extras.event.type, data: extras.event.snapshot(p, merchant) });
      const known = merchantRows.get(p.merchantId);
      if (
        known?.merchant.partnerId === p.partnerId &&
        (await createInBatch({ p, event: event(known.merchant), jobs: extras.jobs, idempotency: extras.idempotency, merchantVersion: known.version, traceId }))
      ) {
        return { ok: true };
      }
      // The merchant is unknown here, changed since, or cannot take the payment: read it locked,
      // then create (or say why not) in the same unit.
      return db.transaction(async (tx): Promise<CreatePaymentResult> => {
        const locked = await lockMerchantForCreate(tx, p);
        if (!locked) return { ok: false, reason: 'merchant_not_found' };
        const merchant = toMerchant(locked.row);
        merchantRows.set(merchant.id, { version: locked.version, merchant });
        if (merchant.deletedAt) return { ok: false, reason: 'merchant_deleted' };
        if (!locked.payable) return { ok: false, reason: 'merchant_not_payable' };
        const [created] = await insertPayments(tx, [{ p, event: event(merchant), jobs: extras.jobs, idempotency: extras.idempotency, merchantVersion: locked.version, traceId }]);
        // Locked, the merchant cannot have changed; its settlement may have been deleted meanwhile.
        return created ? { ok: true } : { ok: false, reason: 'merchant_not_payable' };
      });
    },

    expireDue(at, limit, event) {
      return expireDuePayments(db, at, limit, event);
    },

    async paidBy(network, txId) {
      // Two halves, each served by its partial index (unshared: migration 025, shared: 028).
      const { rows } = await db.query(
        `SELECT * FROM payments WHERE network = $1 AND tx_id = $2 AND tx_id IS NOT NULL AND NOT tx_shared AND status IN ('processing', 'succeeded')
         UNION ALL
         SELECT * FROM payments WHERE network = $1 AND tx_id = $2 AND tx_id IS NOT NULL AND tx_shared AND status IN ('processing', 'succeeded')
         ORDER BY id`,
        [network, txId],
        'payments_paid_by',
      );
      return rows.map(toPayment);
    },

    async get(id) {
      const row = await readInBatch(id);
      return row ? toPayment(row) : null;
    },

    async getForGateway(id) {
      // The merchant and settlements ride along as JSON (text and timestamps only, so nothing
      // numeric passes through a JSON number); the payment's own columns stay typed.
      const { rows } = await db.query(
        `SELECT p.*, to_jsonb(m) AS merchant_row,
                (SELECT COALESCE(jsonb_agg(to_jsonb(s) ORDER BY s.id), '[]'::jsonb) FROM crypto_settlements s
                 WHERE s.partner_id = p.partner_id AND s.merchant_id = p.merchant_id) AS settlement_rows
         FROM payments p LEFT JOIN merchants m ON m.partner_id = p.partner_id AND m.id = p.merchant_id
         WHERE p.id = $1`,
        [id],
        'payments_get_for_gateway',
      );
      const r = rows[0];
      if (!r) return null;
      const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown> | Array<Record<string, unknown>> | null;
      const merchant = json(r.merchant_row) as Record<string, unknown> | null;
      return {
        payment: toPayment(r),
        merchant: merchant ? toMerchant(merchant) : null,
        settlements: (json(r.settlement_rows) as Array<Record<string, unknown>>).map(toSettlement),
      };
    },

    async getForPartner(partnerId, id, merchantId) {
      const row = await readInBatch(id);
      return row && row.partner_id === partnerId && (merchantId === undefined || row.merchant_id === merchantId) ? toPayment(row) : null;
    },

    async transition(id, t) {
      const traceId = currentTraceId();
      try {
        return await db.transaction(async (tx) => {
          const params: unknown[] = [id, t.from, t.to, t.at];
          const sets = ['status = $3', 'state_version = state_version + 1', 'updated_at = $4', ...patchAssignments(t.patch, params)];
          const { rows } = await tx.query(`UPDATE payments SET ${sets.join(', ')} WHERE id = $1 AND status = ANY($2::text[]) RETURNING *, ${NOTIFY_RETURNED_PAYMENT}`, params);
          if (!rows[0]) {
            const cur = await tx.query('SELECT * FROM payments WHERE id = $1', [id]);
            return { ok: false as const, current: cur.rows[0] ? toPayment(cur.rows[0]) : null };
          }
          const payment = toPayment(rows[0]);
          await insertEvent(tx, t.event, payment, t.at, t.event.snapshot(payment), traceId);
          if (t.jobs?.length) await tx.query(INSERT_JOBS_FROM_PARAM('$1'), [jobsParam(t.jobs, t.at, traceId)]);
          return { ok: true as const, payment };
        });
      } catch (err) {
        // The transaction id already paid another payment (unique (network, tx_id) unless shared: migration 025): nothing written.
        if (!isUniqueViolation(err)) throw err;
        const cur = await db.query('SELECT * FROM payments WHERE id = $1', [id]);
        return { ok: false as const, current: cur.rows[0] ? toPayment(cur.rows[0]) : null, duplicateTxId: true };
      }
    },

    async markRefunded(partnerId, merchantId, id, at, event) {
      const traceId = currentTraceId();
      return db.transaction(async (tx) => {
        const { rows } = await tx.query(
          `UPDATE payments SET refunded_at = $4, state_version = state_version + 1, updated_at = $4
           WHERE id = $1 AND partner_id = $2 AND merchant_id = $3 AND status = 'succeeded' AND refunded_at IS NULL RETURNING *, ${NOTIFY_RETURNED_PAYMENT}`,
          [id, partnerId, merchantId, at],
        );
        if (!rows[0]) {
          const cur = await tx.query('SELECT * FROM payments WHERE id = $1 AND partner_id = $2 AND merchant_id = $3', [id, partnerId, merchantId]);
          return { ok: false as const, current: cur.rows[0] ? toPayment(cur.rows[0]) : null };
        }
        const payment = toPayment(rows[0]);
        await insertEvent(tx, { id: event.id, type: event.type }, payment, at, event.snapshot(payment), traceId);
        return { ok: true as const, payment };
      });
    },

    async markFinality(id, change, event) {
      const traceId = currentTraceId();
      return db.transaction(async (tx) => {
        // A reversal is a change the partner is told of (an event), so it counts as a state change.
        const { rows } = await tx.query(
          `UPDATE payments SET finality = $3, finality_reason = $4, updated_at = $5${event ? ', state_version = state_version + 1' : ''}
           WHERE id = $1 AND status = 'succeeded' AND finality = $2 RETURNING *, ${NOTIFY_RETURNED_PAYMENT}`,
          [id, change.from, change.to, change.reason, change.at],
        );
        if (!rows[0]) {
          const cur = await tx.query('SELECT * FROM payments WHERE id = $1', [id]);
          return { ok: false as const, current: cur.rows[0] ? toPayment(cur.rows[0]) : null };
        }
        const payment = toPayment(rows[0]);
        if (event) await insertEvent(tx, { id: event.id, type: event.type }, payment, change.at, event.snapshot(payment), traceId);
        return { ok: true as const, payment };
      });
    },

    async recordExtraPayment(id, extra, event) {
      const traceId = currentTraceId();
      return db.transaction(async (tx) => {
        // The containment test keeps it once per transaction, whichever process finds it first.
        const { rows } = await tx.query(
          `UPDATE payments SET extra_payments = COALESCE(extra_payments, '[]'::jsonb) || $2::jsonb, updated_at = $4, state_version = state_version + 1
           WHERE id = $1 AND status = 'succeeded' AND tx_id IS DISTINCT FROM $3 AND NOT COALESCE(extra_payments, '[]'::jsonb) @> jsonb_build_array(jsonb_build_object('txId', $3::text))
           RETURNING *, ${NOTIFY_RETURNED_PAYMENT}`,
          [id, JSON.stringify([storedExtraPayment(extra)]), extra.txId, extra.foundAt],
        );
        if (!rows[0]) return false;
        const payment = toPayment(rows[0]);
        await insertEvent(tx, event, payment, extra.foundAt, event.snapshot(payment), traceId);
        return true;
      });
    },

    async list(partnerId, q) {
      const params: unknown[] = [];
      const { where, order } = listClauses(partnerId, q, params);
      params.push(q.limit);
      const { rows } = await db.query(`SELECT * FROM payments WHERE ${where} ORDER BY ${order} LIMIT $${params.length}`, params);
      return rows.map(toPayment);
    },

    stats(partnerId, q) {
      return paymentStats(db, partnerId, q);
    },

    async events(paymentId) {
      const { rows } = await db.query<Record<string, unknown>>('SELECT * FROM payment_events WHERE payment_id = $1 ORDER BY state_version, id', [paymentId]);
      return rows.map((r) => ({
        id: String(r.id),
        paymentId: String(r.payment_id),
        partnerId: String(r.partner_id),
        type: String(r.type),
        stateVersion: Number(r.state_version),
        createdAt: r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at)),
        data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as unknown,
        traceId: typeof r.trace_id === 'string' ? r.trace_id : null,
      }));
    },
  };
}
