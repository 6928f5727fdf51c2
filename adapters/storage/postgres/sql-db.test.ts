import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresAvailable, postgresUrl } from '../../../test/helpers/services.ts';
import { createPgDb } from './sql-db.ts';

describe('createPgDb on a PostgreSQL server', async () => {
  if (!(await postgresAvailable())) return;

  // A server restart cuts every connection; one cut while a transaction waits between two
  // statements (e.g. on a chain call) used to surface as an unhandled 'error' event that killed
  // the process (the fault suite's PostgreSQL restart took a worker down this way).
  it('a connection cut between two statements fails that transaction, not the process, and the pool carries on', { timeout: 15_000 }, async () => {
    const db = createPgDb({ url: postgresUrl, max: 2 });
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      const outcome = db.transaction(async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        // The cut arrives while no statement of this transaction is running.
        await new Promise((r) => setTimeout(r, 300));
        await tx.query('SELECT 1');
      });
      await expect(outcome).rejects.toThrow();
      for (let i = 0; i < 3; i++) expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await db.close();
    }
  });
});
