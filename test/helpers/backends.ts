import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { dropSchema, postgresAvailable, postgresUrl, uniqueSchema } from './services.ts';
import { openEmbeddedStorage } from './embedded-storage.ts';

/** A PostgreSQL storage (server or PGlite): the port, and the `db` its change listener hears. */
export type TestStorage = Awaited<ReturnType<typeof createPostgresStorage>>;

export interface StorageBackend {
  name: string;
  /** A fresh, empty store. */
  open(): Promise<TestStorage & { dispose(): Promise<void> }>;
}

const pglite: StorageBackend = {
  name: 'pglite',
  async open() {
    const storage = await openEmbeddedStorage();
    return Object.assign(storage, { dispose: () => storage.close() });
  },
};

const postgres: StorageBackend = {
  name: 'postgresql',
  async open() {
    const schema = uniqueSchema();
    const storage = await createPostgresStorage({ url: postgresUrl, schema, poolSize: 20 });
    return Object.assign(storage, {
      async dispose() {
        await storage.close();
        await dropSchema(schema);
      },
    });
  },
};

/**
 * The storage backends integration suites run against: embedded PGlite always, the real
 * PostgreSQL when it answers (and required when REQUIRE_SERVICES=1).
 */
export async function storageBackends(): Promise<StorageBackend[]> {
  return (await postgresAvailable()) ? [pglite, postgres] : [pglite];
}
