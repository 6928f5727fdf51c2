import type { IdempotencyCompletion } from '../../../server/domain/idempotency/records.ts';
import type { NewJob } from '../../../server/domain/jobs/records.ts';
import type { PaymentListQuery, PaymentPatch, PaymentRecord } from '../../../server/domain/payments/records.ts';
import type { SqlClient } from './sql-db.ts';

/** SQL fragments the payment repository composes; kept apart so the repository reads as steps. */

/**
 * Outbox rows of jobs; `paymentId` tags each with the payment it must be written with. A job's own
 * `traceId` (null included) wins over `traceId`, the trace of the call that writes it.
 */
function jobRows(jobs: NewJob[], createdAt: Date, traceId: string | undefined, paymentId?: string) {
  return jobs.map((j) => ({
    payment_id: paymentId,
    id: j.id,
    type: j.type,
    payload: j.payload,
    run_at: j.runAt.toISOString(),
    created_at: createdAt.toISOString(),
    trace_id: j.traceId !== undefined ? j.traceId : (traceId ?? null),
  }));
}

/** Jobs as one JSON parameter, expanded by jsonb_to_recordset so any number insert in one statement. */
export function jobsParam(jobs: NewJob[], createdAt: Date, traceId: string | undefined): string {
  return JSON.stringify(jobRows(jobs, createdAt, traceId));
}

/** Inserts the jobs in a `jobsParam` parameter; with `onlyForPaymentsIn`, only those of the payments in that CTE. */
export const INSERT_JOBS_FROM_PARAM = (param: string, onlyForPaymentsIn?: string) => `
  INSERT INTO outbox_jobs (id, type, payload, run_at, created_at, trace_id)
  SELECT x.id, x.type, x.payload, x.run_at, x.created_at, x.trace_id
  FROM jsonb_to_recordset(${param}::jsonb) AS x(payment_id text, id text, type text, payload jsonb, run_at timestamptz, created_at timestamptz, trace_id text)
  ${onlyForPaymentsIn ? `WHERE x.payment_id IN (SELECT id FROM ${onlyForPaymentsIn})` : ''}`;

/** Columns set as given; `txShared` goes with `txId` (patchAssignments). */
const PATCH_COLUMNS: Record<Exclude<keyof PaymentPatch, 'txShared'>, string> = {
  failureCode: 'failure_code',
  cancelledReason: 'cancelled_reason',
  cancelledAt: 'cancelled_at',
  optionId: 'option_id',
  buyerAccount: 'buyer_account',
  buyerProviderName: 'buyer_provider_name',
  buyerProviderIcon: 'buyer_provider_icon',
  asset: 'asset',
  tokenValue: 'token_value',
  network: 'network',
  txId: 'tx_id',
  finality: 'finality',
  succeededAt: 'succeeded_at',
};

/** `col = $n` assignments for the fields present in the patch. */
export function patchAssignments(patch: PaymentPatch, params: unknown[]): string[] {
  const out: string[] = [];
  let txParam = '';
  for (const [key, column] of Object.entries(PATCH_COLUMNS) as Array<[Exclude<keyof PaymentPatch, 'txShared'>, string]>) {
    if (!(key in patch)) continue;
    const v = patch[key];
    params.push(typeof v === 'bigint' ? v.toString() : v);
    out.push(`${column} = $${params.length}`);
    if (key === 'txId') txParam = `$${params.length}::text`;
  }
  // Relayer bytes belong to the recorded relayer tx id; a transition setting another tx id or
  // clearing it (confirm of a direct transfer, release) ends them. Success with the recorded one
  // keeps them: its finality is followed, and a dropped block is healed by sending them again.
  if (txParam) out.push(`tx_raw = CASE WHEN ${txParam} IS NOT NULL AND tx_id = ${txParam} THEN tx_raw END`);
  // Shared (a relayer batch, migration 025) only when the caller says so, or the id stays the one
  // recorded shared: a new id without it is one payment's alone, under the unique index again.
  if (txParam && patch.txShared !== undefined) {
    params.push(patch.txShared);
    out.push(`tx_shared = $${params.length}`);
  } else if (txParam) out.push(`tx_shared = CASE WHEN ${txParam} IS NOT NULL AND tx_id = ${txParam} THEN tx_shared ELSE false END`);
  return out;
}

/**
 * The amount order (issue 30 item 9): a token's base units and a currency's minor units do not
 * compare, nor do two currencies' minor units, so payments are grouped by price unit (fiat first,
 * then tokens; each unit by its code, byte order) and sorted by value within one. Migration 023's
 * index has these expressions as they are written here.
 */
const AMOUNT_KEY = ['(fiat_currency IS NULL)', '(COALESCE(fiat_currency, price_asset) COLLATE "C")', 'fiat_value', 'id'];

/** WHERE conditions and ORDER BY for a payment list, with keyset continuation. */
export function listClauses(partnerId: string, q: PaymentListQuery, params: unknown[]): { where: string; filterOnly: string; order: string } {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const conds = [`partner_id = ${p(partnerId)}`];
  // One merchant as an equality: PostgreSQL reads an index in order under `=`, not under `= ANY`,
  // so a merchant's pages walk (partner_id, merchant_id, id) instead of sorting its payments.
  if (q.merchantIds?.length === 1) conds.push(`merchant_id = ${p(q.merchantIds[0])}`);
  else if (q.merchantIds?.length) conds.push(`merchant_id = ANY(${p(q.merchantIds)}::text[])`);
  if (q.statuses?.length) conds.push(`status = ANY(${p(q.statuses)}::text[])`);
  if (q.createdFrom) conds.push(`created_at >= ${p(q.createdFrom)}`);
  if (q.createdBefore) conds.push(`created_at < ${p(q.createdBefore)}`);
  if (q.networks?.length) conds.push(`network = ANY(${p(q.networks)}::text[])`);
  if (q.assets) conds.push(`asset = ANY(${p(q.assets)}::text[])`);
  // strpos, not LIKE: `%` and `_` in a reference are plain characters.
  if (q.referenceId) conds.push(`strpos(lower(reference_id), lower(${p(q.referenceId)})) > 0`);
  const filterOnly = conds.join(' AND ');
  const cmp = q.sortDir === 'asc' ? '>' : '<';
  const dir = q.sortDir === 'asc' ? 'ASC' : 'DESC';
  if (q.after) {
    if (q.sortBy === 'amount') {
      const at = q.after.price;
      if (!at) throw new Error('an amount keyset position needs the price of the row it continues after');
      const [token, code] = at.kind === 'token' ? [true, at.asset] : [false, at.currency];
      conds.push(`(${AMOUNT_KEY.join(', ')}) ${cmp} (${p(token)}::boolean, ${p(code)}::text COLLATE "C", ${p(at.value.toString())}::numeric, ${p(q.after.id)})`);
    } else conds.push(`id ${cmp} ${p(q.after.id)}`);
  }
  const order = q.sortBy === 'amount' ? AMOUNT_KEY.map((column) => `${column} ${dir}`).join(', ') : `id ${dir}`;
  return { where: conds.join(' AND '), filterOnly, order };
}

/** One payment to create, with the event and jobs that must commit with it. */
export interface NewPayment {
  p: PaymentRecord;
  /** The created event, its data already built from the merchant at `merchantVersion`. */
  event: { id: string; type: string; data: unknown };
  jobs: NewJob[];
  idempotency?: IdempotencyCompletion | undefined;
  /** The merchant row version (`xmin`) the event data was built from: the payment is written only while the row is still that version. */
  merchantVersion: string;
  /** The trace of the create, taken before it joins a batch of other requests' creates. */
  traceId: string | undefined;
}

/**
 * Inserts any number of payments in one statement, so one round trip and one commit: each payment
 * only for a live merchant of its partner, still at the row version its event was built from,
 * that has a settlement (in the price's asset, for a token price), and its event, jobs and
 * idempotent answer only with it. Answers, in order, whether each payment was created.
 */
export async function insertPayments(db: SqlClient, items: NewPayment[]): Promise<boolean[]> {
  const rows = JSON.stringify(
    items.map(({ p, event, idempotency, merchantVersion, traceId }) => ({
      id: p.id,
      partner_id: p.partnerId,
      merchant_id: p.merchantId,
      merchant_version: merchantVersion,
      reference_id: p.referenceId,
      fiat_currency: p.price.kind === 'fiat' ? p.price.currency : null,
      price_asset: p.price.kind === 'token' ? p.price.asset : null,
      // A string, so a 30-digit amount reaches numeric without passing through a float.
      fiat_value: p.price.value.toString(),
      status: p.status,
      state_version: p.stateVersion,
      expires_at: p.expiresAt,
      created_at: p.createdAt,
      checkout_success_url: p.checkout?.successUrl ?? null,
      checkout_error_url: p.checkout?.errorUrl ?? null,
      event_id: event.id,
      event_type: event.type,
      event_data: event.data,
      trace_id: traceId ?? null,
      idem_partner: idempotency?.partnerId ?? null,
      idem_key: idempotency?.key ?? null,
      idem_status: idempotency?.statusCode ?? null,
      // Its JSON text, not a nested value: the rows go through jsonb, which would reorder its keys.
      idem_body: idempotency ? JSON.stringify(idempotency.body) : null,
    })),
  );
  const jobs = JSON.stringify(items.flatMap(({ p, jobs, traceId }) => jobRows(jobs, p.createdAt, traceId, p.id)));
  const { rows: created } = await db.query<{ id: string }>(
    `WITH x AS MATERIALIZED (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
         id text, partner_id text, merchant_id text, merchant_version text, reference_id text, fiat_currency text, price_asset text, fiat_value numeric, status text,
         state_version integer, expires_at timestamptz, created_at timestamptz, checkout_success_url text, checkout_error_url text,
         event_id text, event_type text, event_data jsonb, trace_id text, idem_partner text, idem_key text, idem_status integer, idem_body text)
     ), ok AS MATERIALIZED (
       SELECT x.* FROM x JOIN merchants m ON m.id = x.merchant_id AND m.partner_id = x.partner_id AND m.deleted_at IS NULL AND m.xmin = x.merchant_version::xid
       WHERE EXISTS (SELECT 1 FROM crypto_settlements s WHERE s.merchant_id = m.id AND (x.price_asset IS NULL OR s.asset = x.price_asset))
     ), p AS (
       INSERT INTO payments (id, partner_id, merchant_id, reference_id, fiat_currency, price_asset, fiat_value, status, state_version,
                             expires_at, created_at, updated_at, checkout_success_url, checkout_error_url)
       SELECT id, partner_id, merchant_id, reference_id, fiat_currency, price_asset, fiat_value, status, state_version,
              expires_at, created_at, created_at, checkout_success_url, checkout_error_url
       FROM ok
       RETURNING id
     ), e AS (
       INSERT INTO payment_events (id, payment_id, partner_id, type, state_version, created_at, data, trace_id)
       SELECT event_id, id, partner_id, event_type, state_version, created_at, event_data, trace_id FROM ok
     ), j AS (${INSERT_JOBS_FROM_PARAM('$2', 'ok')}
     ), i AS (
       UPDATE idempotency_keys k SET status_code = ok.idem_status, response_body = ok.idem_body
       FROM ok WHERE k.partner_id = ok.idem_partner AND k.key = ok.idem_key
     )
     SELECT id FROM p`,
    [rows, jobs],
    'payments_create',
  );
  const ids = new Set(created.map((r) => r.id));
  return items.map(({ p }) => ids.has(p.id));
}

/**
 * The merchant a create is for, locked against change until the create commits (FOR SHARE), with
 * its row version and whether it can take this payment (a settlement, in the price's asset for a
 * token price).
 */
export async function lockMerchantForCreate(tx: SqlClient, p: PaymentRecord): Promise<{ row: Record<string, unknown>; version: string; payable: boolean } | null> {
  const { rows } = await tx.query(
    `SELECT m.*, m.xmin::text AS row_version,
            EXISTS (SELECT 1 FROM crypto_settlements s WHERE s.merchant_id = m.id AND ($3::text IS NULL OR s.asset = $3)) AS payable
     FROM merchants m WHERE m.id = $1 AND m.partner_id = $2 FOR SHARE`,
    [p.merchantId, p.partnerId, p.price.kind === 'token' ? p.price.asset : null],
  );
  const r = rows[0];
  return r ? { row: r, version: String(r.row_version), payable: r.payable === true } : null;
}
