import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresAvailable, postgresUrl } from '../../../test/helpers/services.ts';
import { runExclusiveSectionsConformance } from '../conformance/exclusive-sections-conformance.ts';
import { advisoryKeyOf, createPostgresSections } from './index.ts';

/** Ends the server connection that holds `key`'s advisory lock, as a worker killed with -9 would. */
async function killHolder(key: string): Promise<void> {
  const k = BigInt.asUintN(64, advisoryKeyOf(key));
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1::oid AND objid = $2::oid AND objsubid = 1`,
      [(k >> 32n).toString(), (k & 0xffffffffn).toString()],
    );
    expect(rows).toHaveLength(1);
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
  } finally {
    await admin.end();
  }
}

if (await postgresAvailable()) {
  // Each instance has its own pool: two instances are two processes to the server.
  runExclusiveSectionsConformance('postgres', async () => createPostgresSections({ url: postgresUrl, max: 2 }), { sharedAcrossInstances: true, killHolder });

  describe('postgres exclusive sections: bounds', () => {
    const opened: Array<ReturnType<typeof createPostgresSections>> = [];
    afterAll(async () => {
      for (const s of opened) await s.close();
    });

    it('rejects with a clear error, without running the work, when the key stays held past the wait bound', async () => {
      const holder = createPostgresSections({ url: postgresUrl });
      const waiter = createPostgresSections({ url: postgresUrl, waitMs: 300 });
      opened.push(holder, waiter);
      const key = `bound:${process.pid}:${Math.random()}`;
      let release!: () => void;
      let entered!: () => void;
      const inside = new Promise<void>((r) => (entered = r));
      const held = holder.run(key, async () => {
        entered();
        await new Promise<void>((r) => (release = r));
      });
      await inside;
      let ran = false;
      const started = Date.now();
      await expect(waiter.run(key, async () => (ran = true))).rejects.toThrow(/not acquired within 300 ms/);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(ran).toBe(false);
      release();
      await held;
      // The refused waiter's connection is still good: it takes the key once it is free.
      expect(await waiter.run(key, async () => 'later')).toBe('later');
    });

    it('reports a holder whose connection died while its work ran', async () => {
      const lost: string[] = [];
      const s = createPostgresSections({ url: postgresUrl, onLost: (key) => lost.push(key) });
      opened.push(s);
      const key = `lost:${process.pid}:${Math.random()}`;
      await s.run(key, async () => {
        await killHolder(key);
        await new Promise((r) => setTimeout(r, 100));
      });
      expect(lost).toEqual([key]);
      expect(await s.run(key, async () => 'again')).toBe('again');
    });
  });
}
