import type { PaymentStatusResult } from './types.ts';

export interface WaitOptions {
  signal?: AbortSignal;
  /** Called with every status read, including the final one (for progress UI). */
  onStatus?: (status: PaymentStatusResult) => void;
  /** Give up after this long (rejects with a TimeoutError-named Error); unlimited by default. */
  timeoutMs?: number;
  /** Delay used when a non-final answer carries no `pollInMs`. */
  fallbackPollMs?: number;
  /**
   * Long-poll: each status read waits on the service for up to this long and is answered as
   * soon as the status changes. Default 30000 (the service's cap); 0 polls with `pollInMs` only.
   */
  maxPollMs?: number;
}

/** The service answers a long-poll after at most this long, so asking for more gains nothing. */
export const DEFAULT_MAX_POLL_MS = 30_000;

interface WaitDeps {
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
}

/**
 * Reads until `isFinal` is true. Each read long-polls (`maxPollMs`, capped by what is left of
 * `timeoutMs`), so the service answers when the status changes rather than on a schedule; and
 * reads never come closer together than the `pollInMs` the service asked for, so a service that
 * answers at once (one that does not long-poll) is polled exactly as before. `isFinal` (not a
 * list of state names) decides when to stop, as the interface says.
 */
export async function waitForFinalStatus(
  read: (request: { maxPollMs?: number; signal?: AbortSignal }) => Promise<PaymentStatusResult>,
  options: WaitOptions & WaitDeps,
): Promise<PaymentStatusResult> {
  const started = options.now();
  const longPoll = options.maxPollMs ?? DEFAULT_MAX_POLL_MS;
  for (;;) {
    options.signal?.throwIfAborted();
    const askedAt = options.now();
    const left = options.timeoutMs === undefined ? longPoll : Math.max(0, Math.min(longPoll, options.timeoutMs - (askedAt - started)));
    const status = await read({ ...(longPoll > 0 ? { maxPollMs: left } : {}), ...(options.signal ? { signal: options.signal } : {}) });
    options.onStatus?.(status);
    if (status.isFinal) return status;
    const delay = Math.max(0, (status.pollInMs ?? options.fallbackPollMs ?? 1000) - (options.now() - askedAt));
    if (options.timeoutMs !== undefined && options.now() + delay - started > options.timeoutMs) {
      const error = new Error(`payment not final after ${options.timeoutMs} ms (last status ${status.status})`);
      error.name = 'TimeoutError';
      throw error;
    }
    if (delay > 0) await options.sleep(delay, options.signal);
  }
}
