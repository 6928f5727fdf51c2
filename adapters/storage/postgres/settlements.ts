import type { CreateSettlementsResult } from '../../../server/domain/merchants/records.ts';
import type { SettlementRepository } from '../../../server/ports/storage/settlements.ts';
import { completeIdempotency } from './idempotency.ts';
import { toSettlement } from './rows.ts';
import { isUniqueViolation, type SqlDb } from './sql-db.ts';

class AssetConflict extends Error {
  readonly asset: string;
  constructor(asset: string) {
    super(`asset ${asset} already registered`);
    this.asset = asset;
  }
}

export function createSettlementRepository(db: SqlDb): SettlementRepository {
  return {
    async createMany(partnerId, merchantId, items, idempotency): Promise<CreateSettlementsResult> {
      try {
        return await db.transaction(async (tx) => {
          // Lock the merchant row so a concurrent delete cannot slip between check and insert.
          const m = await tx.query('SELECT id FROM merchants WHERE partner_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE', [partnerId, merchantId]);
          if (m.rowCount === 0) return { ok: false, reason: 'merchant_not_found' } as const;
          for (const s of items) {
            const r = await tx.query(
              `INSERT INTO crypto_settlements (id, partner_id, merchant_id, asset, destination, created_at)
               VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT ON CONSTRAINT crypto_settlements_merchant_asset DO NOTHING`,
              [s.id, partnerId, merchantId, s.asset, s.destination, s.createdAt],
            );
            if (r.rowCount === 0) throw new AssetConflict(s.asset);
          }
          if (idempotency) await completeIdempotency(tx, idempotency);
          return { ok: true } as const;
        });
      } catch (err) {
        if (err instanceof AssetConflict) return { ok: false, reason: 'asset_conflict', asset: err.asset };
        if (isUniqueViolation(err)) return { ok: false, reason: 'asset_conflict', asset: items[0]?.asset ?? '' };
        throw err;
      }
    },
    async listByMerchant(partnerId, merchantId) {
      const { rows } = await db.query(
        'SELECT * FROM crypto_settlements WHERE partner_id = $1 AND merchant_id = $2 ORDER BY id',
        [partnerId, merchantId],
        'settlements_by_merchant',
      );
      return rows.map(toSettlement);
    },
    async get(partnerId, merchantId, id) {
      const { rows } = await db.query('SELECT * FROM crypto_settlements WHERE partner_id = $1 AND merchant_id = $2 AND id = $3', [partnerId, merchantId, id]);
      return rows[0] ? toSettlement(rows[0]) : null;
    },
    async updateDestination(partnerId, merchantId, id, destination) {
      const { rows } = await db.query('UPDATE crypto_settlements SET destination = $4 WHERE partner_id = $1 AND merchant_id = $2 AND id = $3 RETURNING *', [
        partnerId,
        merchantId,
        id,
        destination,
      ]);
      return rows[0] ? toSettlement(rows[0]) : null;
    },
    async delete(partnerId, merchantId, id) {
      const r = await db.query('DELETE FROM crypto_settlements WHERE partner_id = $1 AND merchant_id = $2 AND id = $3', [partnerId, merchantId, id]);
      return r.rowCount === 1;
    },
  };
}
