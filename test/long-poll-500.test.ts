import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends, type TestStorage } from './helpers/backends.ts';
import { startTestApp, TEST_ASSETS, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { countingWaiters } from './helpers/long-poll.ts';
import { waitFor } from './helpers/wait-for.ts';
import { createPostgresPaymentChanges } from '../adapters/payment-changes/postgres/index.ts';
import { PAYMENT_CHANGES_CHANNEL } from '../adapters/storage/postgres/change-channel.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { systemClock } from '../server/ports/clock.ts';
import { transitionPayment } from '../server/domain/payments/transition.ts';
import type { PaymentRecord } from '../server/domain/payments/records.ts';

const WAITERS = 500;
/** Each request must answer within this long of its own payment's change (issue 16). */
const MAX_LATENCY_MS = 100;
/** How long the test watches the database while all requests wait. */
const QUIET_WINDOW_MS = 1500;

const backends = await storageBackends();

// A full collection before measuring: the heap figure then counts live objects only, and the
// change window does not inherit a major GC owed by the setup (creating 500 payments). On
// embedded PGlite that pause measured 130 ms, longer than the bound under test, and had nothing
// to do with how waiters are woken.
setFlagsFromString('--expose-gc');
const fullGc = runInNewContext('gc') as () => void;

/** Every statement the storage sends, whichever repository sends it. */
function countQueries(storage: TestStorage) {
  const db = storage.db;
  const counts = { queries: 0, transactions: 0 };
  const [query, exec, transaction] = [db.query.bind(db), db.exec.bind(db), db.transaction.bind(db)];
  Object.assign(db, {
    query: (...args: Parameters<typeof query>) => {
      counts.queries += 1;
      return query(...args);
    },
    exec: (sql: string) => {
      counts.queries += 1;
      return exec(sql);
    },
    transaction: (fn: Parameters<typeof transaction>[0]) => {
      counts.transactions += 1;
      return transaction(fn);
    },
  });
  return { total: () => counts.queries + counts.transactions };
}

/**
 * A GET on node:http with a keep-alive agent: the waiting clients share the process with the
 * service, and fetch's own work and garbage showed up as the service's tail (as in tools/bench).
 */
function getter(baseUrl: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const { hostname, port } = new URL(baseUrl);
  const get = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      http
        .get({ hostname, port, path, headers, agent }, (res) => {
          let data = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (data += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(data) }));
        })
        .on('error', reject);
    });
  return { get, close: () => agent.destroy() };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

describe.each(backends)('$name: 500 long-polls in one process', (backend) => {
  let storage: TestStorage & { dispose(): Promise<void> };
  let t: TestApp;
  let waiters: ReturnType<typeof countingWaiters>;
  let merchantId: string;
  beforeAll(async () => {
    storage = await backend.open();
    waiters = countingWaiters(await createPostgresPaymentChanges({ channel: PAYMENT_CHANGES_CHANNEL, db: storage.db }));
    // Responses are not validated against the spec here: it would measure the validator.
    t = await startTestApp(storage, { paymentChanges: waiters.port, clock: systemClock, validateResponses: false });
    merchantId = await payableMerchant(t, t.a.key);
  });
  afterAll(async () => {
    await waiters?.port.close();
    await t?.close();
    await storage?.dispose();
  });

  // One retry: on embedded PGlite the database runs on this test's own event loop, and one run in
  // about twenty on the shared 2-core CI machine saw a single 250 ms stall of the whole loop (GC
  // 30 ms) that delayed one answer of 500 (p99 26 ms). A regression in how waiters are woken is
  // not a one-off: it fails both runs (a missed wake answers only at the 30 s bound).
  it('answers each request within 100 ms of its payment’s change, with no database query while they wait', { retry: 1 }, async () => {
    const ids: string[] = [];
    for (let i = 0; i < WAITERS; i += 50) {
      const made = await Promise.all(Array.from({ length: 50 }, () => createPayment(t, t.a.key, merchantId)));
      ids.push(...made.map((r) => r.body.paymentId as string));
    }
    const records = new Map<string, PaymentRecord>();
    for (const id of ids) records.set(id, (await storage.payments.get(id))!);
    const queries = countQueries(storage);
    fullGc();
    const heapBefore = process.memoryUsage().heapUsed;

    // Half partner status, half gateway status, each on its own payment, each allowed 30 s.
    const answeredAt = new Map<string, number>();
    const client = getter(t.url);
    const answers = ids.map((id, i) => {
      const call =
        i % 2 === 0
          ? client.get(`/v1/payments/${id}/status?maxPollMs=30000`, { 'Api-Key': t.a.key, 'Merchant-Id': merchantId })
          : client.get(`/v1/gateway/payment/${id}/status?maxPollMs=30000`, { 'Api-Key': t.a.walletKey });
      return call.then((r) => {
        answeredAt.set(id, performance.now());
        return { id, status: r.status, body: r.body };
      });
    });
    await waitFor(`${WAITERS} requests waiting`, () => waiters.waiting === WAITERS, 20_000);
    // Each request subscribed before its first read; those reads (batched) finish first.
    let last = -1;
    await waitFor(
      'the requests’ first reads',
      () => {
        const settledNow = queries.total() === last;
        last = queries.total();
        return settledNow;
      },
      10_000,
      200,
    );
    const firstReads = queries.total();
    fullGc();
    const heapWaiting = process.memoryUsage().heapUsed;

    // The quiet window: everyone waits, the database hears nothing from them.
    const before = queries.total();
    await new Promise((r) => setTimeout(r, QUIET_WINDOW_MS));
    const duringWait = queries.total() - before;
    expect(answeredAt.size).toBe(0);

    // Change each payment in turn. A request's latency runs from its payment's change, i.e. the
    // commit (when the transition call returns); from the start of that call is reported too,
    // which adds the transition's own round trips and WAL flush on a busy shared server.
    const startedAt = new Map<string, number>();
    const committedAt = new Map<string, number>();
    const deps = { storage, clock: systemClock, assets: createAssetRegistry(TEST_ASSETS) };
    const changeStart = queries.total();
    const gcPauses: number[] = [];
    const gcs = new PerformanceObserver((list) => gcPauses.push(...list.getEntries().map((e) => e.duration)));
    gcs.observe({ entryTypes: ['gc'] });
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    for (const id of ids) {
      // Each change is its own task, as when a request or a job makes it. Embedded PGlite answers
      // without I/O, so a bare loop of changes would run as one chain of microtasks and hold every
      // socket write (the answers) until all 500 were done.
      await new Promise((r) => setImmediate(r));
      startedAt.set(id, performance.now());
      const moved = await transitionPayment(deps, records.get(id)!, 'cancelled', { cancelledReason: 'test', cancelledAt: new Date() });
      committedAt.set(id, performance.now());
      expect(moved.ok).toBe(true);
    }
    const settled = await Promise.all(answers);
    client.close();
    gcs.disconnect();
    loopDelay.disable();
    const changeQueries = queries.total() - changeStart;

    for (const a of settled) expect([a.status, a.body.status]).toEqual([200, 'cancelled']);
    // The answer may overtake the commit's acknowledgement (both reach this process): never below 0.
    const latencies = ids.map((id) => Math.max(0, answeredAt.get(id)! - committedAt.get(id)!)).sort((a, b) => a - b);
    const fromStart = ids.map((id) => answeredAt.get(id)! - startedAt.get(id)!).sort((a, b) => a - b);
    const summary = (xs: number[]) => ({ p50: +percentile(xs, 50).toFixed(1), p99: +percentile(xs, 99).toFixed(1), max: +xs.at(-1)!.toFixed(1) });
    const figures = {
      backend: backend.name,
      waiters: WAITERS,
      queriesToStartWaiting: firstReads,
      queriesDuringWait: duringWait,
      quietWindowMs: QUIET_WINDOW_MS,
      latencyAfterCommitMs: summary(latencies),
      latencyFromChangeCallMs: summary(fromStart),
      // Storage statements while changing and answering: the transitions' own, plus one (batched) re-read per woken request.
      queriesWhileChanging: changeQueries,
      longestGcPauseMs: +Math.max(0, ...gcPauses).toFixed(1),
      longestEventLoopStallMs: +(loopDelay.max / 1e6).toFixed(1),
      heapPerWaitingRequestKiB: +((heapWaiting - heapBefore) / WAITERS / 1024).toFixed(1),
    };
    console.log(`long-poll figures: ${JSON.stringify(figures)}`);
    expect(duringWait).toBe(0);
    expect(figures.latencyAfterCommitMs.p99).toBeLessThanOrEqual(MAX_LATENCY_MS);
    expect(figures.latencyAfterCommitMs.max).toBeLessThanOrEqual(MAX_LATENCY_MS);
    expect(waiters.waiting).toBe(0);
  });
});
