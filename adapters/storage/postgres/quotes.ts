import type { QuoteRecord } from '../../../server/domain/payments/quote-records.ts';
import type { LiveQuoteCap, QuoteRepository } from '../../../server/ports/storage/quotes.ts';
import type { QuoteState } from '../../../server/ports/chains.ts';
import type { SqlClient, SqlDb } from './sql-db.ts';

/** A payment_quotes row as the port's record (amount exact as numeric, state and buyer data as JSON). */
function toQuote(r: Record<string, unknown>): QuoteRecord {
  return {
    optionId: String(r.option_id),
    paymentId: String(r.payment_id),
    account: String(r.account),
    asset: String(r.asset),
    amount: BigInt(String(r.amount)),
    destination: String(r.destination),
    deadline: r.deadline instanceof Date ? r.deadline : new Date(String(r.deadline)),
    // JSON as the chain adapter stored it; the adapter checks its shape when it reads it back.
    state: (typeof r.state === 'string' ? JSON.parse(r.state) : r.state) as QuoteState,
    createdAt: r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at)),
    collectData: r.collect_data === true,
    collected:
      r.collected_data === null || r.collected_data === undefined
        ? null
        : {
            data: (typeof r.collected_data === 'string' ? JSON.parse(r.collected_data) : r.collected_data) as Record<string, string | boolean>,
            termsAcceptedAt: new Date(String(r.terms_accepted_at instanceof Date ? r.terms_accepted_at.toISOString() : r.terms_accepted_at)),
            at: new Date(String(r.collected_at instanceof Date ? r.collected_at.toISOString() : r.collected_at)),
          },
  };
}

/**
 * Inserts the quotes of one save. A quote lost in a crash costs the wallet one more options call
 * (confirm answers option_not_found), so this write does not wait for the WAL flush: on the
 * options path that flush was most of the latency, and all of its tail. set_config(…, true) lasts
 * for this statement's own transaction (or the caller's), so the commit skips the flush without
 * another round trip.
 */
async function insertQuotes(db: SqlClient, param: string): Promise<void> {
  await db.query(
    `WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true))
     INSERT INTO payment_quotes (option_id, payment_id, account, asset, amount, destination, deadline, state, created_at, collect_data)
     SELECT q.option_id, q.payment_id, q.account, q.asset, q.amount, q.destination, q.deadline, q.state, q.created_at, COALESCE(q.collect_data, false)
     FROM async_commit, jsonb_to_recordset($1::jsonb) AS q(option_id text, payment_id text, account text, asset text, amount numeric, destination text, deadline timestamptz, state jsonb, created_at timestamptz, collect_data boolean)`,
    [param],
    'quotes_save',
  );
}

/**
 * Ends the deadline of each payment's live quotes beyond the newest `cap.perPayment`. Ending the
 * deadline rather than deleting: a confirm that read the quote just before still finds its row
 * (what the payment is then paid with), a buyer holding it hears `quote_expired`, and the
 * maintenance purge deletes it with the other expired quotes. Chosen quotes and a processing
 * payment's quotes are neither counted nor evicted, as the purge keeps them. Nor are direct
 * transfers: their buyer pays on chain before confirming, so an evicted one would leave a paid
 * transfer that confirm refuses (quote_expired); they stay bounded by the options rate alone.
 */
async function evictBeyondCap(db: SqlClient, paymentIds: string[], cap: LiveQuoteCap): Promise<void> {
  await db.query(
    `UPDATE payment_quotes SET deadline = $2
     WHERE option_id IN (
       SELECT ranked.option_id FROM (
         SELECT q.option_id, row_number() OVER (PARTITION BY q.payment_id ORDER BY q.option_id = ANY($4::text[]) DESC, q.created_at DESC, q.option_id DESC) AS newest
         FROM payment_quotes q
         WHERE q.payment_id = ANY($1::text[]) AND q.deadline > $2
           AND q.state->>'flow' IS DISTINCT FROM 'transfer'
           AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.id = q.payment_id AND (p.option_id = q.option_id OR p.status = 'processing'))
       ) ranked
       WHERE ranked.newest > $3)`,
    [paymentIds, cap.now, cap.perPayment, cap.reoffered ?? []],
    'quotes_evict',
  );
}

/**
 * A quote funds can reach the merchant for with no confirm call: an EVM direct transfer (the wallet
 * broadcasts it, tagged), an EIP-3009 authorization (anyone holding the signature may submit it),
 * a Solana Pay transaction handed to a wallet (it broadcasts it). What the late-funds watcher can
 * find by the quote alone (late-funds-job.ts), so what the purge keeps within its reach.
 */
// Never NULL (a state without the key reads false), so `NOT (… AND TAGGED …)` keeps nothing it should not.
const TAGGED = `COALESCE(q.state->>'flow' IN ('transfer', 'eip3009') OR jsonb_typeof(q.state->'walletBuilds') = 'array', false)`;

/**
 * Quotes live in payment_quotes, keyed by option id. Reads and the buyer-data write name the
 * payment too, so an option id a client sends never reaches another payment's quote.
 */
export function createQuoteRepository(db: SqlDb): QuoteRepository {
  async function walletRequestOption(paymentId: string, account: string, asset: string): Promise<string | null> {
    const { rows } = await db.query(
      'SELECT option_id FROM wallet_requests WHERE payment_id = $1 AND account = $2 AND asset = $3',
      [paymentId, account, asset],
      'wallet_request_get',
    );
    return rows[0] ? String(rows[0].option_id) : null;
  }
  return {
    async save(quotes, cap) {
      if (!quotes.length) return;
      const param = JSON.stringify(
        quotes.map((q) => ({
          option_id: q.optionId,
          payment_id: q.paymentId,
          account: q.account,
          asset: q.asset,
          amount: q.amount.toString(),
          destination: q.destination,
          deadline: q.deadline.toISOString(),
          state: q.state,
          created_at: q.createdAt.toISOString(),
          collect_data: q.collectData ?? false,
        })),
      );
      if (!cap) {
        await insertQuotes(db, param);
        return;
      }
      const paymentIds = [...new Set(quotes.map((q) => q.paymentId))].sort();
      await db.transaction(async (tx) => {
        // Saves to one payment queue here, so two concurrent options calls cannot both count
        // the live quotes before the other's insert and together leave more than the cap.
        await tx.query('SELECT 1 FROM payments WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE', [paymentIds], 'quotes_cap_lock');
        await insertQuotes(tx, param);
        await evictBeyondCap(tx, paymentIds, cap);
      });
    },
    async get(paymentId, optionId) {
      const { rows } = await db.query('SELECT * FROM payment_quotes WHERE option_id = $1 AND payment_id = $2', [optionId, paymentId], 'quotes_get');
      return rows[0] ? toQuote(rows[0]) : null;
    },
    async updateState(optionId, state, deadline) {
      await db.query('UPDATE payment_quotes SET state = $2, deadline = $3 WHERE option_id = $1', [optionId, JSON.stringify(state), deadline]);
    },
    async updateStateIf(optionId, expected, state, deadline) {
      // jsonb equality compares values, not text: the state as read back equals itself.
      const r = await db.query(
        'UPDATE payment_quotes SET state = $3, deadline = $4 WHERE option_id = $1 AND state = $2::jsonb',
        [optionId, JSON.stringify(expected), JSON.stringify(state), deadline],
        'quotes_update_state_if',
      );
      return r.rowCount === 1;
    },
    walletRequestOption,
    async claimWalletRequest(paymentId, account, asset, optionId, replacing) {
      // One statement: of two requests racing to set or replace the row, one sets it; the other's
      // update finds the row changed (its WHERE fails) and reads what the first set.
      const { rows } = await db.query(
        `INSERT INTO wallet_requests (payment_id, account, asset, option_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (payment_id, account, asset) DO UPDATE SET option_id = EXCLUDED.option_id WHERE wallet_requests.option_id = $5
         RETURNING option_id`,
        [paymentId, account, asset, optionId, replacing],
        'wallet_request_claim',
      );
      return rows[0] ? String(rows[0].option_id) : walletRequestOption(paymentId, account, asset);
    },
    async live(paymentId, deadlineAfter) {
      const { rows } = await db.query(
        'SELECT * FROM payment_quotes WHERE payment_id = $1 AND deadline > $2 ORDER BY created_at, option_id',
        [paymentId, deadlineAfter],
        'quotes_live',
      );
      return rows.map(toQuote);
    },
    async purgeExpired(deadlineBefore, limit, lateFundsSince) {
      // A chosen quote is what a payment was paid with (its amount, destination and state), and a
      // processing payment's job still reads it: those stay, whatever their deadline. With a reach,
      // so does a quote funds can reach the merchant for without a confirm (TAGGED) while its
      // payment is open, or ended (expired, failed: late funds; succeeded: a second payment) less
      // than the reach ago.
      const r = await db.query(
        `DELETE FROM payment_quotes WHERE option_id IN (
           SELECT q.option_id FROM payment_quotes q
           WHERE q.deadline < $1
             AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.id = q.payment_id AND (p.option_id = q.option_id OR p.status = 'processing'))
             AND NOT ($3::timestamptz IS NOT NULL AND ${TAGGED} AND EXISTS (
               SELECT 1 FROM payments p WHERE p.id = q.payment_id
                 AND (p.status = 'requires_action' OR (p.status IN ('expired', 'failed', 'succeeded') AND greatest(q.deadline, p.updated_at) >= $3))))
           LIMIT $2 FOR UPDATE OF q SKIP LOCKED)`,
        [deadlineBefore, limit, lateFundsSince ?? null],
      );
      return r.rowCount;
    },
    async ofEndedPayments(chain, after, until, limit) {
      // The asset id starts with its chain and a slash; compared by prefix, not LIKE, so no character of a chain id is a wildcard.
      const { rows } = await db.query(
        `SELECT q.* FROM payment_quotes q JOIN payments p ON p.id = q.payment_id
         WHERE p.status IN ('expired', 'failed', 'succeeded') AND left(q.asset, length($1) + 1) = $1 || '/' AND (q.deadline, q.option_id) > ($2, $3) AND q.deadline < $4
         ORDER BY q.deadline, q.option_id LIMIT $5`,
        [chain, after.deadline, after.optionId, until, limit],
        'quotes_of_ended_payments',
      );
      return rows.map(toQuote);
    },
    async withinReach(chain, afterOptionId, since, until, limit) {
      const { rows } = await db.query(
        `SELECT q.* FROM payment_quotes q JOIN payments p ON p.id = q.payment_id
         WHERE ${TAGGED} AND left(q.asset, length($1) + 1) = $1 || '/' AND q.option_id > $2 AND q.deadline < $4
           AND (p.status = 'requires_action' OR (p.status IN ('expired', 'failed', 'succeeded') AND greatest(q.deadline, p.updated_at) >= $3))
         ORDER BY q.option_id LIMIT $5`,
        [chain, afterOptionId, since, until, limit],
        'quotes_within_late_funds_reach',
      );
      return rows.map(toQuote);
    },
    async saveCollected(paymentId, optionId, c) {
      const r = await db.query('UPDATE payment_quotes SET collected_data = $3, terms_accepted_at = $4, collected_at = $5 WHERE option_id = $1 AND payment_id = $2', [
        optionId,
        paymentId,
        JSON.stringify(c.data),
        c.termsAcceptedAt,
        c.at,
      ]);
      return r.rowCount === 1;
    },
  };
}
