import type { Client } from 'openapi-fetch';
import type { paths } from './contract.ts';
import { toApiError } from './errors.ts';

/** The raw, fully typed openapi-fetch client over the newest contract. */
export type RawClient = Client<paths>;

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Turns openapi-fetch's `{ data, error, response }` into the data or a thrown ApiError, so the
 * helpers read like ordinary async functions and a failure cannot be ignored by accident.
 */
export async function unwrap<T>(pending: Promise<FetchResult<T>>): Promise<Exclude<T, undefined>> {
  const { data, error, response } = await pending;
  if (!response.ok) throw toApiError(response, error);
  // Every success the helpers call answers a JSON body; an empty one is not the contract.
  if (data === undefined) throw toApiError(response, 'empty response body');
  return data as Exclude<T, undefined>;
}

/** What the helpers share: the raw client and how a missing idempotency key is made. */
export interface HelperContext {
  raw: RawClient;
  newIdempotencyKey: () => string;
}

/** Options of the calls that create something and may be retried safely with a key. */
export interface IdempotencyOptions {
  /** Send your own to make a retry across process restarts safe; a random UUID otherwise. */
  idempotencyKey?: string;
}

/** Pages through a cursor-paginated list, yielding items until `nextCursor` is null. */
export async function* paginate<T, Q extends { cursor?: string }>(
  fetchPage: (query: Q) => Promise<{ data: T[]; nextCursor: string | null }>,
  query: Q,
): AsyncGenerator<T, void, undefined> {
  let cursor = query.cursor;
  for (;;) {
    const page = await fetchPage(cursor === undefined ? query : { ...query, cursor });
    yield* page.data;
    if (page.nextCursor === null) return;
    cursor = page.nextCursor;
  }
}
