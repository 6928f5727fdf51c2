import { isPaymentId } from '../links/payment-id.ts';
import type { WalletRpcAction } from './actions.ts';
import { readCancel, readFetchedActions, readOptions, readStatus, readSummary } from './read-responses.ts';
import { retryPolicy, type RetryOptions } from './retry.ts';
import { sendRequest, type FetchLike, type GatewayAuth, type RequestSpec } from './transport.ts';
import type { CancelResult, ConfirmRequest, PaymentOptions, PaymentStatusResult, PaymentSummary } from './types.ts';
import { waitForFinalStatus, type WaitOptions } from './wait-for-final.ts';

export type GatewayClientConfig = { baseUrl: string } & GatewayAuth;

export interface GatewayClientOptions {
  /** Defaults to the global `fetch` (Node 18+, browsers, React Native). */
  fetch?: FetchLike;
  /** Pins the service version (`Svc-Version`), e.g. `2026-02-18`. */
  version?: string;
  retry?: RetryOptions;
  /** Clock used by `waitForFinal` timeouts; defaults to Date.now. */
  now?: () => number;
}

export interface GatewayClient {
  getPayment(paymentId: string): Promise<PaymentSummary>;
  getOptions(paymentId: string, request: { accounts: string[]; includePaymentInfo?: boolean; refresh?: string[] }): Promise<PaymentOptions>;
  fetchAction(paymentId: string, request: { optionId: string; data: string }): Promise<WalletRpcAction[]>;
  confirm(paymentId: string, request: ConfirmRequest, options?: { maxPollMs?: number }): Promise<PaymentStatusResult>;
  /** `maxPollMs` long-polls: the service answers when the status changes, or after that long (30 s at most). */
  getStatus(paymentId: string, options?: { maxPollMs?: number; signal?: AbortSignal }): Promise<PaymentStatusResult>;
  cancel(paymentId: string): Promise<CancelResult>;
  waitForFinal(paymentId: string, options?: WaitOptions): Promise<PaymentStatusResult>;
}

/**
 * Creates a client for the wallet-side gateway calls. Authentication is either a wallet
 * `apiKey`, a public `appId` with a `clientId`, or `paymentPage: true` for the hosted page's
 * own routes (base URL `{payBaseUrl}/_wallet`), which need no key. All calls share the interface's retry rule
 * and raise `GatewayError` / `PaymentExpiredError` / `GatewayNetworkError`.
 */
export function createGatewayClient(config: GatewayClientConfig, options: GatewayClientOptions = {}): GatewayClient {
  const fetchImpl = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
  const retry = retryPolicy(options.retry);
  const transport = {
    baseUrl: config.baseUrl,
    auth: authOf(config),
    fetch: fetchImpl,
    retry,
    ...(options.version !== undefined ? { version: options.version } : {}),
  };
  const call = (spec: RequestSpec): Promise<unknown> => sendRequest(transport, spec);
  const path = (paymentId: string, suffix = ''): string => `v1/gateway/payment/${encodeURIComponent(requireId(paymentId))}${suffix}`;

  const client: GatewayClient = {
    async getPayment(paymentId) {
      return readSummary(await call({ method: 'GET', path: path(paymentId) }));
    },
    async getOptions(paymentId, request) {
      const body: Record<string, unknown> = { accounts: request.accounts };
      if (request.refresh !== undefined) body.refresh = request.refresh;
      const query = request.includePaymentInfo === undefined ? {} : { includePaymentInfo: request.includePaymentInfo };
      return readOptions(await call({ method: 'POST', path: path(paymentId, '/options'), query, body }));
    },
    async fetchAction(paymentId, request) {
      const body = { optionId: request.optionId, data: request.data };
      return readFetchedActions(await call({ method: 'POST', path: path(paymentId, '/fetch'), body }));
    },
    async confirm(paymentId, request, confirmOptions = {}) {
      const body: Record<string, unknown> = { optionId: request.optionId, results: request.results };
      if (request.collectedData !== undefined) body.collectedData = request.collectedData;
      const query = { maxPollMs: confirmOptions.maxPollMs };
      return readStatus(await call({ method: 'POST', path: path(paymentId, '/confirm'), query, body }));
    },
    async getStatus(paymentId, statusOptions = {}) {
      const spec: RequestSpec = { method: 'GET', path: path(paymentId, '/status'), query: { maxPollMs: statusOptions.maxPollMs } };
      if (statusOptions.signal) spec.signal = statusOptions.signal;
      return readStatus(await call(spec));
    },
    async cancel(paymentId) {
      return readCancel(await call({ method: 'POST', path: path(paymentId, '/cancel'), body: {} }));
    },
    waitForFinal(paymentId, waitOptions = {}) {
      return waitForFinalStatus((request) => client.getStatus(paymentId, request), {
        sleep: retry.sleep,
        now: options.now ?? Date.now,
        ...waitOptions,
      });
    },
  };
  return client;
}

function authOf(config: GatewayClientConfig): GatewayAuth {
  if ('apiKey' in config) return { apiKey: config.apiKey };
  if ('appId' in config) return { appId: config.appId, clientId: config.clientId };
  return { paymentPage: true };
}

function requireId(paymentId: string): string {
  if (!isPaymentId(paymentId)) throw new TypeError(`not a payment id: ${JSON.stringify(paymentId)}`);
  return paymentId;
}
