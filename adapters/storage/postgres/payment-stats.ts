import type { PaymentListQuery, PaymentStatsRecord } from '../../../server/domain/payments/records.ts';
import { listClauses } from './payment-sql.ts';
import type { SqlDb } from './sql-db.ts';

/**
 * The stats of a payment list: revenue per fiat currency, transactions and distinct customers of
 * the paid payments (succeeded, not refunded) the filter matches.
 *
 * A filter on partner, merchants and status is answered from the counters the payments trigger
 * keeps (migration 013): a few rows per merchant, whatever the number of payments. Any other
 * filter (creation time, network, asset, reference) cannot be read off counters without lying, so
 * it reads the paid payments it matches, through the partner's indexes.
 */
export async function paymentStats(db: SqlDb, partnerId: string, q: PaymentListQuery): Promise<PaymentStatsRecord> {
  const fromCounters = q.createdFrom === undefined && q.createdBefore === undefined && q.networks === undefined && q.assets === undefined && q.referenceId === undefined;
  return fromCounters ? counted(db, partnerId, q) : scanned(db, partnerId, q);
}

const NOTHING: PaymentStatsRecord = { revenue: [], transactions: 0, customers: 0 };

async function counted(db: SqlDb, partnerId: string, q: PaymentListQuery): Promise<PaymentStatsRecord> {
  // Only succeeded payments are paid: a status filter without it matches none.
  if (q.statuses && q.statuses.length && !q.statuses.includes('succeeded')) return NOTHING;
  // The counters keep the partner as a whole under merchant '': no payment's merchant is ''.
  const merchants = q.merchantIds?.length ? [...new Set(q.merchantIds)].filter((m) => m !== '') : undefined;
  if (merchants && !merchants.length) return NOTHING;
  const params: unknown[] = [partnerId, merchants ?? null];
  // Distinct buyers do not add up across merchants: one scope (all, or one merchant) has its own
  // count; several merchants count their distinct buyers, a row per buyer and merchant, never per payment.
  const shape = !merchants ? 'all' : merchants.length === 1 ? 'one' : 'some';
  const customers = !merchants
    ? `(SELECT customers FROM paid_customers WHERE partner_id = $1 AND merchant_id = '')`
    : merchants.length === 1
      ? `(SELECT customers FROM paid_customers WHERE partner_id = $1 AND merchant_id = $2[1])`
      : `(SELECT count(DISTINCT buyer_account) FROM paid_buyers WHERE partner_id = $1 AND merchant_id = ANY($2::text[]))`;
  const { rows } = await db.query<{ totals: unknown; customers: string | null }>(
    `WITH t AS (
       SELECT currency, sum(transactions) AS n, sum(revenue) AS minor FROM paid_totals
       WHERE partner_id = $1 AND ($2::text[] IS NULL OR merchant_id = ANY($2::text[])) GROUP BY currency
     )
     SELECT (SELECT json_agg(json_build_object('currency', currency, 'n', n::text, 'minor', minor::text) ORDER BY currency) FROM t WHERE n > 0) AS totals,
            ${customers}::text AS customers`,
    params,
    // A prepared statement per shape: the customers subquery differs.
    `payments_stats_${shape}`,
  );
  const row = rows[0];
  type Total = { currency: string; n: string; minor: string };
  // PGlite hands json back parsed, node-postgres too unless configured otherwise; text either way is read.
  const totals = ((typeof row?.totals === 'string' ? (JSON.parse(row.totals) as unknown) : row?.totals) ?? []) as Total[];
  return {
    revenue: totals.filter((t) => t.currency !== '').map((t) => ({ currency: t.currency, minor: BigInt(t.minor) })),
    transactions: totals.reduce((sum, t) => sum + Number(t.n), 0),
    customers: Number(row?.customers ?? 0),
  };
}

async function scanned(db: SqlDb, partnerId: string, q: PaymentListQuery): Promise<PaymentStatsRecord> {
  const params: unknown[] = [];
  const { filterOnly } = listClauses(partnerId, { ...q, after: undefined }, params);
  const paid = `${filterOnly} AND status = 'succeeded' AND refunded_at IS NULL`;
  const [revenue, counts] = await Promise.all([
    db.query<{ currency: string; minor: string }>(
      `SELECT fiat_currency AS currency, sum(fiat_value)::text AS minor FROM payments WHERE ${paid} AND fiat_currency IS NOT NULL GROUP BY fiat_currency ORDER BY fiat_currency`,
      params,
    ),
    db.query<{ transactions: bigint; customers: bigint }>(`SELECT count(*) AS transactions, count(DISTINCT buyer_account) AS customers FROM payments WHERE ${paid}`, params),
  ]);
  return {
    revenue: revenue.rows.map((r) => ({ currency: r.currency, minor: BigInt(r.minor) })),
    transactions: Number(counts.rows[0]?.transactions ?? 0n),
    customers: Number(counts.rows[0]?.customers ?? 0n),
  };
}
