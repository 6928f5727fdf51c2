import { Router } from 'express';
import type { DashboardDeps } from './deps.ts';
import { requirePermission } from './permissions.ts';
import { signedOf } from './signed.ts';
import { auditPage } from './views/audit-page.ts';
import { sendPage } from './views/shell.ts';

const PAGE = 50;

/** The audit log (owners): newest first, 50 a page, continued by the last entry's time and id. */
export function auditRoutes(deps: DashboardDeps): Router {
  const router = Router();
  router.get('/dashboard/audit', requirePermission('audit:read'), async (req, res) => {
    const s = signedOf(res)!;
    const raw = typeof req.query.before === 'string' ? /^(\d{1,15})_(aud_[0-9A-HJKMNP-TV-Z]{26})$/.exec(req.query.before) : null;
    const before = raw ? { at: new Date(Number(raw[1])), id: raw[2]! } : undefined;
    const entries = await deps.storage.auditLog.listByPartner(s.partner.id, { limit: PAGE, ...(before ? { before } : {}) });
    const last = entries.length === PAGE ? entries[entries.length - 1] : undefined;
    sendPage(res, 200, auditPage(s, { entries, ...(last ? { next: `${last.at.getTime()}_${last.id}` } : {}) }));
  });
  return router;
}
