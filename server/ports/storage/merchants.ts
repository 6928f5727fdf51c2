import type { IdempotencyCompletion } from '../../domain/idempotency/records.ts';
import type { MerchantListQuery, MerchantPatch, MerchantRecord } from '../../domain/merchants/records.ts';

/**
 * Merchants of a partner. Every read and write takes the partner id and never sees another
 * partner's merchants; deletion is soft, so past payments still name their seller.
 */
export interface MerchantRepository {
  /** The merchant and, when given, the idempotent answer that describes it, in one unit. */
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
