import { mkdirSync } from 'node:fs';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';

/**
 * The configured storage: a PostgreSQL server when DATABASE_URL is set, else embedded PGlite.
 * Its `db` is what the payment-changes listener hears the storage's notifications on.
 */
export async function openConfiguredStorage(cfg: { databaseUrl?: string; dataDir: string }): Promise<Awaited<ReturnType<typeof createPostgresStorage>>> {
  if (cfg.databaseUrl) return createPostgresStorage({ url: cfg.databaseUrl });
  mkdirSync(cfg.dataDir, { recursive: true });
  return createPostgresStorage({ embedded: true, dataDir: cfg.dataDir });
}
