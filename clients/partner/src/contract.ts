/**
 * The contract this client speaks: the openapi-typescript output of the newest API version (a
 * superset of the older ones), copied from the root `generated/types` by `scripts/sync-types.ts`.
 * Friendly names for the shapes partners handle most live here so callers need not index
 * `components['schemas']` themselves.
 */
import type { components, operations, paths } from './generated/2026-11-27.ts';
import type { SpecVersion } from './generated/versions.ts';

export type { components, operations, paths };

/** API versions this client knows; `Svc-Version` pins one per request (the partner's default otherwise). */
export type ApiVersion = SpecVersion;

type Schemas = components['schemas'];
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

export type Merchant = Schemas['Merchant'];
export type MerchantSummary = Schemas['MerchantSummary'];
export type MerchantWithSettlements = Schemas['MerchantWithSettlements'];
export type MerchantList = Schemas['MerchantList'];
export type MerchantStatus = Schemas['MerchantStatus'];
/** `iconUrl` is optional on the wire (default null); the generated type marks it required because of its default. */
export type CreateMerchantInput = Omit<Schemas['CreateMerchantRequest'], 'iconUrl'> & { iconUrl?: string | null };
export type UpdateMerchantInput = Schemas['UpdateMerchantRequest'];
export type ListMerchantsQuery = Query<'listMerchants'>;

export type CryptoSettlement = Schemas['CryptoSettlement'];
export type CryptoSettlementInput = Schemas['CryptoSettlementInput'];
export type SettlementList = Schemas['SettlementList'];

export type Payment = Schemas['Payment'];
export type PaymentList = Schemas['PaymentList'];
export type PaymentStatus = Schemas['PaymentStatus'];
export type PaymentStatusResponse = Schemas['PaymentStatusResponse'];
export type CreatePaymentInput = Schemas['CreatePaymentRequest'];
export type CreatePaymentResponse = Schemas['CreatePaymentResponse'];
export type CancelPaymentResponse = Schemas['CancelPaymentResponse'];
export type ListPaymentsQuery = Query<'listPayments'>;
export type ListMerchantPaymentsQuery = Query<'listMerchantPayments'>;

export type Refund = Schemas['Refund'];
export type ValidationIssue = Schemas['ValidationIssue'];

/** An item removed by a soft or hard delete; deleting again answers the same. */
export interface Deleted {
  id: string;
  deleted: true;
}
