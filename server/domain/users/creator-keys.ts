import { recordAudit } from '../audit/recorder.ts';
import type { AuditActor } from '../audit/records.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import { roleMayHold } from './permissions.ts';
import type { Role } from './records.ts';

/**
 * Revokes the keys a dashboard user made that their role (null: removed) may no longer hold, one
 * audit entry per key naming why. Without this a removed developer's partner key, or a demoted
 * owner's, kept its powers (issue 30 item 1). Returns the revoked keys' hashes, so the caller's key
 * cache forgets them at once.
 */
export async function revokeKeysBeyondRole(
  storage: Pick<StoragePort, 'apiKeys' | 'auditLog'>,
  opts: { partnerId: string; userId: string; role: Role | null; actor: AuditActor; now: Date },
): Promise<string[]> {
  const revoked: string[] = [];
  for (const key of await storage.apiKeys.listActiveByCreator(opts.partnerId, opts.userId)) {
    if (opts.role && roleMayHold(opts.role, key)) continue;
    if (!(await storage.apiKeys.revoke(key.id, opts.now))) continue;
    revoked.push(key.keyHash);
    await recordAudit(storage.auditLog, {
      partnerId: opts.partnerId,
      actor: opts.actor,
      action: 'api_key.revoke',
      target: { type: 'api_key', id: key.id },
      at: opts.now,
      detail: { name: key.name ?? null, scope: key.scope, hint: key.hint, reason: opts.role ? `creator's role is now ${opts.role}` : 'creator removed' },
    });
  }
  return revoked;
}
