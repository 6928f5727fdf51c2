import type { CryptoSettlementRecord, MerchantRecord } from '../domain/merchants/records.ts';

/** Storage records → wire shapes. One place, so every endpoint answers a merchant the same way. */
export const merchantSummary = (m: MerchantRecord) => ({
  id: m.id,
  name: m.name,
  email: m.email,
  status: m.status,
  createdAt: m.createdAt.toISOString(),
});

export const merchantView = (m: MerchantRecord) => ({ ...merchantSummary(m), iconUrl: m.iconUrl });

export const settlementView = (s: CryptoSettlementRecord) => ({ id: s.id, asset: s.asset, destination: s.destination });
