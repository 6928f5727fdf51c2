import { mkdirSync } from 'node:fs';
import { createPostgresStorage } from '../adapters/storage/postgres/index.ts';
import type { StoragePort } from './ports/storage.ts';

/** The configured storage: a PostgreSQL server when DATABASE_URL is set, else embedded PGlite. */
export async function openConfiguredStorage(cfg: { databaseUrl?: string; dataDir: string }): Promise<StoragePort> {
  if (cfg.databaseUrl) return createPostgresStorage({ url: cfg.databaseUrl });
  mkdirSync(cfg.dataDir, { recursive: true });
  return createPostgresStorage({ embedded: true, dataDir: cfg.dataDir });
}
