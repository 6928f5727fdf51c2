import { Router, type Response } from 'express';
import { changeSettlementDestination, registerSettlements, removeSettlement } from '../domain/merchants/settlements.ts';
import { merchantWithSettlements } from '../domain/merchants/merchants.ts';
import type { DashboardDeps } from './deps.ts';
import { field } from './form.ts';
import { formProblems } from './merchant-fields.ts';
import { recordUserAction } from './merchants-audit.ts';
import { requirePermission } from './permissions.ts';
import { signedOf, type Signed } from './signed.ts';
import { merchantPage } from './views/merchant-page.ts';
import { sendErrorPage } from './views/error-page.ts';
import { sendPage } from './views/shell.ts';

/** A merchant's crypto settlements: add, change destination, remove, through the API's use cases (domain/merchants/settlements). */
export function settlementRoutes(deps: DashboardDeps): Router {
  const router = Router();
  const writers = requirePermission('merchants:write');
  const base = (id: string) => `/dashboard/merchants/${encodeURIComponent(id)}`;

  /** Runs an action; its 4xx is shown on the merchant's page as the domain's messages. */
  async function attempt(s: Signed, res: Response, merchantId: string, action: () => Promise<void>) {
    try {
      await action();
      res.redirect(303, `${base(merchantId)}?saved=1`);
    } catch (err) {
      const problems = formProblems(err);
      try {
        const { merchant, settlements } = await merchantWithSettlements(deps, s.partner.id, merchantId);
        sendPage(res, 400, merchantPage(s, { merchant, settlements, assets: deps.assets.all(), problems }));
      } catch (gone) {
        formProblems(gone);
        sendErrorPage(res, 404, 'No such merchant', 'This account has no merchant with that id.');
      }
    }
  }

  router.post('/dashboard/merchants/:id/settlements', writers, async (req, res) => {
    const s = signedOf(res)!;
    const merchantId = String(req.params.id);
    await attempt(s, res, merchantId, async () => {
      const [created] = await registerSettlements(deps, s.partner.id, merchantId, [{ asset: field(req, 'asset'), destination: field(req, 'destination').trim() }]);
      await recordUserAction(deps, s, 'settlement.add', { type: 'settlement', id: created!.id }, { merchantId, asset: created!.asset, destination: created!.destination });
    });
  });

  router.post('/dashboard/merchants/:id/settlements/:sid', writers, async (req, res) => {
    const s = signedOf(res)!;
    const merchantId = String(req.params.id);
    const id = String(req.params.sid);
    await attempt(s, res, merchantId, async () => {
      const updated = await changeSettlementDestination(deps, s.partner.id, merchantId, id, field(req, 'destination').trim());
      await recordUserAction(deps, s, 'settlement.change', { type: 'settlement', id }, { merchantId, asset: updated.asset, destination: updated.destination });
    });
  });

  router.post('/dashboard/merchants/:id/settlements/:sid/remove', writers, async (req, res) => {
    const s = signedOf(res)!;
    const merchantId = String(req.params.id);
    const id = String(req.params.sid);
    await attempt(s, res, merchantId, async () => {
      await removeSettlement(deps, s.partner.id, merchantId, id);
      await recordUserAction(deps, s, 'settlement.remove', { type: 'settlement', id }, { merchantId });
    });
  });
  return router;
}
