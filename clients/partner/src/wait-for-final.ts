import type { PaymentStatusResponse } from './contract.ts';
import { WaitTimeoutError } from './errors.ts';
import { abortableSleep, type Sleep } from './retry.ts';

export interface WaitOptions {
  /** Stops waiting (rejecting with the signal's reason) when aborted. */
  signal?: AbortSignal;
  /** Called with every status read, final or not, e.g. to update a UI. */
  onStatus?: (status: PaymentStatusResponse) => void;
  /** Gives up with a WaitTimeoutError after this long; no limit by default. */
  timeoutMs?: number;
  /** Used between polls; default a timer (tests inject their own). */
  sleep?: Sleep;
  /**
   * Long-poll: each read waits on the service for up to this long and is answered as soon as the
   * status changes. Default 30000 (the service's cap); 0 reads at once and sleeps `pollInMs`.
   */
  maxPollMs?: number;
}

/** The service answers a long-poll after at most this long, so asking for more gains nothing. */
export const DEFAULT_MAX_POLL_MS = 30_000;

/** Used when a non-final status carries no hint, which the contract does not foresee. */
const FALLBACK_POLL_MS = 1000;

/**
 * Reads until `isFinal`. The first read answers at once; each later read long-polls
 * (`maxPollMs`), so the service answers when the status changes instead of on a schedule. Reads
 * never come closer together than the `pollInMs` the service asked for, so a service that
 * answers at once is polled as before. `isFinal` is the authority for stopping, not a list of
 * states. The timeout also aborts an in-flight read.
 */
export async function waitForFinal(
  readStatus: (request: { signal?: AbortSignal; maxPollMs?: number }) => Promise<PaymentStatusResponse>,
  options: WaitOptions = {},
): Promise<PaymentStatusResponse> {
  const sleep = options.sleep ?? abortableSleep;
  const now = () => performance.now();
  const longPoll = options.maxPollMs ?? DEFAULT_MAX_POLL_MS;
  const timeout = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
  let last: PaymentStatusResponse | undefined;
  try {
    for (let read = 0; ; read++) {
      signal?.throwIfAborted();
      const polls = longPoll > 0 && read > 0;
      const askedAt = now();
      last = await readStatus({ ...(signal ? { signal } : {}), ...(polls ? { maxPollMs: longPoll } : {}) });
      options.onStatus?.(last);
      if (last.isFinal) return last;
      // Straight from the first answer into a long-poll; after a long-poll, only what is left of
      // the wait the service asked for (nothing, when it held the request that long).
      if (longPoll > 0 && read === 0) continue;
      const delay = Math.ceil((last.pollInMs ?? FALLBACK_POLL_MS) - (polls ? now() - askedAt : 0));
      if (delay > 0) await sleep(delay, signal);
    }
  } catch (error) {
    if (timeout?.aborted && !options.signal?.aborted) throw new WaitTimeoutError(options.timeoutMs ?? 0, last?.status);
    throw error;
  }
}
