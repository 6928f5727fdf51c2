import type { AuditEntry } from '../../domain/audit/records.ts';

/** The audit log: append only, read per partner newest first. Nothing here deletes an entry. */
export interface AuditLogRepository {
  record(entry: AuditEntry): Promise<void>;
  /** Newest first; `before` (the last entry of the previous page) continues a listing. */
  listByPartner(partnerId: string, opts: { limit: number; before?: { at: Date; id: string } }): Promise<AuditEntry[]>;
}
