import { Router, type Response } from 'express';
import { recordAudit } from '../domain/audit/recorder.ts';
import type { AuditAction } from '../domain/audit/records.ts';
import { setTimeZone, upgradeApiVersion, type SettingsResult } from '../domain/partners/settings.ts';
import type { DashboardDeps } from './deps.ts';
import { field } from './form.ts';
import { requirePermission } from './permissions.ts';
import { signedOf, type Signed } from './signed.ts';
import { sendPage } from './views/shell.ts';
import { settingsPage, type FeeSpendingView } from './views/settings-page.ts';
import { periodStart } from '../domain/fees/fee-budget.ts';

const NOTICES: Record<string, string> = { version: 'API version upgraded.', zone: 'Time zone saved.' };

/** The partner's settings (owners): its pinned API version (forward only), the dashboard's time zone, and its fee spending against its budgets. */
export function settingsRoutes(deps: DashboardDeps): Router {
  const router = Router();
  const now = () => new Date(deps.clock.now());

  /** What the shared fee accounts spent for this partner's payments in the budget period, per chain, beside its budget. */
  const spending = async (s: Signed): Promise<FeeSpendingView | undefined> => {
    if (!deps.feeBudget) return undefined;
    const totals = await deps.storage.feeSpending.totals(s.partner.id, periodStart(deps.feeBudget, deps.clock.now()));
    return { periodS: deps.feeBudget.periodS, chains: totals.map((t) => ({ ...t, budget: deps.feeBudget!.budget(t.chain) })) };
  };

  router.get('/dashboard/settings', requirePermission('settings:manage'), async (req, res) => {
    const notice = typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined;
    const s = signedOf(res)!;
    const fees = await spending(s);
    sendPage(res, 200, settingsPage(s, { now: now(), ...(notice ? { notice } : {}), ...(fees ? { fees } : {}) }));
  });

  const answer = async (res: Response, s: Signed, r: SettingsResult, action: AuditAction, detail: Record<string, string>, done: string, zone?: string) => {
    if (!r.ok) {
      const fees = await spending(s);
      return sendPage(res, 400, settingsPage(s, { now: now(), error: r.problem, ...(zone !== undefined ? { zone } : {}), ...(fees ? { fees } : {}) }));
    }
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
