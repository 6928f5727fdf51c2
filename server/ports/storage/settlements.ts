import type { IdempotencyCompletion } from '../../domain/idempotency/records.ts';
import type { CreateSettlementsResult, CryptoSettlementRecord } from '../../domain/merchants/records.ts';

/**
 * A merchant's crypto settlement destinations: at most one per (merchant, asset), always read and
 * written within one partner and one merchant.
 */
export interface SettlementRepository {
  /** All or nothing: any asset already registered for the merchant rejects the whole batch. */
  createMany(partnerId: string, merchantId: string, items: CryptoSettlementRecord[], idempotency?: IdempotencyCompletion): Promise<CreateSettlementsResult>;
  listByMerchant(partnerId: string, merchantId: string): Promise<CryptoSettlementRecord[]>;
  get(partnerId: string, merchantId: string, id: string): Promise<CryptoSettlementRecord | null>;
  updateDestination(partnerId: string, merchantId: string, id: string, destination: string): Promise<CryptoSettlementRecord | null>;
  /** True when a settlement was removed by this call. */
  delete(partnerId: string, merchantId: string, id: string): Promise<boolean>;
}
