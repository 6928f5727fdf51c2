import { cpSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';

let template: Promise<Blob | undefined> | undefined;

/** The run's migrated template (test/setup/pglite-template.ts), read once per test file; none under a config without that setup. */
export function migratedTemplate(): Promise<Blob | undefined> {
  template ??= (async () => {
    const file = inject('pgliteTemplate');
    return file ? new Blob([await readFile(file)]) : undefined;
  })();
  return template;
}

/**
 * A fresh, empty, memory-only embedded store, as `createPostgresStorage({ embedded: true })` opens it,
 * started from the run's migrated template when there is one. Each call is its own database.
 */
export async function openEmbeddedStorage(): Promise<Awaited<ReturnType<typeof createPostgresStorage>>> {
  const loadDataDir = await migratedTemplate();
  return createPostgresStorage({ embedded: true, ...(loadDataDir ? { loadDataDir } : {}) });
}

/**
 * Fills `dataDir` (absent or empty) with a copy of the run's migrated data directory, as the key
 * tool or the service leaves one after its first start with nothing written yet. For tests whose
 * subject is not that first start: the processes they run skip initdb and the migrations.
 */
export function copyMigratedDataDir(dataDir: string): string {
  cpSync(inject('pgliteDataDir'), dataDir, { recursive: true });
  return dataDir;
}
