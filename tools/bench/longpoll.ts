/**
 * `npm run bench -- longpoll`: one API process in production mode (standalone sandbox chains over
 * JSON-RPC, PostgreSQL) holding LONGPOLL_WAITERS (default 2,000) long-polls at once:
 * LONGPOLL_CONFIRMS (default 200) gateway confirms of payments buyers signed for, the rest status
 * long-polls, half on the partner API and half on the gateway. Then the payments change: a worker
 * starts and settles the confirmed ones on the chain, and the others are cancelled through the API
 * at a steady rate. Each waiter's answer is timed from its payment's commit: the moment the bench's
 * own LISTEN connection hears the storage's NOTIFY (PostgreSQL delivers it at commit), so it is
 * measured the way any other process on the database would see it.
 * Prints: answer latency after the change (p50/p99, goal p99 < 100 ms), per kind and in all, beside
 * the cancel request's own latency in the same run (a plain write, the side-by-side baseline), the
 * API's RSS before and while the waiters wait (goal growth < 100 MB), and the database transactions
 * issued while they wait (goal 0 per waiter).
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { PAYMENT_CHANGES_CHANNEL } from '../../adapters/storage/postgres/change-channel.ts';
import { memoryOf, startApiProcess, databaseCounters } from './api-process.ts';
import { confirmLongPoll, confirmSigner, type SignedConfirm } from './longpoll-confirms.ts';

const waiters = Number(process.env.LONGPOLL_WAITERS ?? 2_000);
const confirms = Math.min(waiters, Number(process.env.LONGPOLL_CONFIRMS ?? 200));
const changeRate = Number(process.env.LONGPOLL_CHANGE_RATE ?? 200);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Runs `fn` over `items`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

function delta(a: { transactions: number; paymentReads: number }, b: { transactions: number; paymentReads: number }) {
  return { transactions: b.transactions - a.transactions, paymentReads: b.paymentReads - a.paymentReads };
}

async function window3s(database: string) {
  const start = await databaseCounters(database);
  await sleep(3_000);
  return delta(start, await databaseCounters(database));
}

export async function longPollBench(): Promise<void> {
  console.log(
    `longpoll bench: ${waiters} concurrent long-polls on one API process (${confirms} confirms, ${waiters - confirms} status; production mode, chains over RPC, PostgreSQL)`,
  );
  const api = await startApiProcess('longpoll', 'production');
  const listener = new pg.Client({ connectionString: api.databaseUrl });
  try {
    const headers = { 'Api-Key': api.partnerKey, 'Merchant-Id': api.merchantId, 'Content-Type': 'application/json' };
    const ids: string[] = [];
    const t0 = performance.now();
    await inParallel([...Array(waiters).keys()], 16, async (i) => {
      const r = await api.call(
        'POST',
        '/v1/payments',
        { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `lp-${i}`, expiresAt: null },
        { 'Merchant-Id': api.merchantId },
      );
      if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
      ids.push(r.body.paymentId!);
    });
    console.log(`  ${ids.length} payments created in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const t1 = performance.now();
    const sign = await confirmSigner(api);
    const signed: SignedConfirm[] = [];
    await inParallel(ids.slice(0, confirms), 8, async (id) => void signed.push(await sign(id)));
    const confirmed = new Set(signed.map((c) => c.paymentId));
    const statusIds = ids.filter((id) => !confirmed.has(id));
    console.log(`  ${signed.length} buyers funded and signed (EIP-3009) in ${((performance.now() - t1) / 1000).toFixed(1)} s`);

    // Every commit that announced a payment, with when it was heard.
    const commits = new Map<string, number[]>();
    await listener.connect();
    listener.on('notification', (m) => {
      if (!m.payload) return;
      const heard = commits.get(m.payload) ?? [];
      heard.push(performance.now());
      commits.set(m.payload, heard);
    });
    await listener.query(`LISTEN ${PAYMENT_CHANGES_CHANNEL}`);

    // The process at rest with its payments made: what the waiters add is measured from here.
    await sleep(1_500);
    const idle = await window3s(api.database);
    const before = memoryOf(api.pid);

    const answered = new Map<string, { at: number; status: string }>();
    const failures: string[] = [];
    const answer = (id: string, res: Promise<{ status: number; body: { status?: string } }>) =>
      res
        .then(({ status, body }) => {
          if (status !== 200) failures.push(`${status} ${JSON.stringify(body)}`);
          answered.set(id, { at: performance.now(), status: body.status ?? '' });
        })
        .catch((err: Error) => void failures.push(err.message));
    // Confirms first: each is verified and moves its payment to processing, then waits there.
    const polls = signed.map((c) => answer(c.paymentId, confirmLongPoll(api, c, 30_000)));
    polls.push(
      ...statusIds.map((id, i) => {
        const path = i % 2 === 0 ? `/v1/payments/${id}/status?maxPollMs=30000` : `/v1/gateway/payment/${id}/status?maxPollMs=30000`;
        const h = i % 2 === 0 ? headers : { 'Api-Key': api.walletKey };
        const res = fetch(`${api.url}${path}`, { headers: h }).then(async (r) => ({ status: r.status, body: (await r.json()) as { status?: string } }));
        return answer(id, res);
      }),
    );
    // Every waiter has made its first read, and waits, once the payments table has not been read
    // for two seconds (backends report their counts up to a second late).
    for (let last = -1, still = 0, i = 0; i < 30 && still < 2; i++) {
      await sleep(1_000);
      const now = (await databaseCounters(api.database)).paymentReads;
      still = now === last ? still + 1 : 0;
      last = now;
    }
    if (answered.size) throw new Error(`${answered.size} long-polls answered before any change: ${failures.slice(0, 3).join('; ')}`);
    const waitStart = await databaseCounters(api.database);
    const waiting: number[] = [];
    for (let i = 0; i < 6; i++) {
      await sleep(500);
      waiting.push(memoryOf(api.pid).rssMb);
    }
    const wait = delta(waitStart, await databaseCounters(api.database));

    // The changes: a worker settles the confirmed payments on the chain, while each other payment
    // is cancelled through the API at a steady rate, as merchants' cancels would come. The cancels
    // start once the worker runs, so its start-up (a second or two of CPU) is not in their figures.
    const changeStart = performance.now();
    const worker = await api.startWorker();
    const cancelStart = performance.now();
    const cancelMs: number[] = [];
    await Promise.all(
      statusIds.map(async (id, i) => {
        await sleep(Math.max(0, cancelStart + (i * 1000) / changeRate - performance.now()));
        const sent = performance.now();
        const res = await fetch(`${api.url}/v1/payments/${id}/cancel`, { method: 'POST', headers: { ...headers, 'Idempotency-Key': `c-${id}` } });
        await res.arrayBuffer();
        if (res.status !== 200) failures.push(`cancel ${res.status}`);
        cancelMs.push(performance.now() - sent);
      }),
    );
    await Promise.race([Promise.all(polls), sleep(35_000)]);
    const after = memoryOf(api.pid);
    await worker.close();

    const latencyOf = (kind: string, list: string[], expected: string) => {
      const latency: number[] = [];
      let lastCommit = changeStart;
      for (const id of list) {
        const a = answered.get(id);
        // The change is the payment's first commit after the changes began (a confirm's own move
        // to processing came before).
        const c = commits.get(id)?.find((t) => t >= changeStart);
        if (!a || c === undefined) continue;
        if (a.status !== expected) failures.push(`${kind} answered ${a.status}, not ${expected}`);
        latency.push(Math.max(0, a.at - c));
        lastCommit = Math.max(lastCommit, c);
      }
      if (latency.length !== list.length) failures.push(`${list.length - latency.length} ${kind} waiters without an answer or a commit`);
      return { latency, spanS: (lastCommit - changeStart) / 1000 };
    };
    const byConfirm = latencyOf('confirm', [...confirmed], 'succeeded');
    const byStatus = latencyOf('status', statusIds, 'cancelled');
    const all = [...byConfirm.latency, ...byStatus.latency];
    const line = (title: string, xs: number[]) =>
      `  ${title.padEnd(38)} p50 ${ms(pct(xs, 50))}   p99 ${ms(pct(xs, 99))}   max ${ms(Math.max(...xs))}  (goal p99 < 100 ms)  ${pct(xs, 99) < 100 ? 'met' : 'NOT met'}`;
    const growth = Math.max(...waiting) - before.rssMb;
    console.log(
      `  changes: ${statusIds.length} cancels through the API at ${changeRate}/s; ${signed.length} confirmed payments settled by a worker on the chain in ${byConfirm.spanS.toFixed(1)} s (${(signed.length / byConfirm.spanS).toFixed(0)}/s, its start included)`,
    );
    console.log("  answer after its payment's commit:");
    console.log(line(`status long-polls (${byStatus.latency.length})`, byStatus.latency));
    console.log(line(`confirm long-polls (${byConfirm.latency.length})`, byConfirm.latency));
    console.log(line(`all (${all.length})`, all));
    console.log(
      `  baseline, the cancel request itself:   p50 ${ms(pct(cancelMs, 50))}   p99 ${ms(pct(cancelMs, 99))}  (ratio p99 ${(pct(all, 99) / pct(cancelMs, 99)).toFixed(2)})`,
    );
    console.log(
      `  API RSS: before ${before.rssMb.toFixed(0)} MB, while ${waiters} wait ${Math.max(...waiting).toFixed(0)} MB (growth ${growth.toFixed(0)} MB, goal < 100 MB) ${growth < 100 ? 'met' : 'NOT met'}; after ${after.rssMb.toFixed(0)} MB`,
    );
    console.log(
      `  database while ${waiters} wait 3 s: ${wait.paymentReads} payment reads, ${wait.transactions} transactions (the idle process over 3 s: ${idle.paymentReads} and ${idle.transactions}: its outbox relay and webhook dispatcher)`,
    );
    const perWaiter = Math.max(wait.paymentReads, wait.transactions - idle.transactions) / waiters;
    console.log(`    = ${perWaiter.toFixed(3)} queries per waiter  (goal 0) ${perWaiter < 0.01 ? 'met' : 'NOT met'}`);
    if (failures.length) {
      const { rows } = await listener.query<{ status: string; n: string }>('SELECT status, count(*) AS n FROM payments WHERE id = ANY($1) GROUP BY status', [[...confirmed]]);
      console.log(`  the confirmed payments now: ${rows.map((r) => `${r.n} ${r.status}`).join(', ')}; the worker's warnings and errors:\n${worker.warnings().slice(-4000)}`);
      throw new Error(`${failures.length} failures, e.g. ${failures.slice(0, 5).join('; ')}`);
    }
  } finally {
    await listener.end().catch(() => {});
    await api.close();
  }
}
