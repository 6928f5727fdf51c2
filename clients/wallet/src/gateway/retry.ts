/** Tunable retry behaviour; every source of time and randomness is injectable for exact tests. */
export interface RetryOptions {
  /** Retries after the first attempt (the interface recommends 3). */
  retries?: number;
  /** Delay before the first retry; doubles on each later one (100, 200, 400 ms by default). */
  initialDelayMs?: number;
  /** Upper bound of the random jitter added to each delay. */
  maxJitterMs?: number;
  /** Returns a number in [0, 1); defaults to Math.random. */
  random?: () => number;
  /** Waits the given milliseconds; defaults to a timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface RetryPolicy {
  retries: number;
  initialDelayMs: number;
  maxJitterMs: number;
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Fills in the interface's recommended values: 3 retries, 100 ms doubling, up to 100 ms jitter. */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    retries: options.retries ?? 3,
    initialDelayMs: options.initialDelayMs ?? 100,
    maxJitterMs: options.maxJitterMs ?? 100,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? abortableSleep,
  };
}

/** Delay before retry number `retryIndex` (0-based): base doubling plus jitter. */
export function backoffDelay(retryIndex: number, policy: RetryPolicy): number {
  return policy.initialDelayMs * 2 ** retryIndex + Math.floor(policy.random() * policy.maxJitterMs);
}

/** Timer-based sleep that ends early (rejecting) when the signal aborts. */
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
