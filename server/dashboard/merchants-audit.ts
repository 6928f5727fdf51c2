import { recordAudit } from '../domain/audit/recorder.ts';
import type { AuditAction, AuditDetail } from '../domain/audit/records.ts';
import type { DashboardDeps } from './deps.ts';
import type { Signed } from './signed.ts';

/** Records a dashboard action (merchants, settlements, refunds, cancels) with the signed-in user as the actor. */
export async function recordUserAction(
  deps: Pick<DashboardDeps, 'storage' | 'clock'>,
  s: Signed,
  action: AuditAction,
  target: { type: string; id: string },
  detail: AuditDetail = {},
): Promise<void> {
  await recordAudit(deps.storage.auditLog, {
    partnerId: s.partner.id,
    actor: { kind: 'user', id: s.user.id, display: s.user.email },
    action,
    target,
    at: new Date(deps.clock.now()),
    detail,
  });
}
