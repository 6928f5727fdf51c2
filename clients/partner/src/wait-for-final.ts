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
}

/** Used when a non-final status carries no hint, which the contract does not foresee. */
const FALLBACK_POLL_MS = 1000;

/**
 * Polls until `isFinal`, waiting the `pollInMs` the service asks for between polls. `isFinal` is
 * the authority for stopping, not a list of states. The timeout also aborts an in-flight read.
 */
export async function waitForFinal(readStatus: (signal?: AbortSignal) => Promise<PaymentStatusResponse>, options: WaitOptions = {}): Promise<PaymentStatusResponse> {
  const sleep = options.sleep ?? abortableSleep;
  const timeout = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
  let last: PaymentStatusResponse | undefined;
  try {
    for (;;) {
      last = await readStatus(signal);
      options.onStatus?.(last);
      if (last.isFinal) return last;
      await sleep(last.pollInMs ?? FALLBACK_POLL_MS, signal);
      signal?.throwIfAborted();
    }
  } catch (error) {
    if (timeout?.aborted && !options.signal?.aborted) throw new WaitTimeoutError(options.timeoutMs ?? 0, last?.status);
    throw error;
  }
}
