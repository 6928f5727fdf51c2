import type { IdempotencyClaim, IdempotencyCompletion } from '../../../server/domain/idempotency/records.ts';
import type { IdempotencyRepository } from '../../../server/ports/storage/idempotency.ts';
import type { SqlClient, SqlDb } from './sql-db.ts';

/**
 * Writes the stored answer; called inside the transaction that creates the resource. It is kept as
 * the JSON text (a text column, not jsonb) so a replay sends the first answer's bytes, key order too.
 */
export async function completeIdempotency(tx: SqlClient, c: IdempotencyCompletion): Promise<void> {
  await tx.query('UPDATE idempotency_keys SET status_code = $3, response_body = $4 WHERE partner_id = $1 AND key = $2', [c.partnerId, c.key, c.statusCode, JSON.stringify(c.body)]);
}

export function createIdempotencyRepository(db: SqlDb): IdempotencyRepository {
  return {
    async claim(partnerId, key, requestHash, now, staleAfterMs): Promise<IdempotencyClaim> {
      const inserted = await db.query(
        `INSERT INTO idempotency_keys (partner_id, key, request_hash, created_at, claimed_at)
         VALUES ($1, $2, $3, $4, $4) ON CONFLICT (partner_id, key) DO NOTHING`,
        [partnerId, key, requestHash, now],
        'idempotency_claim',
      );
      if (inserted.rowCount === 1) return { kind: 'claimed' };
      const { rows } = await db.query<{ request_hash: string; status_code: number | null; response_body: string | null; claimed_at: Date }>(
        'SELECT request_hash, status_code, response_body, claimed_at FROM idempotency_keys WHERE partner_id = $1 AND key = $2',
        [partnerId, key],
      );
      const row = rows[0];
      // Released between our insert and select: try once more from the top.
      if (!row) return this.claim(partnerId, key, requestHash, now, staleAfterMs);
      if (row.request_hash !== requestHash) return { kind: 'conflict' };
      if (row.status_code !== null) {
        // Parsing keeps the text's key order, so serializing the replay gives the same bytes again.
        return { kind: 'replay', statusCode: row.status_code, body: row.response_body === null ? null : (JSON.parse(row.response_body) as unknown) };
      }
      const staleBefore = new Date(now.getTime() - staleAfterMs);
      const taken = await db.query(
        `UPDATE idempotency_keys SET claimed_at = $3
         WHERE partner_id = $1 AND key = $2 AND status_code IS NULL AND claimed_at < $4`,
        [partnerId, key, now, staleBefore],
      );
      return taken.rowCount === 1 ? { kind: 'claimed' } : { kind: 'in_progress' };
    },
    async complete(c) {
      await completeIdempotency(db, c);
    },
    async release(partnerId, key) {
      await db.query('DELETE FROM idempotency_keys WHERE partner_id = $1 AND key = $2 AND status_code IS NULL', [partnerId, key]);
    },
    async purgeCreatedBeforeBatch(before, limit) {
      const r = await db.query(
        `DELETE FROM idempotency_keys WHERE (partner_id, key) IN (
           SELECT partner_id, key FROM idempotency_keys WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [before, limit],
      );
      return r.rowCount;
    },
    async purgeCreatedBefore(before) {
      const r = await db.query('DELETE FROM idempotency_keys WHERE created_at < $1', [before]);
      return r.rowCount;
    },
  };
}
