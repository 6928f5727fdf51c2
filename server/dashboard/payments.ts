import { Router, type Request, type Response } from 'express';
import { refundPayment } from '../domain/payments/refund.ts';
import { cancelPayment, expireIfDue } from '../domain/payments/transition.ts';
import type { PaymentRecord } from '../domain/payments/records.ts';
import type { DashboardDeps } from './deps.ts';
import { formProblems } from './merchant-fields.ts';
import { recordUserAction } from './merchants-audit.ts';
import { networksOf, PAYMENT_ID, paymentFiltersOf } from './payments-query.ts';
import { requirePermission } from './permissions.ts';
import { signedOf, type Signed } from './signed.ts';
import { paymentPage } from './views/payment-page.ts';
import { paymentsPage } from './views/payments-page.ts';
import { sendErrorPage } from './views/error-page.ts';
import { sendPage } from './views/shell.ts';

const PAGE = 50;
const DONE: Record<string, string> = { refunded: 'Payment marked refunded; a payment.refunded event is sent to your webhooks.', cancelled: 'Payment cancelled.' };

/**
 * Payments: the list with the API's filters and stats, a payment's page with its timeline, and
 * refund and cancel through the API's own use cases (their rules: refund once and only a
 * succeeded payment; cancel only one still awaiting the buyer).
 */
export function paymentRoutes(deps: DashboardDeps): Router {
  const router = Router();
  const writers = requirePermission('payments:write');

  router.get('/dashboard/payments', requirePermission('read'), async (req, res) => {
    const s = signedOf(res)!;
    const { filters, query, problems } = paymentFiltersOf(req, deps.assets);
    const after = typeof req.query.after === 'string' && PAYMENT_ID.test(req.query.after) ? req.query.after : undefined;
    const [rows, stats, merchants] = await Promise.all([
      deps.storage.payments.list(s.partner.id, { ...query, ...(after ? { after: { id: after } } : {}), limit: PAGE + 1 }),
      deps.storage.payments.stats(s.partner.id, { ...query, limit: PAGE }),
      deps.storage.merchants.list(s.partner.id, { limit: 200 }),
    ]);
    const page = rows.slice(0, PAGE);
    const next = rows.length > PAGE ? page[page.length - 1]?.id : undefined;
    sendPage(
      res,
      problems.length ? 400 : 200,
      paymentsPage(s, {
        payments: page,
        stats,
        filters,
        problems,
        merchants: merchants.items,
        networks: networksOf(deps.assets),
        assets: deps.assets,
        now: deps.clock.now(),
        ...(next ? { next } : {}),
      }),
    );
  });

  async function find(s: Signed, req: Request): Promise<PaymentRecord | null> {
    const id = String(req.params.id);
    return PAYMENT_ID.test(id) ? deps.storage.payments.getForPartner(s.partner.id, id) : null;
  }

  async function show(s: Signed, res: Response, payment: PaymentRecord, status: number, extra: { notice?: string; problems?: string[] } = {}) {
    const [events, merchant] = await Promise.all([
      deps.storage.payments.events(payment.id),
      deps.storage.merchants.get(s.partner.id, payment.merchantId, { includeDeleted: true }),
    ]);
    sendPage(res, status, paymentPage(s, { payment, merchant, events, assets: deps.assets, explorerTxUrls: deps.explorerTxUrls ?? {}, now: deps.clock.now(), ...extra }));
  }

  const missing = (res: Response) => sendErrorPage(res, 404, 'No such payment', 'This account has no payment with that id.');

  router.get('/dashboard/payments/:id', requirePermission('read'), async (req, res) => {
    const s = signedOf(res)!;
    const payment = await find(s, req);
    if (!payment) return missing(res);
    const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
    await show(s, res, await expireIfDue(deps, payment), 200, done ? { notice: done } : {});
  });

  router.post('/dashboard/payments/:id/refund', writers, async (req, res) => {
    const s = signedOf(res)!;
    const payment = await find(s, req);
    if (!payment) return missing(res);
    try {
      const refunded = await refundPayment(deps, s.partner.id, payment.merchantId, payment.id);
      await recordUserAction(deps, s, 'payment.refund', { type: 'payment', id: payment.id }, { merchantId: payment.merchantId, referenceId: payment.referenceId });
      res.redirect(303, `/dashboard/payments/${refunded.id}?done=refunded`);
    } catch (err) {
      const problems = formProblems(err);
      await show(s, res, (await find(s, req)) ?? payment, 409, { problems });
    }
  });

  router.post('/dashboard/payments/:id/cancel', writers, async (req, res) => {
    const s = signedOf(res)!;
    const payment = await find(s, req);
    if (!payment) return missing(res);
    try {
      const cancelled = await cancelPayment(deps, payment, 'cancelled_by_merchant');
      await recordUserAction(deps, s, 'payment.cancel', { type: 'payment', id: payment.id }, { merchantId: payment.merchantId, referenceId: payment.referenceId });
      res.redirect(303, `/dashboard/payments/${cancelled.id}?done=cancelled`);
    } catch (err) {
      const problems = formProblems(err);
      await show(s, res, (await find(s, req)) ?? payment, 409, { problems });
    }
  });
  return router;
}
