import type { FeeSpendingRepository } from '../../../server/ports/storage/fee-spending.ts';
import type { SqlDb } from './sql-db.ts';

/** fee_spending rows, one per (chain, tx_id, payment_id) (a batch charges each of its payments); sums are numeric, read back as exact strings. */
export function createFeeSpendingRepository(db: SqlDb): FeeSpendingRepository {
  return {
    async record(e) {
      const r = await db.query(
        `INSERT INTO fee_spending (chain, tx_id, partner_id, payment_id, account, amount, at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (chain, tx_id, payment_id) DO NOTHING`,
        [e.chain, e.txId, e.partnerId, e.paymentId, e.account, e.amount.toString(), e.at],
      );
      return (r.rowCount ?? 0) > 0;
    },
    async spentSince(partnerId, chain, since) {
      const r = await db.query<{ total: string | null }>('SELECT sum(amount)::text AS total FROM fee_spending WHERE partner_id = $1 AND chain = $2 AND at >= $3', [
        partnerId,
        chain,
        since,
      ]);
      return BigInt(r.rows[0]?.total ?? '0');
    },
    async totals(partnerId, since) {
      const r = await db.query<{ chain: string; total: string; n: string }>(
        'SELECT chain, sum(amount)::text AS total, count(DISTINCT tx_id)::text AS n FROM fee_spending WHERE partner_id = $1 AND at >= $2 GROUP BY chain ORDER BY chain',
        [partnerId, since],
      );
      return r.rows.map((row) => ({ chain: row.chain, amount: BigInt(row.total), transactions: Number(row.n) }));
    },
  };
}
