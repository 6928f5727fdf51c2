// Rows about what buyers did beside paying, read after the drain: USDT buyers who left an
// allowance behind, and what the Solana fee payer spent on transactions that did not pay.
import { httpUpstream } from '../chain-faults/index.ts';
import type pg from 'pg';
import type { Row } from './checks.ts';

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const answer = await httpUpstream(url)(method, params);
  if ('error' in answer) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

/**
 * What the Solana fee payer spent on transactions that did not pay: its transactions that landed
 * with an error (read from the chain's own node, never the faulty ones). A landed transaction
 * costs its fee payer at least the 5,000-lamport signature fee, whatever it did.
 */
export async function feePayerWasteRow(chainsUrl: string, feePayer: string): Promise<Row> {
  const signatures = (await rpc(`${chainsUrl}/solana`, 'getSignaturesForAddress', [feePayer, { limit: 1000, commitment: 'confirmed' }])) as Array<{
    signature: string;
    err: unknown;
  }>;
  const failed = signatures.filter((s) => s.err !== null && s.err !== undefined);
  return {
    check: 'Solana fee-payer transactions that landed and failed (lamports spent on transactions that did not pay)',
    expected: '0',
    actual: `${failed.length} of ${signatures.length} (at least ${failed.length * 5000} lamports)${failed.length ? `: ${failed[0]!.signature.slice(0, 16)}… ${JSON.stringify(failed[0]!.err).slice(0, 80)}` : ''}`,
    ok: failed.length === 0,
  };
}

/** Permit2 buyers of the USDT-like token who had left a 1-unit allowance to Permit2 (its approve refuses non-zero → non-zero): all must be paid. */
export async function leftoverAllowanceRow(db: pg.Client, ids: string[], walletErrors: string[]): Promise<Row> {
  const done = await db.query<{ n: string }>("SELECT count(*) AS n FROM payments WHERE id = ANY($1) AND status = 'succeeded'", [ids]);
  const paid = Number(done.rows[0]!.n);
  // Why the first ones were not paid, as the wallet saw it (the table's error list shows only the first ten of all).
  const why = walletErrors.filter((e) => ids.some((id) => e.includes(id))).slice(0, 2);
  return {
    check: 'USDT buyers with a leftover allowance to Permit2 paid (approve to 0 first; the sandbox USDT refuses non-zero → non-zero)',
    expected: `${ids.length} (100 %)`,
    actual: `${paid}${why.length ? ` (${why.join('; ').slice(0, 300)})` : ''}`,
    ok: ids.length > 0 && paid === ids.length,
  };
}
