import { Router, type Response } from 'express';
import { recordAudit } from '../domain/audit/recorder.ts';
import type { AuditAction } from '../domain/audit/records.ts';
import { setTimeZone, upgradeApiVersion, type SettingsResult } from '../domain/partners/settings.ts';
import type { DashboardDeps } from './deps.ts';
import { field } from './form.ts';
import { requirePermission } from './permissions.ts';
import { signedOf, type Signed } from './signed.ts';
import { sendPage } from './views/shell.ts';
import { settingsPage } from './views/settings-page.ts';

const NOTICES: Record<string, string> = { version: 'API version upgraded.', zone: 'Time zone saved.' };

/** The partner's settings (owners): its pinned API version (forward only) and the dashboard's time zone. */
export function settingsRoutes(deps: DashboardDeps): Router {
  const router = Router();
  const now = () => new Date(deps.clock.now());

  router.get('/dashboard/settings', requirePermission('settings:manage'), (req, res) => {
    const notice = typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined;
    sendPage(res, 200, settingsPage(signedOf(res)!, { now: now(), ...(notice ? { notice } : {}) }));
  });

  const answer = async (res: Response, s: Signed, r: SettingsResult, action: AuditAction, detail: Record<string, string>, done: string, zone?: string) => {
    if (!r.ok) return sendPage(res, 400, settingsPage(s, { now: now(), error: r.problem, ...(zone !== undefined ? { zone } : {}) }));
    await recordAudit(deps.storage.auditLog, {
      partnerId: s.partner.id,
      actor: { kind: 'user', id: s.user.id, display: s.user.email },
      action,
      target: { type: 'partner', id: s.partner.id },
      at: now(),
      detail,
    });
    res.redirect(303, `/dashboard/settings?done=${done}`);
  };

  router.post('/dashboard/settings/api-version', requirePermission('settings:manage'), async (req, res) => {
    const s = signedOf(res)!;
    const version = field(req, 'version');
    const r = await upgradeApiVersion(deps.storage, s.partner, version);
    await answer(res, s, r, 'settings.api_version', { from: s.partner.defaultVersion, to: version }, 'version');
  });

  router.post('/dashboard/settings/time-zone', requirePermission('settings:manage'), async (req, res) => {
    const s = signedOf(res)!;
    const typed = field(req, 'timeZone');
    const r = await setTimeZone(deps.storage, s.partner, typed);
    await answer(res, s, r, 'settings.time_zone', { from: s.partner.timeZone ?? 'UTC', to: r.ok ? (r.partner.timeZone ?? 'UTC') : '' }, 'zone', typed.slice(0, 64));
  });
  return router;
}
