import { Router, type Response } from 'express';
import type { PaymentRecord } from '../domain/payments/records.ts';
import { effectiveStatus } from '../domain/payments/view.ts';
import type { DashboardDeps } from './deps.ts';
import { paymentFiltersOf } from './payments-query.ts';
import { requirePermission } from './permissions.ts';
import { signedOf } from './signed.ts';
import { paidText, priceText } from './views/money.ts';
import { sendErrorPage } from './views/error-page.ts';

/** Rows read from storage per round trip: memory stays bounded whatever the list's size. */
const BATCH = 500;

const HEADER = [
  'payment_id',
  'reference_id',
  'merchant_id',
  'merchant_name',
  'status',
  'refunded',
  'amount',
  'paid',
  'network',
  'buyer',
  'tx_id',
  'created_at',
  'succeeded_at',
  'refunded_at',
];

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break, quotes doubled. A
 * cell a spreadsheet would run as a formula (= + - @, or a tab or carriage return before one) gets
 * a leading apostrophe, so a buyer-chosen reference cannot become a formula on the partner's desk.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const line = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;
/** Resolves once the socket takes more, or is gone (a client that left never drains). */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

const iso = (d: Date | null) => (d ? d.toISOString() : '');

/**
 * GET /dashboard/payments.csv: the filtered list as CSV, streamed. Pages through storage with the
 * list's keyset position and writes each batch as it comes, waiting for the socket to drain, and
 * stops when the client goes away.
 */
export function paymentCsvRoutes(deps: DashboardDeps): Router {
  const router = Router();
  router.get('/dashboard/payments.csv', requirePermission('read'), async (req, res: Response) => {
    const s = signedOf(res)!;
    const { query, problems } = paymentFiltersOf(req, deps.assets);
    if (problems.length) return sendErrorPage(res, 400, 'Bad filter', problems.join(' '));
    const now = deps.clock.now();
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="payments-${new Date(now).toISOString().slice(0, 10)}.csv"`);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.write(line(HEADER));
    const names = new Map<string, string>();
    let after: string | undefined;
    try {
      await writeRows();
    } catch {
      // The 200 and the header are sent: no error page can follow. The response is cut off (not
      // ended cleanly, which would look like a complete file) instead of hanging open (issue 30 item 4).
      res.destroy();
      return;
    }
    res.end();

    async function writeRows() {
      while (!res.destroyed) {
        const batch: PaymentRecord[] = await deps.storage.payments.list(s.partner.id, { ...query, ...(after ? { after: { id: after } } : {}), limit: BATCH });
        const unknown = [...new Set(batch.map((p) => p.merchantId))].filter((id) => !names.has(id));
        if (unknown.length) for (const m of await deps.storage.merchants.getMany(s.partner.id, unknown)) names.set(m.id, m.name);
        const chunk = batch
          .map((p) =>
            line([
              p.id,
              p.referenceId,
              p.merchantId,
              names.get(p.merchantId) ?? '',
              effectiveStatus(p, now),
              p.refundedAt ? 'yes' : 'no',
              priceText(p, deps.assets),
              paidText(p, deps.assets),
              p.network ?? '',
              p.buyerAccount ?? '',
              p.txId ?? '',
              iso(p.createdAt),
              iso(p.succeededAt),
              iso(p.refundedAt),
            ]),
          )
          .join('');
        if (chunk && !res.write(chunk)) await drainedOrClosed(res);
        if (batch.length < BATCH) break;
        after = batch[batch.length - 1]!.id;
      }
    }
  });
  return router;
}
