import type { AuditAction, AuditActorKind, AuditDetail, AuditEntry } from '../../../server/domain/audit/records.ts';
import type { AuditLogRepository } from '../../../server/ports/storage/audit-log.ts';
import type { SqlDb } from './sql-db.ts';

type Row = Record<string, unknown>;

const toEntry = (r: Row): AuditEntry => ({
  id: String(r.id),
  partnerId: String(r.partner_id),
  actor: { kind: String(r.actor_kind) as AuditActorKind, id: String(r.actor_id), display: String(r.actor_display) },
  action: String(r.action) as AuditAction,
  target: { type: String(r.target_type), id: String(r.target_id) },
  at: r.at instanceof Date ? r.at : new Date(String(r.at)),
  detail: (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as AuditDetail,
});

export function createAuditLogRepository(db: SqlDb): AuditLogRepository {
  return {
    async record(e) {
      await db.query(
        `INSERT INTO audit_log (id, partner_id, actor_kind, actor_id, actor_display, action, target_type, target_id, at, detail)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)`,
        [e.id, e.partnerId, e.actor.kind, e.actor.id, e.actor.display, e.action, e.target.type, e.target.id, e.at, JSON.stringify(e.detail)],
      );
    },
    async listByPartner(partnerId, { limit, before }) {
      const n = Math.max(1, Math.min(500, Math.floor(limit)));
      const { rows } = before
        ? await db.query('SELECT * FROM audit_log WHERE partner_id = $1 AND (at, id) < ($2, $3) ORDER BY at DESC, id DESC LIMIT $4', [partnerId, before.at, before.id, n])
        : await db.query('SELECT * FROM audit_log WHERE partner_id = $1 ORDER BY at DESC, id DESC LIMIT $2', [partnerId, n]);
      return rows.map(toEntry);
    },
  };
}
