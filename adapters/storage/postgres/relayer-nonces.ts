// The relayer's nonce counter (migration 029): the (chain, key) row is locked in the transaction
// that records the signed transaction in its payments' rows, so a nonce is given exactly once and
// only to a transaction some payment holds; a transaction that records nothing gives nothing.
import type { NonceRecordResult, RelayerKeyRef, RelayerNonces } from '../../../server/ports/storage/relayer-nonces.ts';
import { createPgDb, type SqlClient, type SqlDb } from './sql-db.ts';

/** Locks the key's row (created at `floor` the first time) and answers its next nonce. */
type Recent = { nonce: number; raw: string }[];
/**
 * How many of the last transactions are kept for an in-order resend: the steps that may sign on one
 * key at once (two workers of 32 settlement slots), or a step whose earlier nonces fell out of the
 * list is refused again and waits for its next run (issue 32). Only the nonces the chain has not
 * counted are kept, so the list is this long only while the node lags.
 */
const RECENT = 64;

async function lockNext(tx: SqlClient, k: RelayerKeyRef, floor: number): Promise<{ next: number; recent: Recent }> {
  await tx.query('INSERT INTO relayer_nonces (chain, relayer, next_nonce) VALUES ($1, $2, $3) ON CONFLICT (chain, relayer) DO NOTHING', [k.chain, k.relayer.toLowerCase(), floor]);
  const { rows } = await tx.query<{ next_nonce: bigint | string; recent: Recent | string }>(
    'SELECT next_nonce, recent FROM relayer_nonces WHERE chain = $1 AND relayer = $2 FOR UPDATE',
    [k.chain, k.relayer.toLowerCase()],
  );
  const recent = rows[0]!.recent;
  return { next: Number(rows[0]!.next_nonce), recent: typeof recent === 'string' ? (JSON.parse(recent) as Recent) : recent };
}

export function createRelayerNonceLedger(db: SqlDb): RelayerNonces {
  return {
    signAndRecord(k, chainPending, sign, rows, at) {
      return db.transaction(async (tx): Promise<NonceRecordResult> => {
        const { next: stored, recent } = await lockNext(tx, k, chainPending);
        // The chain ahead of the counter: the key was used elsewhere; never hand out a nonce it has counted.
        const nonce = Math.max(stored, chainPending);
        const relayer = k.relayer.toLowerCase();
        await tx.query('DELETE FROM relayer_nonce_gaps WHERE chain = $1 AND relayer = $2 AND nonce < $3', [k.chain, relayer, chainPending]);
        const fillers = (
          await tx.query<{ filler_raw: string }>('SELECT filler_raw FROM relayer_nonce_gaps WHERE chain = $1 AND relayer = $2 ORDER BY nonce', [k.chain, relayer])
        ).rows.map((r) => r.filler_raw);
        const signed = await sign(nonce);
        const took = (
          await tx.query<{ id: string }>(
            `UPDATE payments p SET tx_id = $1, tx_raw = $2, tx_shared = r.shared, updated_at = $3
               FROM unnest($4::text[], $5::text[], $6::boolean[]) AS r(id, replaces, shared)
              WHERE p.id = r.id AND p.status = 'processing' AND p.tx_id IS NOT DISTINCT FROM r.replaces
              RETURNING p.id`,
            [signed.txId, signed.rawTx, at, rows.map((r) => r.paymentId), rows.map((r) => r.replaces), rows.map((r) => r.shared === true)],
          )
        ).rows.map((r) => r.id);
        if (!took.length) {
          // Nothing holds it: the nonce stays free (the counter is not moved past it).
          await tx.query('UPDATE relayer_nonces SET next_nonce = $3 WHERE chain = $1 AND relayer = $2', [k.chain, relayer, nonce]);
          return { tx: null, nonce: null, took, fillers, earlier: [] };
        }
        const kept = recent.filter((r) => r.nonce >= chainPending && r.nonce > nonce - RECENT);
        await tx.query('UPDATE relayer_nonces SET next_nonce = $3, recent = $4 WHERE chain = $1 AND relayer = $2', [
          k.chain,
          relayer,
          nonce + 1,
          JSON.stringify([...kept, { nonce, raw: signed.rawTx }]),
        ]);
        const earlier = kept
          .filter((r) => r.nonce < nonce)
          .sort((a, b) => a.nonce - b.nonce)
          .map((r) => r.raw);
        return { tx: signed, nonce, took, fillers, earlier };
      });
    },
    abandon(k, nonce, fill) {
      return db.transaction(async (tx) => {
        const { next, recent } = await lockNext(tx, k, 0);
        if (nonce >= next) return null;
        const relayer = k.relayer.toLowerCase();
        // Its bytes are never to be sent again, by an in-order resend either.
        await tx.query('UPDATE relayer_nonces SET recent = $3 WHERE chain = $1 AND relayer = $2', [k.chain, relayer, JSON.stringify(recent.filter((r) => r.nonce !== nonce))]);
        const known = await tx.query('SELECT 1 FROM relayer_nonce_gaps WHERE chain = $1 AND relayer = $2 AND nonce = $3', [k.chain, relayer, nonce]);
        if (known.rowCount) return null;
        const raw = await fill(nonce);
        await tx.query('INSERT INTO relayer_nonce_gaps (chain, relayer, nonce, filler_raw) VALUES ($1, $2, $3, $4)', [k.chain, relayer, nonce, raw]);
        return raw;
      });
    },
  };
}

/** The ledger on its own small pool (the chain adapters open before the storage, as the relayer's locks do). */
export function openRelayerNonceLedger(url: string, schema?: string): RelayerNonces & { close(): Promise<void> } {
  const db = createPgDb({ url, max: 4, ...(schema ? { schema } : {}) });
  return { ...createRelayerNonceLedger(db), close: () => db.close() };
}
