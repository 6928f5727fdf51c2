import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlDb } from './sql-db.ts';

const dir = join(import.meta.dirname, 'migrations');

/**
 * Applies the numbered SQL files not yet recorded, each in its own transaction. An advisory lock
 * makes concurrent starts of several processes take turns instead of racing.
 */
export async function migrate(db: SqlDb): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
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
