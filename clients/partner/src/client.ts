import createClient from 'openapi-fetch';
import type { ApiVersion, paths } from './contract.ts';
import { merchantsApi, type MerchantsApi } from './resources/merchants.ts';
import { paymentsApi, type PaymentsApi } from './resources/payments.ts';
import { refundsApi, type RefundsApi } from './resources/refunds.ts';
import { settlementsApi, type SettlementsApi } from './resources/settlements.ts';
import { retryingFetch, retryPolicy, type FetchLike, type RetryOptions } from './retry.ts';
import type { RawClient } from './unwrap.ts';

export interface PartnerClientOptions {
  /** The service's base address, e.g. `https://payments.example.com` (no `/v1`). */
  baseUrl: string;
  /** A partner key (`sk_test_…` / `sk_live_…`), sent as `Api-Key`. */
  apiKey: string;
  /** Sent as `Svc-Version` on every request; the partner's pinned version when absent. */
  version?: ApiVersion;
  /** The fetch to use (a proxy agent, a test double); global fetch by default. */
  fetch?: FetchLike;
  /** Retry tuning, or `false` to never retry. */
  retry?: RetryOptions | false;
  /** Makes the Idempotency-Key of a create call that names none; `crypto.randomUUID` by default. */
  idempotencyKey?: () => string;
}

export interface PartnerClient {
  /** The typed openapi-fetch client, for anything the helpers do not cover. Retries apply to it too. */
  raw: RawClient;
  merchants: MerchantsApi;
  settlements: SettlementsApi;
  payments: PaymentsApi;
  refunds: RefundsApi;
}

/**
 * A partner client: the typed openapi-fetch client over the generated contract plus helpers that
 * unwrap answers, throw ApiError on failures, send idempotency keys on creation and retry only
 * what is safe to repeat, as the interface's retry guidance says.
 */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  const baseFetch: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const fetch = options.retry === false ? baseFetch : retryingFetch(baseFetch, retryPolicy(options.retry));
  const headers: Record<string, string> = { 'Api-Key': options.apiKey };
  if (options.version) headers['Svc-Version'] = options.version;
  const raw = createClient<paths>({ baseUrl: options.baseUrl, headers, fetch });
  const context = { raw, newIdempotencyKey: options.idempotencyKey ?? (() => crypto.randomUUID()) };
  return {
    raw,
    merchants: merchantsApi(context),
    settlements: settlementsApi(context),
    payments: paymentsApi(context),
    refunds: refundsApi(context),
  };
}
