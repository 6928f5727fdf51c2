import type { MerchantRecord } from '../../../server/domain/merchants/records.ts';
import type { PaymentRecord } from '../../../server/domain/payments/records.ts';
import type { ExpiredEvent } from '../../../server/ports/storage/payments.ts';
import { toMerchant, toPayment } from './rows.ts';
import type { SqlDb } from './sql-db.ts';
import { NOTIFY_RETURNED_PAYMENT } from './change-channel.ts';

/**
 * The sweep's unit (`PaymentRepository.expireDue`): the due payments still requiring action are
 * claimed with `FOR UPDATE SKIP LOCKED`, so sweeps in several processes take disjoint sets and
 * none waits for a payment another unit is changing (a confirm in flight: the next sweep sees
 * where it went); each is expired with its event in the same transaction. The event keeps the
 * trace of the payment's previous event (its create, or the release back to requires_action), as
 * the expiry job written then did, so the expiry's lines join the request that made it.
 */
export async function expireDuePayments(db: SqlDb, at: Date, limit: number, event: ExpiredEvent): Promise<{ expired: PaymentRecord[]; nextDeadline: Date | null }> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      // The claim is a materialized CTE, evaluated once: as an `IN (subquery)` the planner may
      // rescan it per row, and its LIMIT then held for no unit (the conformance suite saw 2 for 1).
      `WITH due AS MATERIALIZED (SELECT id AS due_id FROM payments WHERE status = 'requires_action' AND expires_at <= $1 ORDER BY expires_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE payments p SET status = 'expired', state_version = p.state_version + 1, updated_at = $1
         FROM due WHERE p.id = due.due_id AND p.status = 'requires_action' AND p.expires_at <= $1
        RETURNING p.*, ${NOTIFY_RETURNED_PAYMENT},
          (SELECT to_jsonb(m) FROM merchants m WHERE m.partner_id = p.partner_id AND m.id = p.merchant_id) AS merchant_row,
          (SELECT e.trace_id FROM payment_events e WHERE e.payment_id = p.id ORDER BY e.state_version DESC LIMIT 1) AS previous_trace_id`,
      [at, limit],
      'payments_expire_due',
    );
    const expired = rows.map(toPayment);
    if (expired.length) {
      const data = rows.map((r, i) => {
        const m = (typeof r.merchant_row === 'string' ? JSON.parse(r.merchant_row) : r.merchant_row) as Record<string, unknown> | null;
        const merchant: MerchantRecord | null = m ? toMerchant(m) : null;
        return JSON.stringify(event.snapshot(expired[i]!, merchant));
      });
      await tx.query(
        `INSERT INTO payment_events (id, payment_id, partner_id, type, state_version, created_at, data, trace_id)
         SELECT id, payment_id, partner_id, $4, state_version, $5, data, trace_id
           FROM unnest($1::text[], $2::text[], $3::text[], $6::int[], $7::jsonb[], $8::text[]) AS e(id, payment_id, partner_id, state_version, data, trace_id)`,
        [
          expired.map(() => event.newId()),
          expired.map((p) => p.id),
          expired.map((p) => p.partnerId),
          event.type,
          at,
          expired.map((p) => p.stateVersion),
          data,
          rows.map((r) => (typeof r.previous_trace_id === 'string' ? r.previous_trace_id : null)),
        ],
      );
    }
    const next = await tx.query<{ at: Date | null }>("SELECT min(expires_at) AS at FROM payments WHERE status = 'requires_action'", [], 'payments_next_deadline');
    const nextAt = next.rows[0]?.at ?? null;
    return { expired, nextDeadline: nextAt === null ? null : new Date(nextAt) };
  });
}
