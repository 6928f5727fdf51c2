// The counters the long-poll and memory benches print their figures from: if they read the wrong
// field or the wrong database, a bench would report a goal met that was not.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresAvailable, postgresUrl } from '../../test/helpers/services.ts';
import { cpuMsOf, databaseCounters, memoryOf } from './api-process.ts';

describe('bench counters', () => {
  it('reads resident memory from /proc, growing with what the process touches', () => {
    const before = memoryOf(process.pid);
    expect(before.rssMb).toBeGreaterThan(10);
    expect(before.hwmMb).toBeGreaterThanOrEqual(before.rssMb);
    const touched = Buffer.alloc(64 * 1024 * 1024, 1);
    expect(memoryOf(process.pid).rssMb - before.rssMb).toBeGreaterThan(48);
    expect(touched.length).toBeGreaterThan(0);
  });

  it('reads CPU time from /proc in ms, growing by the work done and not by waiting', async () => {
    const start = cpuMsOf(process.pid);
    await new Promise((r) => setTimeout(r, 300));
    const waited = cpuMsOf(process.pid) - start;
    // Busy until the reading has grown by 200 ms: on a loaded machine that takes longer than 200 ms
    // of wall time, never less (one busy thread cannot use CPU faster than the clock runs).
    const busyFrom = cpuMsOf(process.pid);
    const wallFrom = performance.now();
    while (cpuMsOf(process.pid) - busyFrom < 200 && performance.now() - wallFrom < 30_000);
    const busy = cpuMsOf(process.pid) - busyFrom;
    const wall = performance.now() - wallFrom;
    expect(busy).toBeGreaterThanOrEqual(200);
    expect(busy).toBeLessThan(wall + 50);
    expect(waited).toBeLessThan(100);
  });

  it('counts the transactions and payment reads of its own database only', { timeout: 30_000 }, async () => {
    if (!(await postgresAvailable())) return;
    const database = `bench_counters_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const url = (db: string) => Object.assign(new URL(postgresUrl), { pathname: `/${db}` }).toString();
    const admin = new pg.Client({ connectionString: url('postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const c = new pg.Client({ connectionString: url(database) });
    try {
      await c.connect();
      await c.query('CREATE TABLE payments (id text)');
      await c.query('CREATE TABLE other (id text)');
      const settled = async (want: (n: { transactions: number; paymentReads: number }) => boolean) => {
        // Backends report their counts within about a second of a transaction's end.
        for (let i = 0; i < 50; i++) {
          const n = await databaseCounters(database);
          if (want(n)) return n;
          await new Promise((r) => setTimeout(r, 200));
        }
        return databaseCounters(database);
      };
      // Creating the table reports late: start once the count holds still.
      let start = await databaseCounters(database);
      for (let i = 0; i < 10; i++) {
        await new Promise((r) => setTimeout(r, 1_100));
        const again = await databaseCounters(database);
        if (again.paymentReads === start.paymentReads) break;
        start = again;
      }
      for (let i = 0; i < 5; i++) await c.query('SELECT * FROM payments WHERE id = $1', [`p${i}`]);
      await c.query('SELECT * FROM other');
      const after = await settled((n) => n.paymentReads - start.paymentReads >= 5 && n.transactions - start.transactions >= 6);
      expect(after.paymentReads - start.paymentReads).toBe(5);
      // Each of the six statements, and the one connection databaseCounters opens per call.
      expect(after.transactions - start.transactions).toBeGreaterThanOrEqual(6);
      // Other databases' work is not counted: the admin connection's queries here are on `postgres`.
      await admin.query('SELECT count(*) FROM pg_class');
      const quiet = await databaseCounters(database);
      expect(quiet.paymentReads).toBe(after.paymentReads);
    } finally {
      await c.end().catch(() => {});
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  });
});
