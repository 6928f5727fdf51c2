import type { IdempotencyClaim, IdempotencyCompletion } from '../../domain/idempotency/records.ts';

/**
 * Idempotency keys, per partner: one request at a time holds a key, and a completed key answers
 * the same request again with the stored answer (and a different one with a conflict).
 */
export interface IdempotencyRepository {
  /**
   * Claims `key` for a request with this hash. A claim left by a request that died (older than
   * `staleAfterMs`) is taken over: its work was never committed, since completion is atomic
   * with the resource it created.
   */
  claim(partnerId: string, key: string, requestHash: string, now: Date, staleAfterMs: number): Promise<IdempotencyClaim>;
  /** Stores the answer when the handler's own write could not carry it. */
  complete(completion: IdempotencyCompletion): Promise<void>;
  /** Forgets an uncompleted claim, so a failed request stores nothing and the key can be reused. */
  release(partnerId: string, key: string): Promise<void>;
  /** Deletes keys created before `before`; answers how many. */
  purgeCreatedBefore(before: Date): Promise<number>;
  /**
   * Deletes at most `limit` keys created before `before` (a bounded batch, so a purge never holds
   * the table long); answers how many. Safe to run from several processes at once.
   */
  purgeCreatedBeforeBatch(before: Date, limit: number): Promise<number>;
}
