import { Router, type Request } from 'express';
import { createKey } from '../auth/provisioning.ts';
import { recordAudit } from '../domain/audit/recorder.ts';
import type { KeyPermission, KeyScope } from '../domain/partners/records.ts';
import { can, isKeyPermission, KEY_PERMISSIONS, keyPermissionsOf } from '../domain/users/permissions.ts';
import type { Role } from '../domain/users/records.ts';
import { checkOrigins } from '../domain/partners/origins.ts';
import type { DashboardDeps } from './deps.ts';
import { field } from './form.ts';
import { requirePermission } from './permissions.ts';
import { signedOf } from './signed.ts';
import { keyCreatedPage, keysPage } from './views/keys-page.ts';
import { sendErrorPage } from './views/error-page.ts';
import { sendPage } from './views/shell.ts';

const SCOPES: readonly KeyScope[] = ['partner', 'wallet', 'app'];

/**
 * The permissions a new partner key gets: those ticked, each one the user's role has (a developer
 * cannot make a key that changes settlements, issue 30 item 1); none ticked, the role's own. An
 * owner's key with every permission is unlimited (absent), like the keys made before.
 */
function askedPermissions(req: Request, role: Role): { permissions: KeyPermission[] | undefined } | { problem: string } {
  const raw = (req.body as Record<string, unknown> | undefined)?.permissions;
  const ticked = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (ticked.some((p) => typeof p !== 'string')) return { problem: 'Choose permissions from the list.' };
  const beyond = (ticked as string[]).find((p) => !isKeyPermission(p) || !can(role, p));
  if (beyond !== undefined) return { problem: `Your role (${role}) cannot give a key the permission "${beyond.slice(0, 40)}".` };
  const chosen = ticked.length ? KEY_PERMISSIONS.filter((p) => ticked.includes(p)) : keyPermissionsOf(role);
  return { permissions: chosen.length === KEY_PERMISSIONS.length ? undefined : chosen };
}

/** The API keys page: list, create (the value shown once), revoke. Writing needs `keys:write`. */
export function keyRoutes(deps: DashboardDeps): Router {
  const router = Router();
  const live = deps.mode === 'production';
  const actorOf = (s: NonNullable<ReturnType<typeof signedOf>>) => ({ kind: 'user' as const, id: s.user.id, display: s.user.email });

  router.get('/dashboard/keys', requirePermission('read'), async (req, res) => {
    const s = signedOf(res)!;
    const keys = await deps.storage.apiKeys.listByPartner(s.partner.id);
    const revoked = typeof req.query.revoked === 'string' ? req.query.revoked : undefined;
    sendPage(res, 200, keysPage(s, { keys: keys.reverse(), live, keyTrustMs: deps.keyTrustMs, ...(revoked ? { revoked } : {}) }));
  });

  router.post('/dashboard/keys', requirePermission('keys:write'), async (req, res) => {
    const s = signedOf(res)!;
    const name = field(req, 'name').trim();
    const scope = field(req, 'scope') as KeyScope;
    const asked = scope === 'partner' ? askedPermissions(req, s.user.role) : { permissions: undefined };
    const problem =
      !name || name.length > 80 ? 'Give the key a name of 1 to 80 characters.' : !SCOPES.includes(scope) ? 'Choose a key type.' : 'problem' in asked ? asked.problem : null;
    if (problem) {
      const keys = await deps.storage.apiKeys.listByPartner(s.partner.id);
      return sendPage(res, 400, keysPage(s, { keys: keys.reverse(), live, keyTrustMs: deps.keyTrustMs, error: problem, name }));
    }
    const now = new Date(deps.clock.now());
    const permissions = 'permissions' in asked ? asked.permissions : undefined;
    const { record, apiKey } = await createKey(deps.storage, { partnerId: s.partner.id, scope, live, name, now, createdBy: s.user.id, ...(permissions ? { permissions } : {}) });
    await recordAudit(deps.storage.auditLog, {
      partnerId: s.partner.id,
      actor: actorOf(s),
      action: 'api_key.create',
      target: { type: 'api_key', id: record.id },
      at: now,
      detail: { name, scope, hint: record.hint, permissions: permissions?.join(' ') ?? 'all' },
    });
    // The value is in this answer only (no-store): it is never stored, so no later page can show it.
    sendPage(res, 201, keyCreatedPage(s, { record, apiKey }));
  });

  router.post('/dashboard/keys/:id/revoke', requirePermission('keys:write'), async (req, res) => {
    const s = signedOf(res)!;
    const id = String(req.params.id);
    // The port revokes by id alone: the key must first be found among this partner's own.
    const key = (await deps.storage.apiKeys.listByPartner(s.partner.id)).find((k) => k.id === id);
    if (!key) return sendErrorPage(res, 404, 'No such key', 'This partner has no key with that id.');
    const now = new Date(deps.clock.now());
    if (await deps.storage.apiKeys.revoke(id, now)) {
      deps.keyRevocations.changed(key.keyHash);
      await recordAudit(deps.storage.auditLog, {
        partnerId: s.partner.id,
        actor: actorOf(s),
        action: 'api_key.revoke',
        target: { type: 'api_key', id },
        at: now,
        detail: { name: key.name ?? null, scope: key.scope, hint: key.hint },
      });
    }
    res.redirect(303, `/dashboard/keys?revoked=${encodeURIComponent(id)}`);
  });
  router.post('/dashboard/keys/:id/origins', requirePermission('keys:write'), async (req, res) => {
    const s = signedOf(res)!;
    const id = String(req.params.id);
    const keys = await deps.storage.apiKeys.listByPartner(s.partner.id);
    const key = keys.find((k) => k.id === id && k.scope === 'app' && !k.revokedAt);
    if (!key) return sendErrorPage(res, 404, 'No such App-Id', 'This partner has no active App-Id with that id.');
    // One origin a line (spaces and commas separate too); nothing typed: any origin.
    const typed = field(req, 'origins')
      .split(/[\s,]+/)
      .filter(Boolean);
    const checked = checkOrigins(typed, { sandbox: !live });
    if (!checked.ok) {
      return sendPage(res, 400, keysPage(s, { keys: keys.reverse(), live, keyTrustMs: deps.keyTrustMs, originsError: { keyId: id, problem: checked.problem } }));
    }
    const now = new Date(deps.clock.now());
    await deps.storage.apiKeys.setAllowedOrigins(id, checked.origins);
    // This process's key cache forgets the App-Id, so the new list applies here at once (other
    // processes read it again within their trust period).
    deps.keyRevocations.changed(key.keyHash);
    await recordAudit(deps.storage.auditLog, {
      partnerId: s.partner.id,
      actor: actorOf(s),
      action: 'api_key.origins',
      target: { type: 'api_key', id },
      at: now,
      detail: { name: key.name ?? null, hint: key.hint, from: (key.allowedOrigins ?? []).join(' ') || 'any', to: checked.origins.join(' ') || 'any' },
    });
    res.redirect(303, '/dashboard/keys');
  });
  return router;
}
