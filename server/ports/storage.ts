/**
 * The storage port. Each method is one atomic unit of work; no connection or transaction type
 * crosses it, so an adapter (PostgreSQL, PGlite, MongoDB) owns how atomicity is achieved.
 * Every read and write of partner data takes the partner id: tenancy is enforced in the query,
 * not by callers remembering to filter.
 */
export type KeyScope = 'partner' | 'wallet';
export type MerchantStatus = 'active' | 'inactive' | 'suspended';

export interface PartnerRecord {
  id: string;
  name: string;
  /** The API version used when a request does not pin one. */
  defaultVersion: string;
  createdAt: Date;
}

export interface ApiKeyRecord {
  id: string;
  partnerId: string;
  scope: KeyScope;
  /** SHA-256 of the key, hex. The key itself is never stored. */
  keyHash: string;
  /** The last characters of the key, to tell keys apart in listings. */
  hint: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface MerchantRecord {
  id: string;
  partnerId: string;
  name: string;
  email: string | null;
  iconUrl: string | null;
  status: MerchantStatus;
  createdAt: Date;
  deletedAt: Date | null;
}

export interface CryptoSettlementRecord {
  id: string;
  partnerId: string;
  merchantId: string;
  /** CAIP-19 asset id. */
  asset: string;
  /** CAIP-10 account id on the asset's chain. */
  destination: string;
  createdAt: Date;
}

/** The answer stored with an idempotency key, written in the same unit as the resource. */
export interface IdempotencyCompletion {
  partnerId: string;
  key: string;
  statusCode: number;
  body: unknown;
}

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; statusCode: number; body: unknown }
  | { kind: 'conflict' }
  | { kind: 'in_progress' };

export interface PartnerRepository {
  create(partner: PartnerRecord): Promise<void>;
  get(id: string): Promise<PartnerRecord | null>;
  count(): Promise<number>;
}

export interface ApiKeyRepository {
  create(key: ApiKeyRecord): Promise<void>;
  /** The active (not revoked) key with this hash, with its partner. */
  findActiveByHash(keyHash: string): Promise<{ key: ApiKeyRecord; partner: PartnerRecord } | null>;
  listByPartner(partnerId: string): Promise<ApiKeyRecord[]>;
  /** True when a key was revoked by this call. */
  revoke(id: string, at: Date): Promise<boolean>;
}

export interface MerchantListQuery {
  status?: MerchantStatus;
  search?: string;
  /** Return merchants created before this id (keyset pagination, newest first). */
  beforeId?: string;
  limit: number;
}

export interface MerchantPatch {
  name?: string;
  email?: string;
  iconUrl?: string | null;
}

export interface MerchantRepository {
  create(merchant: MerchantRecord, idempotency?: IdempotencyCompletion): Promise<void>;
  /** A merchant of this partner; deleted ones only when asked. */
  get(partnerId: string, id: string, opts?: { includeDeleted?: boolean }): Promise<MerchantRecord | null>;
  /** Null when no live merchant of this partner has the id. */
  update(partnerId: string, id: string, patch: MerchantPatch): Promise<MerchantRecord | null>;
  /** Marks the merchant deleted and inactive; repeatable. Null when the partner has no such merchant. */
  softDelete(partnerId: string, id: string, at: Date): Promise<MerchantRecord | null>;
  /** Live merchants, newest first, with the count of all matches. */
  list(partnerId: string, query: MerchantListQuery): Promise<{ items: MerchantRecord[]; totalCount: number }>;
}

export type CreateSettlementsResult = { ok: true } | { ok: false; reason: 'merchant_not_found' } | { ok: false; reason: 'asset_conflict'; asset: string };

export interface SettlementRepository {
  /** All or nothing: any asset already registered for the merchant rejects the whole batch. */
  createMany(partnerId: string, merchantId: string, items: CryptoSettlementRecord[], idempotency?: IdempotencyCompletion): Promise<CreateSettlementsResult>;
  listByMerchant(partnerId: string, merchantId: string): Promise<CryptoSettlementRecord[]>;
  get(partnerId: string, merchantId: string, id: string): Promise<CryptoSettlementRecord | null>;
  updateDestination(partnerId: string, merchantId: string, id: string, destination: string): Promise<CryptoSettlementRecord | null>;
  /** True when a settlement was removed by this call. */
  delete(partnerId: string, merchantId: string, id: string): Promise<boolean>;
}

export interface IdempotencyRepository {
  /**
   * Claims `key` for a request with this hash. A claim left by a request that died (older than
   * `staleAfterMs`) is taken over: its work was never committed, since completion is atomic
   * with the resource it created.
   */
  claim(partnerId: string, key: string, requestHash: string, now: Date, staleAfterMs: number): Promise<IdempotencyClaim>;
  /** Stores the answer when the handler's own write could not carry it. */
  complete(completion: IdempotencyCompletion): Promise<void>;
  /** Forgets an uncompleted claim, so a failed request stores nothing and the key can be reused. */
  release(partnerId: string, key: string): Promise<void>;
  /** Deletes keys created before `before`; answers how many. */
  purgeCreatedBefore(before: Date): Promise<number>;
}

/** An outbox job as stored. */
export interface JobRecord {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  runAt: Date;
  createdAt: Date;
  relayedAt: Date | null;
  completedAt: Date | null;
  attempts: number;
  lastError: string | null;
}

export interface JobRepository {
  /** Writes jobs on their own (jobs that go with a state change are written by that change's unit). */
  insert(jobs: Array<Pick<JobRecord, 'id' | 'type' | 'payload' | 'runAt' | 'createdAt'>>): Promise<void>;
  /**
   * Up to `limit` jobs not yet handed to the queue, oldest first. Concurrent relays (several
   * processes) get disjoint sets.
   */
  claimUnrelayed(limit: number, now: Date): Promise<JobRecord[]>;
  markRelayed(ids: string[], at: Date): Promise<void>;
  get(id: string): Promise<JobRecord | null>;
  /** Marks the job done; false when it already was, so a duplicate delivery does nothing. */
  markCompleted(id: string, at: Date): Promise<boolean>;
  recordFailure(id: string, error: string): Promise<void>;
  /** Makes every unfinished job relayable again: for a queue that lost its memory (inline, at start). */
  requeueUnfinished(): Promise<number>;
}

export interface StoragePort {
  partners: PartnerRepository;
  apiKeys: ApiKeyRepository;
  merchants: MerchantRepository;
  settlements: SettlementRepository;
  idempotency: IdempotencyRepository;
  jobs: JobRepository;
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
