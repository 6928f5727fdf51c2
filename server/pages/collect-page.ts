import express, { Router, type Response } from 'express';
import { AppError } from '../errors.ts';
import { assertNoHostileInput } from '../http/hostile-input.ts';
import { recordCollected } from '../domain/collect-data/collect.ts';
import { COLLECT_SCHEMA } from '../domain/collect-data/schema.ts';
import { verifyCollectToken } from '../domain/collect-data/token.ts';
import { effectiveStatus } from '../domain/payments/view.ts';
import type { PaymentRecord } from '../domain/payments/records.ts';
import type { QuoteRecord } from '../domain/payments/quote-records.ts';
import { renderCollectError, renderCollectForm } from './collect-form.ts';
import { setPageHeaders } from './page-csp.ts';
import type { PageDeps } from './payment-data.ts';

type Scoped = { ok: true; payment: PaymentRecord; quote: QuoteRecord } | { ok: false; reason: string; message: string; status: number };

/**
 * The data-collection page of one option (`{payPath}/collect/<token>`) and its submission. The
 * token is the only key: it names one payment and one option, so nothing else is reachable, and
 * the page answers nothing but the form. Frameable by any host, as wallets embed it.
 */
export function collectRouter(deps: PageDeps & { collectDataSecret: string }, payPath: string, assetBase: string): Router {
  async function scoped(token: string): Promise<Scoped> {
    const scope = verifyCollectToken(deps.collectDataSecret, token, deps.clock.now());
    if (!scope)
      return { ok: false, reason: 'invalid_link', message: 'This link has expired or is not valid. Go back to your wallet and choose the payment option again.', status: 404 };
    const payment = await deps.storage.payments.get(scope.paymentId);
    const quote = payment ? await deps.storage.quotes.get(scope.paymentId, scope.optionId) : null;
    if (!payment || !quote) return { ok: false, reason: 'invalid_link', message: 'This link does not match a payment option.', status: 404 };
    const status = effectiveStatus(payment, deps.clock.now());
    if (status !== 'requires_action')
      return { ok: false, reason: `payment_${status}`, message: `This payment is ${status.replace('_', ' ')}; no details are needed any more.`, status: 409 };
    if (!quote.collectData) return { ok: false, reason: 'not_needed', message: 'This payment option needs no details.', status: 404 };
    return { ok: true, payment, quote };
  }

  const router = Router();
  router.get(`${payPath}/collect/:token`, async (req, res: Response) => {
    const s = await scoped(req.params.token);
    setPageHeaders(res, { embeddable: true });
    if (!s.ok) return void res.status(s.status).send(renderCollectError(assetBase, s.reason, s.message));
    const merchant = await deps.storage.merchants.get(s.payment.partnerId, s.payment.merchantId, { includeDeleted: true });
    res.send(renderCollectForm(COLLECT_SCHEMA, { assetBase, postUrl: `${payPath}/collect/${req.params.token}` }, merchant?.name ?? ''));
  });

  router.post(`${payPath}/collect/:token`, express.json({ limit: '16kb' }), async (req, res) => {
    assertNoHostileInput(req);
    const s = await scoped(req.params.token);
    if (!s.ok) throw new AppError(s.status === 409 ? 'invalid_state' : 'not_found', s.message, { status: s.status, details: { reason: s.reason } });
    const data = (req.body as { data?: unknown } | undefined)?.data;
    if (!data || typeof data !== 'object' || Array.isArray(data))
      throw new AppError('params_validation', 'Send {"data": {…}} with the form fields', { issues: [{ field: 'data', message: 'must be an object' }] });
    await recordCollected(deps, s.quote, data as Record<string, string | boolean>);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'complete' });
  });
  return router;
}
