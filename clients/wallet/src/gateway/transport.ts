import { errorFromResponse, GatewayNetworkError, GatewayProtocolError } from './errors.ts';
import { backoffDelay, type RetryPolicy } from './retry.ts';

/**
 * Either a private wallet key, or a public app id plus a client id (both sent together), or none
 * at all for the hosted payment page: its routes are keyed by the payment id, which is the page's
 * capability already, so a page never carries a key a visitor could lift.
 */
export type GatewayAuth = { apiKey: string } | { appId: string; clientId: string } | { paymentPage: true };

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportConfig {
  baseUrl: string;
  auth: GatewayAuth;
  fetch: FetchLike;
  version?: string;
  retry: RetryPolicy;
}

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * Sends one gateway call with the interface's retry rule: 5xx answers and network failures
 * are retried (3 times, 100 ms doubling plus jitter), 4xx never. Every gateway call is safe to
 * repeat (confirm is idempotent on the service), so the rule applies uniformly.
 */
export async function sendRequest(config: TransportConfig, spec: RequestSpec): Promise<unknown> {
  const url = buildUrl(config.baseUrl, spec.path, spec.query);
  const init: RequestInit = { method: spec.method, headers: buildHeaders(config, spec.body !== undefined) };
  if (spec.body !== undefined) init.body = JSON.stringify(spec.body);
  if (spec.signal !== undefined) init.signal = spec.signal;
  const { retry } = config;
  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    try {
      response = await config.fetch(url, init);
    } catch (error) {
      if (spec.signal?.aborted) throw error;
      if (attempt >= retry.retries) {
        throw new GatewayNetworkError(`gateway unreachable after ${attempt + 1} attempts: ${describe(error)}`, attempt + 1, error);
      }
      await retry.sleep(backoffDelay(attempt, retry), spec.signal);
      continue;
    }
    if (response.status >= 500 && attempt < retry.retries) {
      await response.body?.cancel();
      await retry.sleep(backoffDelay(attempt, retry), spec.signal);
      continue;
    }
    return readResponse(response);
  }
}

async function readResponse(response: Response): Promise<unknown> {
  const text = await response.text();
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      if (response.ok) throw new GatewayProtocolError(`gateway answered ${response.status} with a non-JSON body`);
    }
  }
  if (!response.ok) throw errorFromResponse(response.status, body, response.statusText);
  return body;
}

function buildHeaders(config: TransportConfig, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (hasBody) headers['Content-Type'] = 'application/json';
  if ('apiKey' in config.auth) {
    headers['Api-Key'] = config.auth.apiKey;
  } else if ('appId' in config.auth) {
    headers['App-Id'] = config.auth.appId;
    headers['Client-Id'] = config.auth.clientId;
  }
  if (config.version !== undefined) headers['Svc-Version'] = config.version;
  return headers;
}

/** Joins relative to the base so a base with a path prefix (`https://host/api`) keeps it. */
function buildUrl(baseUrl: string, path: string, query: RequestSpec['query']): string {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const url = new URL(path.replace(/^\//, ''), base);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url.toString();
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
