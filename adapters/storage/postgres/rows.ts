import type { ApiKeyRecord, CryptoSettlementRecord, KeyScope, MerchantRecord, MerchantStatus, PartnerRecord } from '../../../server/ports/storage.ts';

/** Column names as the SQL returns them, mapped once to the port's records. */
type Row = Record<string, unknown>;

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
const str = (v: unknown): string => String(v);
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export function toPartner(r: Row): PartnerRecord {
  return { id: str(r.id), name: str(r.name), defaultVersion: str(r.default_version), createdAt: date(r.created_at) };
}

export function toApiKey(r: Row): ApiKeyRecord {
  return {
    id: str(r.id),
    partnerId: str(r.partner_id),
    scope: str(r.scope) as KeyScope,
    keyHash: str(r.key_hash),
    hint: str(r.hint),
    createdAt: date(r.created_at),
    revokedAt: dateOrNull(r.revoked_at),
  };
}

export function toMerchant(r: Row): MerchantRecord {
  return {
    id: str(r.id),
    partnerId: str(r.partner_id),
    name: str(r.name),
    email: strOrNull(r.email),
    iconUrl: strOrNull(r.icon_url),
    status: str(r.status) as MerchantStatus,
    createdAt: date(r.created_at),
    deletedAt: dateOrNull(r.deleted_at),
  };
}

export function toSettlement(r: Row): CryptoSettlementRecord {
  return {
    id: str(r.id),
    partnerId: str(r.partner_id),
    merchantId: str(r.merchant_id),
    asset: str(r.asset),
    destination: str(r.destination),
    createdAt: date(r.created_at),
  };
}
