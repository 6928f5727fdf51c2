import { createRelayerNonceLedger } from './relayer-nonces.ts';
import type { StoragePort } from '../../../server/ports/storage/index.ts';
import { createIdempotencyRepository } from './idempotency.ts';
import { createJobRepository } from './jobs.ts';
import { createMerchantRepository } from './merchants.ts';
import { migrate } from './migrate.ts';
import { createApiKeyRepository, createPartnerRepository } from './partners.ts';
import { createSettlementRepository } from './settlements.ts';
import { createPaymentRepository } from './payments.ts';
import { createQuoteRepository } from './quotes.ts';
import { createWebhookRepository } from './webhooks.ts';
import { createSessionRepository, createUserRepository } from './users.ts';
import { createAuditLogRepository } from './audit-log.ts';
import { createFeeSpendingRepository } from './fee-spending.ts';
import { createPgDb, createPgliteDb, type SqlDb } from './sql-db.ts';

export type PostgresStorageOptions =
  /** A PostgreSQL server; `schema` isolates tests that share one database. */
  | { url: string; schema?: string; poolSize?: number }
  /**
   * Embedded PGlite; a directory to persist, or omitted for memory only. Memory only may start from
   * `loadDataDir`, a dump of a database (PGlite's `dumpDataDir`); migrations still run on it.
   */
  | { embedded: true; dataDir?: string; loadDataDir?: Blob };

/**
 * PostgreSQL storage, on a server or embedded. Migrations are applied before it is returned, so
 * a started process never sees an older schema.
 */
export async function createPostgresStorage(opts: PostgresStorageOptions): Promise<StoragePort & { db: SqlDb }> {
  let db: SqlDb;
  if ('url' in opts) {
    if (!/^postgres(ql)?:\/\//.test(opts.url)) throw new Error('storage: url must start with postgres:// or postgresql://');
    if (opts.schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(opts.schema)) throw new Error('storage: schema must be a lower-case identifier');
    db = createPgDb({ url: opts.url, ...(opts.schema ? { schema: opts.schema } : {}), ...(opts.poolSize ? { max: opts.poolSize } : {}) });
    if (opts.schema) await db.exec(`CREATE SCHEMA IF NOT EXISTS ${opts.schema}`);
  } else {
    db = await createPgliteDb({ ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  }
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  // Shutdown paths may overlap (a signal during a failed start): every close waits for the first.
  let closed: Promise<void> | undefined;
  return {
    db,
    partners: createPartnerRepository(db),
    apiKeys: createApiKeyRepository(db),
    merchants: createMerchantRepository(db),
    settlements: createSettlementRepository(db),
    idempotency: createIdempotencyRepository(db),
    payments: createPaymentRepository(db),
    quotes: createQuoteRepository(db),
    jobs: createJobRepository(db),
    webhooks: createWebhookRepository(db),
    users: createUserRepository(db),
    sessions: createSessionRepository(db),
    auditLog: createAuditLogRepository(db),
    feeSpending: createFeeSpendingRepository(db),
    relayerNonces: createRelayerNonceLedger(db),
    async ping() {
      await db.query('SELECT 1');
    },
    poolStats: () => db.poolStats(),
    close: () => (closed ??= db.close()),
  };
}
