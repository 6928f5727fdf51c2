import type { ApiKeyRepository } from '../../../server/ports/storage/api-keys.ts';
import type { PartnerRepository } from '../../../server/ports/storage/partners.ts';
import { toApiKey, toPartner } from './rows.ts';
import type { SqlDb } from './sql-db.ts';

export function createPartnerRepository(db: SqlDb): PartnerRepository {
  return {
    async create(p) {
      await db.query('INSERT INTO partners (id, name, default_version, created_at, icon_url) VALUES ($1, $2, $3, $4, $5)', [
        p.id,
        p.name,
        p.defaultVersion,
        p.createdAt,
        p.iconUrl ?? null,
      ]);
    },
    async get(id) {
      const { rows } = await db.query('SELECT * FROM partners WHERE id = $1', [id]);
      return rows[0] ? toPartner(rows[0]) : null;
    },
    async updateSettings(id, changes) {
      const { rows } = await db.query(
        'UPDATE partners SET default_version = COALESCE($2, default_version), time_zone = CASE WHEN $3::boolean THEN $4 ELSE time_zone END WHERE id = $1 RETURNING *',
        [id, changes.defaultVersion ?? null, changes.timeZone !== undefined, changes.timeZone ?? null],
      );
      return rows[0] ? toPartner(rows[0]) : null;
    },
    async count() {
      const { rows } = await db.query<{ n: bigint }>('SELECT count(*) AS n FROM partners');
      return Number(rows[0]?.n ?? 0n);
    },
  };
}

export function createApiKeyRepository(db: SqlDb): ApiKeyRepository {
  return {
    async create(k) {
      await db.query(
        `INSERT INTO api_keys (id, partner_id, scope, key_hash, hint, created_at, revoked_at, name, allowed_origins, permissions, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          k.id,
          k.partnerId,
          k.scope,
          k.keyHash,
          k.hint,
          k.createdAt,
          k.revokedAt,
          k.name ?? null,
          k.allowedOrigins?.length ? k.allowedOrigins : null,
          k.permissions ? [...k.permissions] : null,
          k.createdBy ?? null,
        ],
      );
    },
    async findActiveByHash(keyHash) {
      // Marks the key used at most once a minute: the API reads a key once per trust period
      // (http/key-cache.ts), so this writes a row a minute per active key, not one per request.
      // The SELECT sees the row as it was before this statement's update.
      const { rows } = await db.query(
        `WITH used AS (
           UPDATE api_keys SET last_used_at = now()
           WHERE key_hash = $1 AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
           RETURNING id
         )
         SELECT k.id, k.partner_id, k.scope, k.key_hash, k.hint, k.created_at, k.revoked_at, k.name, k.allowed_origins, k.permissions, k.created_by, p.name AS p_name, p.default_version AS p_default_version, p.created_at AS p_created_at, p.icon_url AS p_icon_url, p.time_zone AS p_time_zone
         FROM api_keys k JOIN partners p ON p.id = k.partner_id
         WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
        [keyHash],
      );
      const r = rows[0];
      if (!r) return null;
      return {
        key: toApiKey(r),
        partner: toPartner({
          id: r.partner_id,
          name: r.p_name,
          default_version: r.p_default_version,
          created_at: r.p_created_at,
          icon_url: r.p_icon_url,
          time_zone: r.p_time_zone,
        }),
      };
    },
    async listByPartner(partnerId) {
      const { rows } = await db.query('SELECT * FROM api_keys WHERE partner_id = $1 ORDER BY created_at, id', [partnerId]);
      return rows.map(toApiKey);
    },
    async setAllowedOrigins(id, origins) {
      const r = await db.query('UPDATE api_keys SET allowed_origins = $2::text[] WHERE id = $1', [id, origins.length ? origins : null]);
      return r.rowCount === 1;
    },
    async listActiveByCreator(partnerId, userId) {
      const { rows } = await db.query('SELECT * FROM api_keys WHERE partner_id = $1 AND created_by = $2 AND revoked_at IS NULL ORDER BY created_at, id', [partnerId, userId]);
      return rows.map(toApiKey);
    },
    async revoke(id, at) {
      const r = await db.query('UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, at]);
      return r.rowCount === 1;
    },
  };
}
