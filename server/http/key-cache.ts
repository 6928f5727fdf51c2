import { LRUCache } from 'lru-cache';
import type { Clock } from '../ports/clock.ts';
import type { ApiKeyRecord, PartnerRecord } from '../domain/partners/records.ts';

export type KeyLookup = { key: ApiKeyRecord; partner: PartnerRecord };

export interface KeyCacheOptions {
  /** Reads the active key with this hash from storage (null: unknown or revoked). */
  load: (hash: string) => Promise<KeyLookup | null>;
  clock: Clock;
  /**
   * How long a positive lookup is trusted before it is read again. This is the bound on how long
   * a key revoked by another process (the key tool) still works here: 1 s by default.
   */
  trustMs?: number;
  /** Keys remembered; least recently used go first. */
  maxKeys?: number;
}

/**
 * Valid keys seen by this process, by SHA-256. Every request checks its key, and at a few
 * thousand requests per second per key, reading the database each time would cost more than
 * the request; reading it once per key per `trustMs` costs nothing measurable. Only keys that
 * were found are kept: a flood of random keys cannot push the real ones out, and unknown keys
 * are throttled per address before they cost a lookup (auth.ts).
 *
 * An entry past `trustMs` is not trusted but still remembered: its key is known to have been
 * valid, so re-reading it is not counted as a stranger's guess.
 */
export function createKeyCache(opts: KeyCacheOptions) {
  const trustMs = opts.trustMs ?? 1_000;
  const cache = new LRUCache<string, { found: KeyLookup; at: number }>({ max: opts.maxKeys ?? 10_000 });
  // Concurrent requests with the same key after it went stale share one read.
  const loading = new Map<string, Promise<KeyLookup | null>>();

  return {
    /** The lookup, when it was read less than `trustMs` ago. */
    trusted(hash: string): KeyLookup | undefined {
      const hit = cache.get(hash);
      return hit && opts.clock.now() - hit.at < trustMs ? hit.found : undefined;
    },
    /** Whether this hash was a valid key when last read (trusted or not). */
    known(hash: string): boolean {
      return cache.has(hash);
    },
    /** Reads the key from storage (one read per hash at a time) and remembers the answer. */
    load(hash: string): Promise<KeyLookup | null> {
      let pending = loading.get(hash);
      if (!pending) {
        const at = opts.clock.now();
        pending = opts
          .load(hash)
          .then((found) => {
            if (found) cache.set(hash, { found, at });
            else cache.delete(hash);
            return found;
          })
          .finally(() => loading.delete(hash));
        loading.set(hash, pending);
      }
      return pending;
    },
    /** Drops a key this process saw revoked: its next request reads it again (and is refused). */
    forget(hash: string): void {
      cache.delete(hash);
    },
    get size(): number {
      return cache.size;
    },
  };
}
