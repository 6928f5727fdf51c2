import type { ApiKeyRepository } from './api-keys.ts';
import type { AuditLogRepository } from './audit-log.ts';
import type { FeeSpendingRepository } from './fee-spending.ts';
import type { IdempotencyRepository } from './idempotency.ts';
import type { JobRepository } from './jobs.ts';
import type { MerchantRepository } from './merchants.ts';
import type { PartnerRepository } from './partners.ts';
import type { PaymentRepository } from './payments.ts';
import type { QuoteRepository } from './quotes.ts';
import type { RelayerNonces } from './relayer-nonces.ts';
import type { SessionRepository } from './sessions.ts';
import type { SettlementRepository } from './settlements.ts';
import type { UserRepository } from './users.ts';
import type { WebhookRepository } from './webhooks.ts';

/**
 * The storage port: one repository per kind of record. Each method is one atomic unit of work; no
 * connection or transaction type crosses it, so an adapter (PostgreSQL, PGlite, MongoDB) owns how
 * atomicity is achieved. Every read and write of partner data takes the partner id: tenancy is
 * enforced in the query, not by callers remembering to filter. Records are domain types
 * (server/domain/**); the port only says what may be done with them.
 */
export interface StoragePort {
  partners: PartnerRepository;
  apiKeys: ApiKeyRepository;
  merchants: MerchantRepository;
  settlements: SettlementRepository;
  idempotency: IdempotencyRepository;
  payments: PaymentRepository;
  quotes: QuoteRepository;
  jobs: JobRepository;
  webhooks: WebhookRepository;
  /** Dashboard users, their sessions, and the audit log. */
  users: UserRepository;
  sessions: SessionRepository;
  auditLog: AuditLogRepository;
  /** What the shared fee accounts spent for each partner's payments. */
  feeSpending: FeeSpendingRepository;
  /** The EVM relayer's nonces, given in the transaction that records each signed transaction (migration 029). */
  relayerNonces: RelayerNonces;
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  /** The connection pool's use now, for metrics: connections open and idle, and queries waiting for one; null for an engine without a pool (embedded). */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /** Releases the store's connections; after it, every call fails. Repeatable: later calls wait for the first. */
  close(): Promise<void>;
}
