import type { Clock } from '../ports/clock.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import type { ApiKeyRecord } from '../domain/partners/records.ts';
import type { AuditAction, AuditActor, AuditDetail } from '../domain/audit/records.ts';
import { recordAudit } from '../domain/audit/recorder.ts';
import { partnerOf, type RequestContext } from '../http/context.ts';

const KEY_PREFIX: Record<ApiKeyRecord['scope'], string> = { partner: 'sk_', wallet: 'wk_', app: 'app_' };

/** The key as the log shows it: its prefix and last characters (never more of it), and its name when it has one. */
function keyActor(key: ApiKeyRecord): AuditActor {
  const shown = `${KEY_PREFIX[key.scope]}…${key.hint}`;
  return { kind: 'api_key', id: key.id, display: key.name ? `${key.name} (${shown})` : shown };
}

/**
 * Records an action the API performed, with the request's key as the actor, through the recorder
 * the dashboard uses. The dashboard records its own actions in its routes, so an action is logged
 * once whichever way it came. Written right after the change committed (the use cases own their
 * transactions): a crash between the two loses the entry, never the change.
 */
export async function auditApiAction(
  deps: { storage: StoragePort; clock: Clock },
  ctx: RequestContext,
  action: AuditAction,
  target: { type: string; id: string },
  detail: AuditDetail = {},
): Promise<void> {
  if (!ctx.key) throw new Error('no authenticated key on this request');
  await recordAudit(deps.storage.auditLog, { partnerId: partnerOf(ctx).id, actor: keyActor(ctx.key), action, target, at: new Date(deps.clock.now()), detail });
}
