import type { Role, UserRecord } from '../../../server/domain/users/records.ts';
import type { UserRepository } from '../../../server/ports/storage/users.ts';
import type { SessionRepository } from '../../../server/ports/storage/sessions.ts';
import type { SessionRecord } from '../../../server/domain/users/records.ts';
import type { SqlDb } from './sql-db.ts';

type Row = Record<string, unknown>;
const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

const toUser = (r: Row): UserRecord => ({
  id: String(r.id),
  partnerId: String(r.partner_id),
  email: String(r.email),
  role: String(r.role) as Role,
  passwordHash: String(r.password_hash),
  ...(r.password_expires_at ? { passwordExpiresAt: date(r.password_expires_at) } : {}),
  createdAt: date(r.created_at),
});

const toSession = (r: Row): SessionRecord => ({
  idHash: String(r.id_hash),
  userId: String(r.user_id),
  partnerId: String(r.partner_id),
  csrfToken: String(r.csrf_token),
  createdAt: date(r.created_at),
  lastSeenAt: date(r.last_seen_at),
  expiresAt: date(r.expires_at),
});

const UNIQUE_VIOLATION = '23505';

export function createUserRepository(db: SqlDb): UserRepository {
  return {
    async create(u) {
      try {
        await db.query('INSERT INTO dashboard_users (id, partner_id, email, role, password_hash, password_expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
          u.id,
          u.partnerId,
          u.email.toLowerCase(),
          u.role,
          u.passwordHash,
          u.passwordExpiresAt ?? null,
          u.createdAt,
        ]);
        return { ok: true };
      } catch (err) {
        if ((err as { code?: string }).code === UNIQUE_VIOLATION) return { ok: false, reason: 'email_taken' };
        throw err;
      }
    },
    async listByEmail(email, limit) {
      const { rows } = await db.query('SELECT * FROM dashboard_users WHERE lower(email) = lower($1) ORDER BY created_at, id LIMIT $2', [email, limit]);
      return rows.map(toUser);
    },
    async get(partnerId, id) {
      const { rows } = await db.query('SELECT * FROM dashboard_users WHERE partner_id = $1 AND id = $2', [partnerId, id]);
      return rows[0] ? toUser(rows[0]) : null;
    },
    async listByPartner(partnerId) {
      const { rows } = await db.query('SELECT * FROM dashboard_users WHERE partner_id = $1 ORDER BY created_at, id', [partnerId]);
      return rows.map(toUser);
    },
    async setRole(partnerId, id, role) {
      const r = await db.query('UPDATE dashboard_users SET role = $3 WHERE partner_id = $1 AND id = $2', [partnerId, id, role]);
      return r.rowCount === 1;
    },
    async setPasswordHash(partnerId, id, passwordHash, expiresAt) {
      const r = await db.query('UPDATE dashboard_users SET password_hash = $3, password_expires_at = $4 WHERE partner_id = $1 AND id = $2', [
        partnerId,
        id,
        passwordHash,
        expiresAt ?? null,
      ]);
      return r.rowCount === 1;
    },
    async remove(partnerId, id) {
      // Sessions go with the user (ON DELETE CASCADE), in the same statement.
      const r = await db.query('DELETE FROM dashboard_users WHERE partner_id = $1 AND id = $2', [partnerId, id]);
      return r.rowCount === 1;
    },
  };
}

export function createSessionRepository(db: SqlDb): SessionRepository {
  return {
    async create(s) {
      await db.query('INSERT INTO dashboard_sessions (id_hash, user_id, partner_id, csrf_token, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        s.idHash,
        s.userId,
        s.partnerId,
        s.csrfToken,
        s.createdAt,
        s.lastSeenAt,
        s.expiresAt,
      ]);
    },
    async find(idHash) {
      const { rows } = await db.query('SELECT * FROM dashboard_sessions WHERE id_hash = $1', [idHash]);
      return rows[0] ? toSession(rows[0]) : null;
    },
    async touch(idHash, at) {
      await db.query('UPDATE dashboard_sessions SET last_seen_at = $2 WHERE id_hash = $1 AND last_seen_at < $2', [idHash, at]);
    },
    async remove(idHash) {
      const r = await db.query('DELETE FROM dashboard_sessions WHERE id_hash = $1', [idHash]);
      return r.rowCount === 1;
    },
    async removeExpired(now, idleSince) {
      const r = await db.query('DELETE FROM dashboard_sessions WHERE expires_at <= $1 OR last_seen_at < $2', [now, idleSince]);
      return r.rowCount;
    },
    async removeAllForUser(userId) {
      const r = await db.query('DELETE FROM dashboard_sessions WHERE user_id = $1', [userId]);
      return r.rowCount;
    },
  };
}
