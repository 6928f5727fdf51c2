/**
 * Client-side retries exactly as the interface recommends: only 5xx answers and network failures,
 * never 4xx; 3 retries; 100 ms doubling backoff plus random jitter. Only requests that are safe to
 * repeat are retried: GETs, and POSTs that carry an `Idempotency-Key` (the service answers a replay
 * with the first result). Time and randomness are injectable so tests can assert exact delays.
 */

/** What openapi-fetch calls: one `Request` in, one `Response` out. */
export type FetchLike = (input: Request) => Promise<Response>;

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Retries after the first attempt; default 3. */
  retries?: number;
  /** Delay before the first retry, doubling for each later one; default 100 ms. */
  initialDelayMs?: number;
  /** Upper bound of the jitter added to each delay; default 100 ms. */
  maxJitterMs?: number;
  /** Returns a number in [0, 1); default Math.random. */
  random?: () => number;
  /** Waits the given time, rejecting when the signal aborts; default a timer. */
  sleep?: Sleep;
}

export type RetryPolicy = Required<RetryOptions>;

/** The interface's recommended policy, with any overrides applied. */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    retries: options.retries ?? 3,
    initialDelayMs: options.initialDelayMs ?? 100,
    maxJitterMs: options.maxJitterMs ?? 100,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? abortableSleep,
  };
}

/** Delay before retry number `retryIndex` (0-based): 100, 200, 400 ms … plus up to `maxJitterMs`. */
export function backoffDelay(retryIndex: number, policy: RetryPolicy): number {
  return policy.initialDelayMs * 2 ** retryIndex + Math.floor(policy.random() * policy.maxJitterMs);
}

/** A timer that rejects with the signal's reason when it aborts, so waits end as soon as a caller gives up. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** GETs can always be repeated; a POST only when the service deduplicates it by its Idempotency-Key. */
export function isSafeToRepeat(request: Request): boolean {
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') return true;
  return method === 'POST' && request.headers.has('Idempotency-Key');
}

/**
 * Wraps a fetch so that safe requests are retried on 5xx and network failures. The last answer
 * (or error) is handed back as is, so callers still see the service's own 5xx body.
 */
export function retryingFetch(base: FetchLike, policy: RetryPolicy): FetchLike {
  return async (request) => {
    if (policy.retries <= 0 || !isSafeToRepeat(request)) return base(request);
    for (let retryIndex = 0; ; retryIndex++) {
      const last = retryIndex >= policy.retries;
      // Every attempt but the last sends a clone, so the body can be sent again.
      const attempt = last ? request : request.clone();
      try {
        const response = await base(attempt);
        if (response.status < 500 || last) return response;
        await response.body?.cancel();
      } catch (error) {
        if (last || request.signal.aborted) throw error;
      }
      await policy.sleep(backoffDelay(retryIndex, policy), request.signal);
    }
  };
}
