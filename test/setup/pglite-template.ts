// Vitest globalSetup: one migrated embedded database per run, dumped to a file every test file's
// embedded stores start from (test/helpers/embedded-storage.ts). A fresh PGlite runs initdb and
// then every migration: about 2 s of CPU, paid by every embedded store in every file (hundreds per
// run); a store loaded from this dump costs about a fifth of that. Each store is still its own
// in-memory copy, so no file or test sees another's rows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../adapters/storage/postgres/migrate.ts';
import type { SqlClient, SqlDb } from '../../adapters/storage/postgres/sql-db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template's dump (a tar file), for createPostgresStorage's loadDataDir. */
    pgliteTemplate: string;
    /** The same database as a data directory on disk, for copyMigratedDataDir. */
    pgliteDataDir: string;
  }
}

/** Only what migrate uses: statements and a transaction, straight on the engine. */
function migrationClient(db: PGlite): SqlDb {
  const client = (c: Pick<PGlite, 'query' | 'exec'>): SqlClient => ({
    async exec(sql) {
      await c.exec(sql);
    },
    async query<R>(sql: string, params?: unknown[]) {
      const r = await c.query<R>(sql, params);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
  });
  return {
    ...client(db),
    transaction: (fn) => db.transaction((tx) => fn(client(tx))),
    close: () => db.close(),
    poolStats: () => null,
    notifications: { engine: 'pglite', listen: (channel, onPayload) => db.listen(channel, onPayload) },
  };
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'));
  const db = await PGlite.create();
  try {
    await migrate(migrationClient(db));
    const dump = await db.dumpDataDir('none');
    const file = join(dir, 'template.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', file);
    // A data directory too: tests that run the key tool or the service in a process of its own
    // on a data directory start from a copy, so each such process does not redo initdb and the
    // migrations (about 7 s of CPU each on CI's two cores).
    const dataDir = join(dir, 'data');
    const onDisk = await PGlite.create({ dataDir, loadDataDir: dump });
    await onDisk.close();
    project.provide('pgliteDataDir', dataDir);
  } finally {
    await db.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
