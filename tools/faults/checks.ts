// What must hold once the load has drained, read from the database, the chains and the receiver,
// and printed as one table: check | expected | actual | ok.
import pg from 'pg';
import type { Flow, LoadStats } from './load.ts';
import type { Receiver } from './receiver.ts';

export interface Row {
  check: string;
  expected: string;
  actual: string;
  ok: boolean;
}

export interface CheckInput {
  databaseUrl: string;
  partnerId: string;
  chainsUrl: string;
  stats: LoadStats;
  /** Requests the client sent again after no answer or a 5xx (both processes, all calls). */
  httpRetries: number;
  receiver: Receiver;
  /** When the webhook endpoint was registered: every payment event from then on is announced to it. */
  endpointSince: Date;
  /** Merchant destination (CAIP-10) per asset paid in. */
  destinations: { flow: Flow; asset: string; account: string; /** What the merchant held before the load. */ initial: bigint }[];
  /** Job types that are never done by design (the maintenance job reschedules itself). */
  perpetualJobTypes: string[];
}

/** Where a confirmed payment must end. */
const FINAL = new Set(['succeeded', 'failed']);

async function balanceOf(chainsUrl: string, account: string, asset: string): Promise<bigint> {
  const res = await fetch(`${chainsUrl}/sandbox/balance?account=${encodeURIComponent(account)}&asset=${encodeURIComponent(asset)}`);
  const body = (await res.json()) as { value?: string };
  if (!res.ok || body.value === undefined) throw new Error(`GET /sandbox/balance answered ${res.status} ${JSON.stringify(body)}`);
  return BigInt(body.value);
}

/** What the drain waits for: confirmed payments final, events delivered, due jobs done. */
export async function pending(db: pg.Client, input: CheckInput): Promise<{ notFinal: number; undelivered: number; dueJobs: number }> {
  const confirmed = [...input.stats.confirmed.keys()];
  const statuses = await db.query<{ status: string }>('SELECT status FROM payments WHERE id = ANY($1)', [confirmed]);
  const notFinal = confirmed.length - statuses.rows.filter((r) => FINAL.has(r.status)).length;
  const events = await db.query<{ id: string }>('SELECT id FROM payment_events WHERE partner_id = $1 AND created_at >= $2', [input.partnerId, input.endpointSince]);
  const undelivered = events.rows.filter((r) => !input.receiver.ids.has(r.id)).length;
  const jobs = await db.query<{ n: string }>('SELECT count(*) AS n FROM outbox_jobs WHERE completed_at IS NULL AND run_at <= now() AND NOT (type = ANY($1))', [
    input.perpetualJobTypes,
  ]);
  return { notFinal, undelivered, dueJobs: Number(jobs.rows[0]!.n) };
}

export async function runChecks(db: pg.Client, input: CheckInput): Promise<Row[]> {
  const { stats } = input;
  const rows: Row[] = [];

  const refs = [...stats.acked.keys()];
  const present = await db.query<{ reference_id: string; ids: string[] }>(
    'SELECT reference_id, array_agg(id) AS ids FROM payments WHERE partner_id = $1 AND reference_id = ANY($2) GROUP BY reference_id',
    [input.partnerId, refs],
  );
  const byRef = new Map(present.rows.map((r) => [r.reference_id, r.ids]));
  const once = refs.filter((ref) => {
    const ids = byRef.get(ref);
    return ids?.length === 1 && ids[0] === stats.acked.get(ref);
  }).length;
  const missing = refs.filter((ref) => !byRef.has(ref)).length;
  const duplicated = refs.filter((ref) => (byRef.get(ref)?.length ?? 0) > 1).length;
  rows.push({
    check: 'creates acknowledged, present exactly once',
    expected: `${refs.length}`,
    actual: `${once} (missing ${missing}, duplicated ${duplicated}; ${input.httpRetries} HTTP retries)`,
    ok: once === refs.length && refs.length > 0,
  });
  rows.push({ check: 'creates never acknowledged', expected: '0', actual: `${stats.createFailures.length}`, ok: stats.createFailures.length === 0 });

  const confirmed = [...stats.confirmed.keys()];
  const succeeded = await db.query<{ id: string; status: string; succeeded_events: string }>(
    `SELECT p.id, p.status, (SELECT count(*) FROM payment_events e WHERE e.payment_id = p.id AND e.type = 'payment.succeeded') AS succeeded_events
       FROM payments p WHERE p.id = ANY($1)`,
    [confirmed],
  );
  const exactlyOnce = succeeded.rows.filter((r) => r.status === 'succeeded' && r.succeeded_events === '1').length;
  const notFinal = succeeded.rows.filter((r) => !FINAL.has(r.status)).length + (confirmed.length - succeeded.rows.length);
  const perFlow = (['eip3009', 'permit2', 'spl', 'transfer'] as const).map((f) => `${f} ${[...stats.confirmed.values()].filter((v) => v === f).length}`).join(', ');
  rows.push({
    check: `confirms accepted → succeeded exactly once (${perFlow})`,
    expected: `${confirmed.length}`,
    actual: `${exactlyOnce}`,
    ok: exactlyOnce === confirmed.length && confirmed.length > 0,
  });
  rows.push({ check: 'confirmed payments stuck (not final after the drain bound)', expected: '0', actual: `${notFinal}`, ok: notFinal === 0 });
  rows.push({ check: 'payments the wallet could not get confirmed', expected: '0', actual: `${stats.walletErrors.length}`, ok: stats.walletErrors.length === 0 });

  for (const d of input.destinations) {
    const sum = await db.query<{ total: string | null }>(
      "SELECT sum(token_value)::text AS total FROM payments WHERE partner_id = $1 AND status = 'succeeded' AND finality IS DISTINCT FROM 'reversed' AND asset = $2",
      [input.partnerId, d.asset],
    );
    const expected = BigInt(sum.rows[0]?.total ?? '0') + d.initial;
    const balance = await balanceOf(input.chainsUrl, d.account, d.asset);
    rows.push({
      check: `merchant balance on chain = sum succeeded (not reversed) + held before (${d.flow}, base units)`,
      expected: `${expected}`,
      actual: `${balance}`,
      ok: balance === expected,
    });
  }

  const events = await db.query<{ id: string }>('SELECT id FROM payment_events WHERE partner_id = $1 AND created_at >= $2', [input.partnerId, input.endpointSince]);
  const delivered = events.rows.filter((r) => input.receiver.ids.has(r.id)).length;
  const d = input.receiver.deliveries();
  rows.push({
    check: 'webhook events emitted → delivered (distinct ids)',
    expected: `${events.rows.length}`,
    actual: `${delivered} (${d.duplicates} duplicate deliveries, ${d.badSignatures} bad signatures)`,
    ok: delivered === events.rows.length && events.rows.length > 0,
  });

  // A reorg the service could not heal is announced: each reversed payment's payment.reversed reached the receiver.
  const reversed = await db.query<{ id: string; event_id: string | null }>(
    `SELECT p.id, e.id AS event_id FROM payments p
       LEFT JOIN payment_events e ON e.payment_id = p.id AND e.type = 'payment.reversed'
      WHERE p.partner_id = $1 AND p.finality = 'reversed'`,
    [input.partnerId],
  );
  const unannounced = reversed.rows.filter((r) => r.event_id === null || !input.receiver.ids.has(r.event_id)).length;
  rows.push({
    check: 'reversals not announced (reversed payments without a delivered payment.reversed)',
    expected: '0',
    actual: `${unannounced} of ${reversed.rows.length} reversed`,
    ok: unannounced === 0,
  });

  const jobs = await db.query<{ due: string; later: string }>(
    `SELECT count(*) FILTER (WHERE run_at <= now()) AS due, count(*) FILTER (WHERE run_at > now()) AS later
       FROM outbox_jobs WHERE completed_at IS NULL AND NOT (type = ANY($1))`,
    [input.perpetualJobTypes],
  );
  const due = Number(jobs.rows[0]!.due);
  rows.push({ check: 'outbox jobs due and not completed', expected: '0', actual: `${due} (${jobs.rows[0]!.later} scheduled later)`, ok: due === 0 });
  return rows;
}

/** The table, columns padded to their widest cell. */
export function formatTable(rows: Row[]): string {
  const cells = [['check', 'expected', 'actual', 'ok'], ...rows.map((r) => [r.check, r.expected, r.actual, r.ok ? 'ok' : 'FAIL'])];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(cells[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}

/** When a row fails: what the database holds about it (jobs left behind, payments not final). */
export async function diagnose(db: pg.Client, input: CheckInput): Promise<string[]> {
  const lines: string[] = [];
  const jobs = await db.query<{ type: string; relayed: boolean; attempts: number; n: string; error: string | null }>(
    `SELECT type, relayed_at IS NOT NULL AS relayed, attempts, count(*) AS n, min(left(last_error, 160)) AS error
       FROM outbox_jobs WHERE completed_at IS NULL AND run_at <= now() AND NOT (type = ANY($1))
      GROUP BY 1, 2, 3 ORDER BY 4 DESC LIMIT 10`,
    [input.perpetualJobTypes],
  );
  for (const j of jobs.rows) lines.push(`job left: ${j.n} × ${j.type}, relayed ${j.relayed}, attempts ${j.attempts}${j.error ? `, last error ${j.error}` : ''}`);
  const stuck = await db.query<{ id: string; status: string; tx_id: string | null; updated_at: Date }>(
    "SELECT id, status, tx_id, updated_at FROM payments WHERE id = ANY($1) AND status NOT IN ('succeeded', 'failed') LIMIT 10",
    [[...input.stats.confirmed.keys()]],
  );
  for (const p of stuck.rows) {
    const pj = await db.query<{ type: string; run_at: Date; relayed_at: Date | null; completed_at: Date | null; attempts: number }>(
      "SELECT type, run_at, relayed_at, completed_at, attempts FROM outbox_jobs WHERE payload->>'paymentId' = $1 ORDER BY created_at",
      [p.id],
    );
    const js = pj.rows.map(
      (j) => `${j.type} run ${j.run_at.toISOString()} relayed ${j.relayed_at?.toISOString() ?? '-'} done ${j.completed_at?.toISOString() ?? '-'} attempts ${j.attempts}`,
    );
    lines.push(`stuck: ${p.id} ${p.status} tx ${p.tx_id ?? '-'} since ${p.updated_at.toISOString()}; jobs: ${js.join(' | ') || 'none'}`);
  }
  const events = await db.query<{ id: string; type: string; payment_id: string }>('SELECT id, type, payment_id FROM payment_events WHERE partner_id = $1 AND created_at >= $2', [
    input.partnerId,
    input.endpointSince,
  ]);
  for (const e of events.rows.filter((r) => !input.receiver.ids.has(r.id)).slice(0, 10)) {
    const d = await db.query<{ status: string; attempt_count: number; last_status_code: number | null }>(
      'SELECT status, attempt_count, last_status_code FROM webhook_deliveries WHERE event_id = $1',
      [e.id],
    );
    const delivery = d.rows[0] ? `delivery ${d.rows[0].status}, ${d.rows[0].attempt_count} attempts, last status ${d.rows[0].last_status_code ?? '-'}` : 'no delivery row';
    lines.push(`event not received: ${e.id} ${e.type} of ${e.payment_id}; ${delivery}`);
  }
  return lines;
}
