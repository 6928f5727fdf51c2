// The payment-changes conformance suite on this adapter, against PGlite and a PostgreSQL server
// driven directly (no storage adapter): a change is a NOTIFY committed on the channel the listener
// was given, which is all the storage does. test/payment-changes-postgres.test.ts covers the storage
// and this listener together.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { expect } from 'vitest';
import { migratedTemplate } from '../../../test/helpers/embedded-storage.ts';
import { postgresAvailable, postgresUrl } from '../../../test/helpers/services.ts';
import { runPaymentChangesConformance } from '../conformance/payment-changes-conformance.ts';
import { createPostgresPaymentChanges } from './index.ts';

const CHANNEL = 'mps_payment_changes_conformance';

runPaymentChangesConformance('postgres (pglite)', async () => {
  // A fresh engine each time, from the run's migrated template when there is one (initdb skipped).
  const loadDataDir = await migratedTemplate();
  const db = await PGlite.create(loadDataDir ? { loadDataDir } : {});
  const changes = await createPostgresPaymentChanges({
    channel: CHANNEL,
    db: { notifications: { engine: 'pglite', listen: (channel, onPayload) => db.listen(channel, onPayload) } },
  });
  const publish = async (id: string) => {
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_notify($1, $2)', [CHANNEL, id]);
    });
  };
  return { changes, publish, loseNotifications: 'never', dispose: () => db.close() };
});

const server = await postgresAvailable();
if (server) {
  let listeners = 0;
  runPaymentChangesConformance('postgres (server)', async () => {
    const pool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
    const applicationName = `mps-changes-conf-${process.pid}-${++listeners}`;
    const changes = await createPostgresPaymentChanges({
      channel: CHANNEL,
      db: { notifications: { engine: 'server', url: postgresUrl } },
      applicationName,
      reconnect: { minMs: 50, maxMs: 200 },
    });
    const publish = async (id: string) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_notify($1, $2)', [CHANNEL, id]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    };
    // The listener's connection killed, as a failover or a restart of the server would.
    const loseNotifications = async () => {
      const r = await pool.query('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
      expect(r.rows).toEqual([{ ok: true }]);
    };
    return { changes, publish, loseNotifications, dispose: () => pool.end() };
  });
}
