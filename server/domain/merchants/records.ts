/** Merchants of a partner and where their crypto settles. */
import type { DataCollectionConfig } from '../collect-data/schema.ts';

export type MerchantStatus = 'active' | 'inactive' | 'suspended';

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

/** Fields an update may change; absent ones stay, null clears. */
export interface MerchantPatch {
  name?: string;
  email?: string;
  iconUrl?: string | null;
  dataCollection?: DataCollectionConfig | null;
}

export interface MerchantListQuery {
  status?: MerchantStatus;
  search?: string;
  /** Return merchants created before this id (keyset pagination, newest first). */
  beforeId?: string;
  limit: number;
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

export type CreateSettlementsResult = { ok: true } | { ok: false; reason: 'merchant_not_found' } | { ok: false; reason: 'asset_conflict'; asset: string };
