import type { MerchantRepository } from '../../../server/ports/storage/merchants.ts';
import { completeIdempotency } from './idempotency.ts';
import { toMerchant } from './rows.ts';
import type { SqlDb } from './sql-db.ts';

/** Escapes LIKE wildcards so a search for "50%" matches the text, not everything. */
const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createMerchantRepository(db: SqlDb): MerchantRepository {
  return {
    async create(m, idempotency) {
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO merchants (id, partner_id, name, email, icon_url, status, created_at, deleted_at, data_collection)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [m.id, m.partnerId, m.name, m.email, m.iconUrl, m.status, m.createdAt, m.deletedAt, m.dataCollection ? JSON.stringify(m.dataCollection) : null],
        );
        if (idempotency) await completeIdempotency(tx, idempotency);
      });
    },
    async get(partnerId, id, opts) {
      const { rows } = await db.query(`SELECT * FROM merchants WHERE partner_id = $1 AND id = $2 ${opts?.includeDeleted ? '' : 'AND deleted_at IS NULL'}`, [partnerId, id]);
      return rows[0] ? toMerchant(rows[0]) : null;
    },
    async getMany(partnerId, ids) {
      if (ids.length === 0) return [];
      const { rows } = await db.query('SELECT * FROM merchants WHERE partner_id = $1 AND id = ANY($2::text[])', [partnerId, ids]);
      return rows.map(toMerchant);
    },
    async update(partnerId, id, patch) {
      const { rows } = await db.query(
        `UPDATE merchants SET
           name = CASE WHEN $3 THEN $4 ELSE name END,
           email = CASE WHEN $5 THEN $6 ELSE email END,
           icon_url = CASE WHEN $7 THEN $8 ELSE icon_url END,
           data_collection = CASE WHEN $9 THEN $10::jsonb ELSE data_collection END
         WHERE partner_id = $1 AND id = $2 AND deleted_at IS NULL
         RETURNING *`,
        [
          partnerId,
          id,
          patch.name !== undefined,
          patch.name ?? null,
          patch.email !== undefined,
          patch.email ?? null,
          patch.iconUrl !== undefined,
          patch.iconUrl ?? null,
          patch.dataCollection !== undefined,
          patch.dataCollection ? JSON.stringify(patch.dataCollection) : null,
        ],
      );
      return rows[0] ? toMerchant(rows[0]) : null;
    },
    async softDelete(partnerId, id, at) {
      const { rows } = await db.query(
        `UPDATE merchants SET deleted_at = COALESCE(deleted_at, $3), status = 'inactive'
         WHERE partner_id = $1 AND id = $2 RETURNING *`,
        [partnerId, id, at],
      );
      return rows[0] ? toMerchant(rows[0]) : null;
    },
    async list(partnerId, q) {
      const where = ['partner_id = $1', 'deleted_at IS NULL'];
      const params: unknown[] = [partnerId];
      if (q.status) {
        params.push(q.status);
        where.push(`status = $${params.length}`);
      }
      if (q.search) {
        params.push(likePattern(q.search));
        where.push(`(name ILIKE $${params.length} OR id ILIKE $${params.length})`);
      }
      const filter = where.join(' AND ');
      const countParams = [...params];
      if (q.beforeId) {
        params.push(q.beforeId);
        where.push(`id < $${params.length}`);
      }
      params.push(q.limit);
      const [page, count] = await Promise.all([
        db.query(`SELECT * FROM merchants WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${params.length}`, params),
        db.query<{ n: bigint }>(`SELECT count(*) AS n FROM merchants WHERE ${filter}`, countParams),
      ]);
      return { items: page.rows.map(toMerchant), totalCount: Number(count.rows[0]?.n ?? 0n) };
    },
  };
}
