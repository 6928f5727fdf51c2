/**
 * Who did what, and when, to a partner's account: kept at least a year (no job deletes entries;
 * a retention job, if one is ever added, must keep 365 days).
 */
export type AuditActorKind = 'user' | 'api_key';

export interface AuditActor {
  kind: AuditActorKind;
  id: string;
  /** How the actor reads in the log (an email, a key's name or hint), kept as it was then. */
  display: string;
}

export type AuditAction =
  | 'api_key.create'
  | 'api_key.revoke'
  | 'api_key.origins'
  | 'user.create'
  | 'user.invite'
  | 'user.role_change'
  | 'user.remove'
  | 'user.password_change'
  | 'session.sign_in'
  | 'session.sign_out_everywhere'
  | 'merchant.create'
  | 'merchant.update'
  | 'merchant.delete'
  | 'settlement.add'
  | 'settlement.change'
  | 'settlement.remove'
  | 'webhook_endpoint.create'
  | 'webhook_endpoint.update'
  | 'webhook_endpoint.enable'
  | 'webhook_endpoint.disable'
  | 'webhook_endpoint.rotate_secret'
  | 'webhook_endpoint.delete'
  | 'payment.refund'
  | 'payment.cancel'
  | 'settings.api_version'
  | 'settings.time_zone';

export type AuditDetail = Record<string, string | number | boolean | null>;

export interface AuditEntry {
  id: string;
  partnerId: string;
  actor: AuditActor;
  action: AuditAction;
  target: { type: string; id: string };
  at: Date;
  /** Small facts about the action (a key's scope, a role before and after); never a secret. */
  detail: AuditDetail;
}
