/**
 * `npm run bench -- pages`: is every page of `GET /v1/payments` cheap at a million payments?
 *
 * Seeds 1,000,000 payments of one partner (100 merchants, one of them with half the payments;
 * several statuses; 50,000 buyers) with generate_series straight into a throwaway schema, then
 * times page 1 (which carries the listing's stats) against page 10,000 (a keyset cursor built for
 * the row where that page starts, as walking there would have issued it), with no filter, a status
 * filter and a merchant filter. Requests alternate page 1 and page 10,000 so drift in the
 * machine's load hits both alike; figures are medians. As a reference it also times page 1 with a
 * creation-time bound that excludes nothing: stats counted over the rows, as before the counters.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startApiProcess } from './api-process.ts';

const total = Number(process.env.BENCH_PAGES_PAYMENTS ?? 1_000_000);
const repeats = Number(process.env.BENCH_PAGES_REPEATS ?? 25);
const limit = 50;
const deepPage = 10_000;

/** The migration's backfill, run after seeding with triggers off: the counters as the trigger would have kept them. */
function backfillSql(): string {
  const sql = readFileSync(join(import.meta.dirname, '../../adapters/storage/postgres/migrations/013-paid-counters.sql'), 'utf8');
  return sql.slice(sql.indexOf('-- Backfill'), sql.indexOf('-- Only writes'));
}

const SEED = (partnerId: string) => `
  INSERT INTO merchants (id, partner_id, name, email, status, created_at)
  SELECT 'mrch_bench' || lpad(m::text, 3, '0'), '${partnerId}', 'Bench ' || m, 'm@bench.test', 'active', now() FROM generate_series(0, 99) m;
  INSERT INTO payments (id, partner_id, merchant_id, reference_id, fiat_currency, fiat_value, status, state_version, expires_at, created_at, updated_at,
                        buyer_account, asset, token_value, network, tx_id, succeeded_at, refunded_at)
  SELECT 'pay_bench' || lpad(i::text, 8, '0'), '${partnerId}',
         -- Half the payments are merchant 000's, the rest spread over the other 99.
         'mrch_bench' || lpad((CASE WHEN i % 2 = 0 THEN 0 ELSE 1 + i % 99 END)::text, 3, '0'),
         'order-' || i, CASE WHEN i % 10 = 3 THEN 'EUR' ELSE 'USD' END, 100 + (i * 7919) % 100000,
         s.status, 2, t + interval '1 hour', t, t,
         CASE WHEN s.status IN ('succeeded', 'processing') THEN 'eip155:8453:0x' || lpad(to_hex((i * 31) % 50000), 40, '0') END,
         CASE WHEN s.status = 'succeeded' THEN 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' END,
         CASE WHEN s.status = 'succeeded' THEN 1000000 END,
         CASE WHEN s.status = 'succeeded' THEN 'eip155:8453' END,
         CASE WHEN s.status = 'succeeded' THEN '0x' || lpad(to_hex(i), 64, '0') END,
         CASE WHEN s.status = 'succeeded' THEN t END,
         CASE WHEN s.status = 'succeeded' AND i % 50 = 7 THEN t END
  FROM generate_series(1::bigint, ${total}) i,
       LATERAL (SELECT timestamptz '2025-01-01' + i * interval '1 second' AS t,
                       (ARRAY['succeeded','succeeded','succeeded','succeeded','succeeded','succeeded','expired','failed','requires_action','processing'])[1 + (i / 2) % 10] AS status) s;`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchPages(): Promise<void> {
  // The service as `npm start` runs it, on a database of its own (dropped at the end); the rows are
  // seeded straight into that database beside it.
  const service = await startApiProcess('pages', 'production', { JOB_WORKERS: 'on' });
  const admin = new pg.Client({ connectionString: service.databaseUrl });
  try {
    await admin.connect();
    const seedStart = performance.now();
    // Replica mode skips triggers and foreign-key checks: the counters come from the backfill after.
    await admin.query('SET session_replication_role = replica');
    await admin.query(SEED(service.partnerId));
    await admin.query('SET session_replication_role = DEFAULT');
    await admin.query(backfillSql());
    await admin.query('VACUUM ANALYZE payments');
    await admin.query('ANALYZE paid_totals; ANALYZE paid_buyers; ANALYZE paid_customers');
    console.log(
      `pages: seeded ${total.toLocaleString('en')} payments (100 merchants, 50,000 buyers) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s, database ${service.database}`,
    );

    const headers = { 'api-key': service.partnerKey };
    const get = async (query: string) => {
      const t = performance.now();
      const res = await fetch(`${service.url}/v1/payments?limit=${limit}${query}`, { headers });
      const body = (await res.json()) as { data: unknown[]; nextCursor: string | null; stats: unknown };
      if (res.status !== 200 || body.data.length !== limit) throw new Error(`GET ${query}: ${res.status} with ${body.data?.length} payments`);
      return { ms: performance.now() - t, body };
    };
    type Filter = { name: string; query: string; where: string };
    const filters: Filter[] = [
      { name: 'no filter', query: '', where: 'true' },
      { name: 'status=succeeded', query: '&status=succeeded', where: `status = 'succeeded'` },
      { name: 'merchantId (500,000)', query: '&merchantId=mrch_bench000', where: `merchant_id = 'mrch_bench000'` },
    ];

    /** Medians of page 1 and of page `page` (alternating), and of page 1 with its stats counted over the rows. */
    async function measure(f: Filter, page: number, countedQuery: string | null) {
      // The cursor page `page - 1` would have issued: the last row before page `page`, with page 1's stats.
      const first = await get(f.query);
      const { rows } = await admin.query<{ id: string }>(`SELECT id FROM payments WHERE ${f.where} ORDER BY id DESC OFFSET $1 LIMIT 1`, [(page - 1) * limit - 1]);
      const cursor = Buffer.from(JSON.stringify({ id: rows[0]!.id, sort: 'date:desc', stats: first.body.stats })).toString('base64url');
      const deepQuery = `${f.query}&cursor=${cursor}`;
      for (let i = 0; i < 3; i++) await Promise.all([get(f.query), get(deepQuery)].map((p) => p.then(() => undefined)));
      const times = { first: [] as number[], deep: [] as number[], scan: [] as number[] };
      for (let i = 0; i < repeats; i++) {
        times.first.push((await get(f.query)).ms);
        times.deep.push((await get(deepQuery)).ms);
      }
      for (let i = 0; countedQuery !== null && i < 3; i++) {
        const scanned = await get(countedQuery);
        times.scan.push(scanned.ms);
        // Honest stats: the counters say what counting the rows says.
        if (JSON.stringify(scanned.body.stats) !== JSON.stringify(first.body.stats))
          throw new Error(`${f.name}: stats from counters ${JSON.stringify(first.body.stats)} differ from the rows' ${JSON.stringify(scanned.body.stats)}`);
      }
      const plan = await admin.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT * FROM payments WHERE partner_id = $1 AND ${f.where} AND id < $2 ORDER BY id DESC LIMIT ${limit + 1}`,
        [service.partnerId, rows[0]!.id],
      );
      const index = plan.rows.map((r) => /Index (?:Only )?Scan(?: Backward)? using (\w+)/.exec(r['QUERY PLAN'])?.[1]).find(Boolean) ?? 'no index';
      return { p1: median(times.first), deep: median(times.deep), scan: times.scan.length ? median(times.scan) : null, index };
    }

    const goals: string[] = [];
    for (const f of filters) {
      const { p1, deep, scan, index } = await measure(f, deepPage, `${f.query}&startTs=1970-01-01T00:00:00Z`);
      const ratio = p1 / deep;
      console.log(
        `  ${f.name.padEnd(22)} page 1 + stats ${p1.toFixed(1).padStart(6)} ms   page ${deepPage.toLocaleString('en')} ${deep.toFixed(1).padStart(6)} ms   ` +
          `page 1 / deep ${ratio.toFixed(2)} (goal ≤ 3)   deep / page 1 ${(deep / p1).toFixed(2)} (goal ≤ 1.3)   [stats over the rows: ${scan!.toFixed(0)} ms; deep page reads ${index}]`,
      );
      goals.push(`${f.name}: ${ratio <= 3 && deep / p1 <= 1.3 ? 'met' : 'NOT met'}`);
    }
    console.log(`  goals: ${goals.join('; ')}  (medians of ${repeats}, alternating)`);
    // Not among the goals: a creation-time range, whose stats the counters cannot answer, so they
    // count the paid payments of the range.
    const day: Filter = {
      name: 'one day (86,400)',
      query: '&startTs=2025-01-05T00:00:00Z&endTs=2025-01-06T00:00:00Z',
      where: `created_at >= '2025-01-05' AND created_at < '2025-01-06'`,
    };
    const r = await measure(day, 1_000, null);
    console.log(
      `  ${day.name.padEnd(22)} page 1 + stats ${r.p1.toFixed(1).padStart(6)} ms   page 1,000 ${r.deep.toFixed(1).padStart(6)} ms   page 1 / deep ${(r.p1 / r.deep).toFixed(2)}  (no goal; deep page reads ${r.index})`,
    );
  } finally {
    await admin.end().catch(() => {});
    await service.close();
  }
}
