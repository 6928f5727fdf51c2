import type { NewJob, PaymentListQuery, PaymentPatch } from '../../../server/ports/storage.ts';

/** SQL fragments the payment repository composes; kept apart so the repository reads as steps. */

/** Jobs as one JSON parameter, expanded by jsonb_to_recordset so any number insert in one statement. */
export function jobsParam(jobs: NewJob[], createdAt: Date): string {
  return JSON.stringify(jobs.map((j) => ({ id: j.id, type: j.type, payload: j.payload, run_at: j.runAt.toISOString(), created_at: createdAt.toISOString() })));
}

/** Inserts the jobs in a `jobsParam` parameter; with `onlyIfRowsIn`, only when that CTE has rows. */
export const INSERT_JOBS_FROM_PARAM = (param: string, onlyIfRowsIn?: string) => `
  INSERT INTO outbox_jobs (id, type, payload, run_at, created_at)
  SELECT x.id, x.type, x.payload, x.run_at, x.created_at
  FROM jsonb_to_recordset(${param}::jsonb) AS x(id text, type text, payload jsonb, run_at timestamptz, created_at timestamptz)
  ${onlyIfRowsIn ? `WHERE EXISTS (SELECT 1 FROM ${onlyIfRowsIn})` : ''}`;

const PATCH_COLUMNS: Record<keyof PaymentPatch, string> = {
  failureCode: 'failure_code',
  cancelledReason: 'cancelled_reason',
  cancelledAt: 'cancelled_at',
  optionId: 'option_id',
  buyerAccount: 'buyer_account',
  asset: 'asset',
  tokenValue: 'token_value',
  network: 'network',
  txId: 'tx_id',
  succeededAt: 'succeeded_at',
};

/** `col = $n` assignments for the fields present in the patch. */
export function patchAssignments(patch: PaymentPatch, params: unknown[]): string[] {
  const out: string[] = [];
  for (const [key, column] of Object.entries(PATCH_COLUMNS) as Array<[keyof PaymentPatch, string]>) {
    if (!(key in patch)) continue;
    const v = patch[key];
    params.push(typeof v === 'bigint' ? v.toString() : v);
    out.push(`${column} = $${params.length}`);
  }
  return out;
}

/** WHERE conditions and ORDER BY for a payment list, with keyset continuation. */
export function listClauses(partnerId: string, q: PaymentListQuery, params: unknown[]): { where: string; filterOnly: string; order: string } {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const conds = [`partner_id = ${p(partnerId)}`];
  if (q.merchantIds?.length) conds.push(`merchant_id = ANY(${p(q.merchantIds)}::text[])`);
  if (q.statuses?.length) conds.push(`status = ANY(${p(q.statuses)}::text[])`);
  if (q.createdFrom) conds.push(`created_at >= ${p(q.createdFrom)}`);
  if (q.createdBefore) conds.push(`created_at < ${p(q.createdBefore)}`);
  if (q.network) conds.push(`network = ${p(q.network)}`);
  if (q.referenceId) conds.push(`reference_id = ${p(q.referenceId)}`);
  const filterOnly = conds.join(' AND ');
  const cmp = q.sortDir === 'asc' ? '>' : '<';
  const dir = q.sortDir === 'asc' ? 'ASC' : 'DESC';
  if (q.after) {
    if (q.sortBy === 'amount') conds.push(`(fiat_value, id) ${cmp} (${p((q.after.fiatValue ?? 0n).toString())}::numeric, ${p(q.after.id)})`);
    else conds.push(`id ${cmp} ${p(q.after.id)}`);
  }
  const order = q.sortBy === 'amount' ? `fiat_value ${dir}, id ${dir}` : `id ${dir}`;
  return { where: conds.join(' AND '), filterOnly, order };
}
