import { Router, type Request, type Response } from 'express';
import { createMerchant, deleteMerchant, merchantWithSettlements, updateMerchant } from '../domain/merchants/merchants.ts';
import type { MerchantStatus } from '../domain/merchants/records.ts';
import type { DashboardDeps } from './deps.ts';
import { field } from './form.ts';
import { formProblems, merchantChangesOf, merchantFieldsOf } from './merchant-fields.ts';
import { recordUserAction } from './merchants-audit.ts';
import { requirePermission } from './permissions.ts';
import { signedOf, type Signed } from './signed.ts';
import { merchantPage, type MerchantFormValues } from './views/merchant-page.ts';
import { merchantsPage } from './views/merchants-page.ts';
import { sendErrorPage } from './views/error-page.ts';
import { sendPage } from './views/shell.ts';

const PAGE = 25;
const STATUSES: readonly MerchantStatus[] = ['active', 'inactive', 'suspended'];
const MERCHANT_ID = /^mrch_[0-9A-HJKMNP-TV-Z]{26}$/;

const q = (req: Request, name: string) => {
  const v = req.query[name];
  return typeof v === 'string' ? v : '';
};
const formValues = (req: Request): MerchantFormValues =>
  Object.fromEntries(['name', 'email', 'iconUrl', 'collect', 'collectCurrency', 'collectMinor'].map((k) => [k, field(req, k)]));

/**
 * Merchants: list (search, status, keyset pages as the API's list), create, edit, delete. The
 * rules are the API's: its schema for the fields, its use cases (domain/merchants) for the rest.
 */
export function merchantRoutes(deps: DashboardDeps): Router {
  const router = Router();
  const writers = requirePermission('merchants:write');

  async function list(req: Request, res: Response, status = 200, form: { problems?: string[]; values?: MerchantFormValues } = {}) {
    const s = signedOf(res)!;
    const search = q(req, 'search').slice(0, 256);
    const st = q(req, 'status') as MerchantStatus;
    const before = q(req, 'before');
    const { items, totalCount } = await deps.storage.merchants.list(s.partner.id, {
      ...(STATUSES.includes(st) ? { status: st } : {}),
      ...(search ? { search } : {}),
      ...(MERCHANT_ID.test(before) ? { beforeId: before } : {}),
      limit: PAGE + 1,
    });
    const page = items.slice(0, PAGE);
    const next = items.length > PAGE ? page[page.length - 1]?.id : undefined;
    sendPage(res, status, merchantsPage(s, { merchants: page, totalCount, search, status: STATUSES.includes(st) ? st : '', ...(next ? { next } : {}), ...form }));
  }

  async function show(s: Signed, res: Response, id: string, status = 200, extra: { problems?: string[]; notice?: string; values?: MerchantFormValues } = {}) {
    try {
      const { merchant, settlements } = await merchantWithSettlements(deps, s.partner.id, id);
      sendPage(res, status, merchantPage(s, { merchant, settlements, assets: deps.assets.all(), ...extra }));
    } catch (err) {
      formProblems(err);
      sendErrorPage(res, 404, 'No such merchant', 'This account has no merchant with that id.');
    }
  }

  router.get('/dashboard/merchants', requirePermission('read'), (req, res) => list(req, res));

  router.post('/dashboard/merchants', writers, async (req, res) => {
    const s = signedOf(res)!;
    try {
      const merchant = await createMerchant(deps, s.partner.id, merchantFieldsOf(req));
      await recordUserAction(deps, s, 'merchant.create', { type: 'merchant', id: merchant.id }, { name: merchant.name });
      res.redirect(303, `/dashboard/merchants/${merchant.id}?created=1`);
    } catch (err) {
      await list(req, res, 400, { problems: formProblems(err), values: formValues(req) });
    }
  });

  router.get('/dashboard/merchants/:id', requirePermission('read'), async (req, res) => {
    await show(signedOf(res)!, res, String(req.params.id), 200, q(req, 'created') ? { notice: 'Merchant created.' } : q(req, 'saved') ? { notice: 'Saved.' } : {});
  });

  router.post('/dashboard/merchants/:id', writers, async (req, res) => {
    const s = signedOf(res)!;
    const id = String(req.params.id);
    try {
      const updated = await updateMerchant(deps, s.partner.id, id, merchantChangesOf(req));
      await recordUserAction(
        deps,
        s,
        'merchant.update',
        { type: 'merchant', id },
        { name: updated.name, email: updated.email, dataCollection: updated.dataCollection ? 'on' : 'off' },
      );
      res.redirect(303, `/dashboard/merchants/${encodeURIComponent(id)}?saved=1`);
    } catch (err) {
      await show(s, res, id, 400, { problems: formProblems(err), values: formValues(req) });
    }
  });

  router.post('/dashboard/merchants/:id/delete', writers, async (req, res) => {
    const s = signedOf(res)!;
    const id = String(req.params.id);
    try {
      const deleted = await deleteMerchant(deps, s.partner.id, id);
      await recordUserAction(deps, s, 'merchant.delete', { type: 'merchant', id }, { name: deleted.name });
      res.redirect(303, '/dashboard/merchants');
    } catch (err) {
      formProblems(err);
      sendErrorPage(res, 404, 'No such merchant', 'This account has no merchant with that id.');
    }
  });
  return router;
}
