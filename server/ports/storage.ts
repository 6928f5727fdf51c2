import type { DataCollectionConfig } from '../domain/collect-data/schema.ts';
import type { PaymentPrice } from '../domain/payments/price.ts';

/**
 * The storage port. Each method is one atomic unit of work; no connection or transaction type
 * crosses it, so an adapter (PostgreSQL, PGlite, MongoDB) owns how atomicity is achieved.
 * Every read and write of partner data takes the partner id: tenancy is enforced in the query,
 * not by callers remembering to filter.
 */
/** partner: partner operations; wallet: gateway operations (secret); app: gateway operations (public id + Client-Id). */
export type KeyScope = 'partner' | 'wallet' | 'app';
export type MerchantStatus = 'active' | 'inactive' | 'suspended';

export interface PartnerRecord {
  id: string;
  name: string;
  /** The API version used when a request does not pin one. */
  defaultVersion: string;
  createdAt: Date;
  /** Shown as the wallet app (`buyer.accountProviderIcon`) on payments its wallet keys confirm; absent: none. */
  iconUrl?: string | null;
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
  /** Which payments ask the buyer for data (collectData); absent or null: none. */
  dataCollection?: DataCollectionConfig | null;
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
  dataCollection?: DataCollectionConfig | null;
}

export interface MerchantRepository {
  create(merchant: MerchantRecord, idempotency?: IdempotencyCompletion): Promise<void>;
  /** A merchant of this partner; deleted ones only when asked. */
  get(partnerId: string, id: string, opts?: { includeDeleted?: boolean }): Promise<MerchantRecord | null>;
  /** Null when no live merchant of this partner has the id. */
  update(partnerId: string, id: string, patch: MerchantPatch): Promise<MerchantRecord | null>;
  /** Marks the merchant deleted and inactive; repeatable. Null when the partner has no such merchant. */
  softDelete(partnerId: string, id: string, at: Date): Promise<MerchantRecord | null>;
  /** Several merchants of this partner by id, deleted ones included (for showing past payments). */
  getMany(partnerId: string, ids: string[]): Promise<MerchantRecord[]>;
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
  /**
   * Deletes at most `limit` keys created before `before` (a bounded batch, so a purge never holds
   * the table long); answers how many. Safe to run from several processes at once.
   */
  purgeCreatedBeforeBatch(before: Date, limit: number): Promise<number>;
}

export type PaymentStatus = 'requires_action' | 'processing' | 'succeeded' | 'failed' | 'expired' | 'cancelled';

export interface PaymentRecord {
  id: string;
  partnerId: string;
  merchantId: string;
  referenceId: string;
  /** What the buyer owes: a fiat price, or a token price paid exactly in that token. */
  price: PaymentPrice;
  status: PaymentStatus;
  /** Grows by one with every state change. */
  stateVersion: number;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  checkout: { successUrl: string; errorUrl: string } | null;
  failureCode: string | null;
  cancelledReason: string | null;
  cancelledAt: Date | null;
  refundedAt: Date | null;
  /** What the buyer chose and paid with, once known. */
  optionId: string | null;
  buyerAccount: string | null;
  /** The wallet app that confirmed the payment (the name and icon of its gateway key's account). */
  buyerProviderName?: string | null;
  buyerProviderIcon?: string | null;
  /** CAIP-19 asset paid in. */
  asset: string | null;
  /** Base units of asset. */
  tokenValue: bigint | null;
  /** CAIP-2 chain. */
  network: string | null;
  txId: string | null;
  succeededAt: Date | null;
}

/** Something that happened to a payment, with a full snapshot (the webhook `data`). */
export interface PaymentEventRecord {
  id: string;
  paymentId: string;
  partnerId: string;
  type: string;
  stateVersion: number;
  createdAt: Date;
  data: unknown;
}

/** A job to write to the outbox with a change. */
export interface NewJob {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  runAt: Date;
}

/** Fields a transition may set besides the status. */
export type PaymentPatch = Partial<
  Pick<PaymentRecord, 'failureCode' | 'cancelledReason' | 'cancelledAt' | 'optionId' | 'buyerAccount' | 'buyerProviderName' | 'buyerProviderIcon' | 'asset' | 'tokenValue' | 'network' | 'txId' | 'succeededAt'>
>;

export interface PaymentTransition {
  /** Apply only if the payment is in one of these states. */
  from: PaymentStatus[];
  to: PaymentStatus;
  patch: PaymentPatch;
  at: Date;
  /** The event announcing the change, built from the updated payment. */
  event: { id: string; type: string; snapshot(p: PaymentRecord): unknown };
  jobs?: NewJob[];
}

/** The created event: its data built by the domain from the payment and its merchant, as stored. */
export interface CreatedPaymentEvent {
  id: string;
  type: string;
  snapshot(p: PaymentRecord, merchant: MerchantRecord): unknown;
}

export type CreatePaymentResult = { ok: true } | { ok: false; reason: 'merchant_not_found' | 'merchant_deleted' | 'merchant_not_payable' };

export interface PaymentListQuery {
  merchantIds?: string[];
  statuses?: PaymentStatus[];
  createdFrom?: Date;
  createdBefore?: Date;
  /** Paid on one of these CAIP-2 chains. */
  networks?: string[];
  /** Paid in one of these CAIP-19 assets; an empty list matches nothing. */
  assets?: string[];
  /** The merchant's reference contains this, in any letter case. */
  referenceId?: string;
  sortBy: 'date' | 'amount';
  sortDir: 'asc' | 'desc';
  /** Keyset position: the last row of the previous page. */
  /** `fiatValue`: the price's value in its unit's smallest units (what `amount` sorts by). */
  after?: { id: string; fiatValue?: bigint };
  limit: number;
}

export interface PaymentStatsRecord {
  /** Per fiat currency; payments priced in a token have no fiat price and are not in it. */
  revenue: Array<{ currency: string; minor: bigint }>;
  transactions: number;
  customers: number;
}

/** A payment option as quoted to a wallet. */
export interface QuoteRecord {
  optionId: string;
  paymentId: string;
  /** The buyer's CAIP-10 account. */
  account: string;
  /** CAIP-19 asset. */
  asset: string;
  /** Base units of the asset. */
  amount: bigint;
  /** The merchant's CAIP-10 destination at quote time. */
  destination: string;
  deadline: Date;
  /** The chain adapter's record of what was prepared (typed data, transaction, flow). */
  state: Record<string, unknown>;
  createdAt: Date;
  /** This option needs buyer data before confirm (the merchant's dataCollection at quote time). */
  collectData?: boolean;
  /** The buyer data given for this option, once given (page or confirm). */
  collected?: CollectedRecord | null;
}

/** Buyer data of one option, valid against the collect schema, and when the terms were accepted. */
export interface CollectedRecord {
  data: Record<string, string | boolean>;
  termsAcceptedAt: Date;
  at: Date;
}

export interface PaymentRepository {
  saveQuotes(quotes: QuoteRecord[]): Promise<void>;
  getQuote(paymentId: string, optionId: string): Promise<QuoteRecord | null>;
  updateQuoteState(optionId: string, state: Record<string, unknown>, deadline: Date): Promise<void>;
  /** The payment's quotes whose deadline is after `deadlineAfter`: what options may offer again instead of quoting anew. */
  liveQuotes(paymentId: string, deadlineAfter: Date): Promise<QuoteRecord[]>;
  /**
   * Deletes at most `limit` quotes whose deadline is before `deadlineBefore`, keeping every quote
   * a payment has chosen (`optionId`) and every quote of a processing payment; answers how many.
   * Safe to run from several processes at once.
   */
  purgeExpiredQuotes(deadlineBefore: Date, limit: number): Promise<number>;
  /** Stores the buyer data of one option of this payment (replacing earlier data); false when there is no such option. */
  saveCollected(paymentId: string, optionId: string, collected: CollectedRecord): Promise<boolean>;
  /** Records the transaction of a processing payment once; false when another is already recorded. */
  recordTxId(id: string, txId: string, at: Date): Promise<boolean>;
  // -- Relayer transactions (EVM gasless flows): recorded before they are broadcast. --
  /**
   * Records the relayer transaction of a processing payment, hash and signed bytes, in place of
   * `replaces` (the tx id recorded now; null when none is). False, writing nothing, when the
   * payment is not processing or another transaction is recorded than `replaces`.
   */
  recordRelayerTx(id: string, tx: { txId: string; rawTx: string }, replaces: string | null, at: Date): Promise<boolean>;
  /** The relayer transaction recorded for the payment's current tx id; null when none. */
  getRelayerTx(id: string): Promise<{ txId: string; rawTx: string } | null>;
  // -- end relayer transactions --
  /**
   * One atomic unit: the payment (only if the merchant is the partner's, live and has a crypto
   * settlement; for a token price, a settlement in that very asset, else `merchant_not_payable`),
   * its created event, its jobs, and the idempotent answer. The event's data is what
   * `event.snapshot` builds from the payment and the merchant as the unit read it; the event takes
   * the payment's partner, state version and creation time. An adapter may share the round trip
   * and the commit with creates made at the same time, never the outcome.
   */
  create(payment: PaymentRecord, extras: { event: CreatedPaymentEvent; jobs: NewJob[]; idempotency?: IdempotencyCompletion }): Promise<CreatePaymentResult>;
  /** By id alone: the gateway side, where a wallet knows only the payment id. */
  get(id: string): Promise<PaymentRecord | null>;
  /**
   * By id alone, with its merchant (deleted or not) and the merchant's settlements in id order:
   * everything quoting options needs, in one round trip.
   */
  getForGateway(id: string): Promise<{ payment: PaymentRecord; merchant: MerchantRecord | null; settlements: CryptoSettlementRecord[] } | null>;
  /** By id, within one partner (and merchant, when given). */
  getForPartner(partnerId: string, id: string, merchantId?: string): Promise<PaymentRecord | null>;
  /**
   * Applies the transition if the payment is still in one of `from`, with its event and jobs, in
   * one unit. When it is not, nothing is written and the current payment is returned.
   */
  transition(id: string, t: PaymentTransition): Promise<{ ok: true; payment: PaymentRecord } | { ok: false; current: PaymentRecord | null; duplicateTxId?: boolean }>;
  /** Marks a succeeded payment refunded once, with its event. */
  markRefunded(partnerId: string, merchantId: string, id: string, at: Date, event: { id: string; snapshot(p: PaymentRecord): unknown }): Promise<{ ok: true; payment: PaymentRecord } | { ok: false; current: PaymentRecord | null }>;
  list(partnerId: string, q: PaymentListQuery): Promise<PaymentRecord[]>;
  stats(partnerId: string, q: PaymentListQuery): Promise<PaymentStatsRecord>;
  /** A payment's events in order (webhooks, audit). */
  events(paymentId: string): Promise<PaymentEventRecord[]>;
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

/** A partner's webhook receiver. `secret` signs deliveries; after a rotation `previousSecret` signs beside it until it expires. */
export interface WebhookEndpointRecord {
  id: string;
  partnerId: string;
  url: string;
  enabledEvents: string[];
  enabled: boolean;
  /** Set when the service turned the endpoint off (`gone`: the receiver answered 410). */
  disabledReason: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export type WebhookEndpointPatch = Partial<Pick<WebhookEndpointRecord, 'url' | 'enabledEvents' | 'enabled' | 'disabledReason' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>> & { updatedAt: Date };

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookAttemptRecord {
  attempt: number;
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** One event to one endpoint; `body` is the exact envelope every attempt posts. */
export interface WebhookDeliveryRecord {
  id: string;
  endpointId: string;
  partnerId: string;
  eventId: string;
  eventType: string;
  body: string;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  lastStatusCode: number | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
  attempts: WebhookAttemptRecord[];
}

/** A delivery to write (pending, not yet attempted). */
export type NewWebhookDelivery = Omit<WebhookDeliveryRecord, 'status' | 'attemptCount' | 'lastStatusCode' | 'nextAttemptAt' | 'deliveredAt' | 'attempts'>;

/** Deliveries and the outbox jobs that send them, written together. */
export interface WebhookDeliveryPlan {
  deliveries: NewWebhookDelivery[];
  jobs: NewJob[];
}

/** An undispatched event with the endpoints of its partner subscribed to its type. */
export interface WebhookDispatchItem {
  event: PaymentEventRecord;
  /** The partner's pinned API version (the envelope's `api_version`). */
  apiVersion: string;
  endpointIds: string[];
}

export interface WebhookRepository {
  createEndpoint(endpoint: WebhookEndpointRecord): Promise<void>;
  /**
   * Creates the endpoint unless its partner already has `limit` live (not deleted) ones; false,
   * with nothing written, when it has. Concurrent creates for one partner cannot overshoot.
   */
  createEndpointWithinLimit(endpoint: WebhookEndpointRecord, limit: number): Promise<boolean>;
  /** The partner's live endpoints, newest first. */
  listEndpoints(partnerId: string): Promise<WebhookEndpointRecord[]>;
  /** A live endpoint of this partner. */
  getEndpoint(partnerId: string, id: string): Promise<WebhookEndpointRecord | null>;
  /** By id alone, deleted ones included: the delivery side. */
  getEndpointById(id: string): Promise<WebhookEndpointRecord | null>;
  updateEndpoint(partnerId: string, id: string, patch: WebhookEndpointPatch): Promise<WebhookEndpointRecord | null>;
  /** True when a live endpoint was deleted by this call. */
  deleteEndpoint(partnerId: string, id: string, at: Date): Promise<boolean>;
  /**
   * One unit: claims up to `limit` undispatched payment events (disjoint across processes), writes
   * the deliveries and jobs `plan` makes of them (jobs created at `now`), and marks the events
   * dispatched. Answers how many events and deliveries it wrote.
   */
  dispatchPending(limit: number, now: Date, plan: (items: WebhookDispatchItem[]) => WebhookDeliveryPlan): Promise<{ events: number; deliveries: number }>;
  /** A delivery and the job that sends it, in one unit (redelivery, test events); the job is created with the delivery. */
  createDelivery(delivery: NewWebhookDelivery, job: NewJob): Promise<void>;
  /** One of the partner's payment events. */
  getEvent(partnerId: string, eventId: string): Promise<PaymentEventRecord | null>;
  getDelivery(id: string): Promise<WebhookDeliveryRecord | null>;
  /**
   * Records an attempt and the delivery's new state, in one unit; false (nothing written) when the
   * delivery is no longer pending or this attempt number is already recorded.
   */
  recordAttempt(deliveryId: string, attempt: WebhookAttemptRecord, next: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null }): Promise<boolean>;
  /** An endpoint's deliveries, newest first, with their attempts. */
  listDeliveries(partnerId: string, endpointId: string, q: { beforeId?: string; limit: number }): Promise<WebhookDeliveryRecord[]>;
}

export interface StoragePort {
  partners: PartnerRepository;
  apiKeys: ApiKeyRepository;
  merchants: MerchantRepository;
  settlements: SettlementRepository;
  idempotency: IdempotencyRepository;
  jobs: JobRepository;
  payments: PaymentRepository;
  webhooks: WebhookRepository;
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
