import type { ApiKeyRecord, KeyPermission, KeyScope, PartnerRecord } from '../../../server/domain/partners/records.ts';
import type { CryptoSettlementRecord, MerchantRecord, MerchantStatus } from '../../../server/domain/merchants/records.ts';
import type { ExtraPayment, PaymentFinality, PaymentRecord } from '../../../server/domain/payments/records.ts';
import type { PaymentStatus } from '../../../server/domain/payments/state-machine.ts';

/** Column names as the SQL returns them, mapped once to the port's records. */
type Row = Record<string, unknown>;

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
const str = (v: unknown): string => String(v);
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : scalarText(v));

/**
 * A scalar column's text. Both engines answer text, numeric and int8 columns as string, number or
 * bigint (and timestamps as Date); anything else (a json object, bytes) is a column read by the
 * wrong mapper, which should fail loudly instead of storing "[object Object]".
 */
export function scalarText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof Date) return String(v);
  throw new TypeError(`expected a scalar column value, got ${typeof v}`);
}

export function toPartner(r: Row): PartnerRecord {
  return {
    id: str(r.id),
    name: str(r.name),
    defaultVersion: str(r.default_version),
    createdAt: date(r.created_at),
    ...(r.icon_url ? { iconUrl: str(r.icon_url) } : {}),
    ...(r.time_zone ? { timeZone: str(r.time_zone) } : {}),
  };
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
    // Only when set, so a key without them reads back exactly as it was written.
    ...(r.name ? { name: str(r.name) } : {}),
    ...(r.last_used_at ? { lastUsedAt: date(r.last_used_at) } : {}),
    ...(Array.isArray(r.allowed_origins) && r.allowed_origins.length ? { allowedOrigins: r.allowed_origins.map(str) } : {}),
    ...(Array.isArray(r.permissions) ? { permissions: r.permissions.map(str) as KeyPermission[] } : {}),
    ...(r.created_by ? { createdBy: str(r.created_by) } : {}),
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
    // Only when set, so a merchant without the setting reads back exactly as it was written.
    ...(r.data_collection
      ? { dataCollection: (typeof r.data_collection === 'string' ? JSON.parse(r.data_collection) : r.data_collection) as MerchantRecord['dataCollection'] }
      : {}),
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

const bigOrNull = (v: unknown): bigint | null => (v === null || v === undefined ? null : BigInt(scalarText(v)));

export function toPayment(r: Row): PaymentRecord {
  return {
    id: str(r.id),
    partnerId: str(r.partner_id),
    merchantId: str(r.merchant_id),
    referenceId: str(r.reference_id),
    // fiat_value holds the price in its unit's smallest units, whichever unit price_asset says.
    price: r.price_asset
      ? { kind: 'token', asset: str(r.price_asset), value: BigInt(String(r.fiat_value)) }
      : { kind: 'fiat', currency: str(r.fiat_currency), value: BigInt(String(r.fiat_value)) },
    status: str(r.status) as PaymentStatus,
    stateVersion: Number(r.state_version),
    expiresAt: date(r.expires_at),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
    checkout: r.checkout_success_url ? { successUrl: str(r.checkout_success_url), errorUrl: str(r.checkout_error_url) } : null,
    failureCode: strOrNull(r.failure_code),
    cancelledReason: strOrNull(r.cancelled_reason),
    cancelledAt: dateOrNull(r.cancelled_at),
    refundedAt: dateOrNull(r.refunded_at),
    optionId: strOrNull(r.option_id),
    buyerAccount: strOrNull(r.buyer_account),
    asset: strOrNull(r.asset),
    tokenValue: bigOrNull(r.token_value),
    network: strOrNull(r.network),
    txId: strOrNull(r.tx_id),
    succeededAt: dateOrNull(r.succeeded_at),
    // Only when known, so a payment no wallet confirmed reads back exactly as it was written.
    ...(r.buyer_provider_name ? { buyerProviderName: str(r.buyer_provider_name) } : {}),
    ...(r.buyer_provider_icon ? { buyerProviderIcon: str(r.buyer_provider_icon) } : {}),
    ...(r.finality ? { finality: str(r.finality) as PaymentFinality, finalityReason: strOrNull(r.finality_reason) } : {}),
    ...extraPaymentsOf(r.extra_payments),
  };
}

/** An extra payment as migration 024 stores it in `payments.extra_payments` (JSON: the value as a decimal string). */
export interface StoredExtraPayment {
  txId: string;
  network: string;
  asset: string;
  value: string;
  optionId: string;
  foundAt: string;
}

export const storedExtraPayment = (e: ExtraPayment): StoredExtraPayment => ({ ...e, value: e.value.toString(), foundAt: e.foundAt.toISOString() });

/** `extraPayments` when the column holds any (the drivers answer jsonb parsed or as text). */
function extraPaymentsOf(raw: unknown): { extraPayments?: ExtraPayment[] } {
  const list = (typeof raw === 'string' ? JSON.parse(raw) : raw) as StoredExtraPayment[] | null | undefined;
  if (!Array.isArray(list) || !list.length) return {};
  return { extraPayments: list.map((e) => ({ ...e, value: BigInt(e.value), foundAt: new Date(e.foundAt) })) };
}
