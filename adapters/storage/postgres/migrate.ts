import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlDb } from './sql-db.ts';

const dir = join(import.meta.dirname, 'migrations');

const migrationFiles = () =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();

/**
 * What `migrate` would do, without doing it (`npm run doctor`): the files not yet recorded, and
 * the recorded names this version has no file for (a newer version ran against the database).
 */
export async function migrationStatus(db: Pick<SqlDb, 'query'>): Promise<{ files: number; pending: string[]; unknown: string[] }> {
  const files = migrationFiles();
  const table = await db.query<{ found: string | null }>("SELECT to_regclass('schema_migrations')::text AS found");
  const done = table.rows[0]?.found ? (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name) : [];
  return { files: files.length, pending: files.filter((f) => !done.includes(f)), unknown: done.filter((n) => !files.includes(n)).sort() };
}

/**
 * Applies the numbered SQL files not yet recorded, each in its own transaction. An advisory lock
 * makes concurrent starts of several processes take turns instead of racing.
 */
export async function migrate(db: SqlDb): Promise<string[]> {
  const files = migrationFiles();
  await db.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(72150001)');
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.exec(readFileSync(join(dir, file), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
    return applied;
  });
}
