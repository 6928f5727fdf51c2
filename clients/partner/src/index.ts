/**
 * @mps/partner: a typed client for the Merchant Payments Service partner API (merchants,
 * settlements, payments, refunds), built on openapi-fetch over the generated contract.
 */
export { createPartnerClient, type PartnerClient, type PartnerClientOptions } from './client.ts';
export { ApiError, WaitTimeoutError } from './errors.ts';
export { abortableSleep, backoffDelay, isSafeToRepeat, retryPolicy, type FetchLike, type RetryOptions, type RetryPolicy, type Sleep } from './retry.ts';
export type { WaitOptions } from './wait-for-final.ts';
export type { IdempotencyOptions, RawClient } from './unwrap.ts';
export type { MerchantsApi } from './resources/merchants.ts';
export type { SettlementsApi } from './resources/settlements.ts';
export type { PaymentsApi } from './resources/payments.ts';
export type { RefundsApi } from './resources/refunds.ts';
export type * from './contract.ts';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent } from './webhooks.ts';
