import { newId } from '../ids.ts';
import type { AuditLogRepository } from '../../ports/storage/audit-log.ts';
import type { AuditEntry } from './records.ts';

/**
 * The one way an action reaches the audit log, whoever acts (a dashboard user, an API key): the
 * entry gets its id here and its detail is bounded, so no caller can write an oversized row.
 */
export async function recordAudit(log: AuditLogRepository, entry: Omit<AuditEntry, 'id'>): Promise<AuditEntry> {
  const detail = Object.fromEntries(
    Object.entries(entry.detail)
      .slice(0, 20)
      .map(([k, v]) => [k.slice(0, 64), typeof v === 'string' ? v.slice(0, 512) : v]),
  );
  const full: AuditEntry = { ...entry, id: newId('auditEntry', entry.at.getTime()), actor: { ...entry.actor, display: entry.actor.display.slice(0, 320) }, detail };
  await log.record(full);
  return full;
}
