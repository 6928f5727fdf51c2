import type { PaymentChangeSignal, PaymentChangesPort } from '../../ports/payment-changes.ts';
import type { PaymentRecord } from './records.ts';
import { isFinal } from './state-machine.ts';

/** The longest a long-poll waits, whatever `maxPollMs` asks (the reference caps it likewise). */
export const MAX_LONG_POLL_MS = 30_000;

/** How long a request with this `maxPollMs` may wait: 0 (answer at once) when absent, null or 0. */
export function longPollBound(maxPollMs: number | null | undefined): number {
  return Math.min(Math.max(maxPollMs ?? 0, 0), MAX_LONG_POLL_MS);
}

export interface LongPoll {
  /** The payment the request is about, when its reference names one (else nothing to wait on). */
  paymentId: string | null;
  maxPollMs: number | null | undefined;
  /** What the request does first (read it, or confirm it); the wait starts from its answer. */
  first(): Promise<PaymentRecord>;
  /** The payment as it is now, read when woken (and once at the bound). */
  reread(known: PaymentRecord): Promise<PaymentRecord>;
}

/**
 * Long-poll on a payment: answers at once when it is final (or no wait was asked), otherwise at
 * its first change of status (any: processing → succeeded, or back to requires_action when an
 * attempt is released), when the bound passes, or when the process shuts down. A waiter costs a
 * subscription and one timer and reads the payment only when a notification wakes it, never on
 * a schedule. It subscribes before `first` runs, so a change committed in between still wakes
 * it; at the bound it reads once more, so even a lost notification never yields a stale answer.
 */
export async function longPoll(changes: PaymentChangesPort, req: LongPoll): Promise<PaymentRecord> {
  const bound = longPollBound(req.maxPollMs);
  if (bound === 0 || req.paymentId === null) return req.first();

  let pending: PaymentChangeSignal | null = null;
  let timedOut = false;
  let wake: (() => void) | null = null;
  const unsubscribe = changes.subscribe(req.paymentId, (signal) => {
    if (pending !== 'closing') pending = signal;
    wake?.();
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    let p = await req.first();
    if (isFinal(p.status)) return p;
    const from = p.status;
    timer = setTimeout(() => {
      timedOut = true;
      wake?.();
    }, bound);
    for (;;) {
      if (pending === null && !timedOut) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      const signal = pending;
      pending = null;
      p = await req.reread(p);
      // A change that left the status as it was (a refund, our own confirm's notification, a
      // resync after a reconnect) keeps the request waiting.
      if (p.status !== from || signal === 'closing' || timedOut) return p;
    }
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}
