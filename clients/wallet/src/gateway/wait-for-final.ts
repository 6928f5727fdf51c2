import type { PaymentStatusResult } from './types.ts';

export interface WaitOptions {
  signal?: AbortSignal;
  /** Called with every status read, including the final one (for progress UI). */
  onStatus?: (status: PaymentStatusResult) => void;
  /** Give up after this long (rejects with a TimeoutError-named Error); unlimited by default. */
  timeoutMs?: number;
  /** Delay used when a non-final answer carries no `pollInMs`. */
  fallbackPollMs?: number;
}

interface WaitDeps {
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
}

/**
 * Polls until `isFinal` is true, waiting exactly the `pollInMs` the service asked for between
 * reads. `isFinal` (not a list of state names) decides when to stop, as the interface says.
 */
export async function waitForFinalStatus(
  read: () => Promise<PaymentStatusResult>,
  options: WaitOptions & WaitDeps,
): Promise<PaymentStatusResult> {
  const started = options.now();
  for (;;) {
    options.signal?.throwIfAborted();
    const status = await read();
    options.onStatus?.(status);
    if (status.isFinal) return status;
    const delay = status.pollInMs ?? options.fallbackPollMs ?? 1000;
    if (options.timeoutMs !== undefined && options.now() + delay - started > options.timeoutMs) {
      const error = new Error(`payment not final after ${options.timeoutMs} ms (last status ${status.status})`);
      error.name = 'TimeoutError';
      throw error;
    }
    await options.sleep(delay, options.signal);
  }
}
