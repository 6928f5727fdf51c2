import { AppError } from '../../errors.ts';
import { newId } from '../ids.ts';
import type { AssetRegistry } from '../assets.ts';
import type { Clock } from '../../ports/clock.ts';
import type { NewJob } from '../jobs/records.ts';
import type { PaymentPatch, PaymentRecord } from './records.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import { EVENT_TYPE, canTransition, isFinal, sourcesOf, type PaymentStatus } from './state-machine.ts';
import { eventSnapshot } from './view.ts';
import type { MetricsPort } from '../../ports/metrics.ts';
import { recordTransition } from './payment-metrics.ts';

export interface PaymentDeps {
  storage: StoragePort;
  clock: Clock;
  assets: AssetRegistry;
  /** Called after a unit that wrote outbox jobs commits, so the relay hands them on at once. */
  onJobsWritten?: () => void;
  /**
   * Called after a unit that wrote payment events and no job commits (a create), so the webhook
   * dispatcher hands them on at once without a relay pass for nothing; absent: `onJobsWritten`.
   */
  onEventsWritten?: () => void;
  /** Transitions counted, final ones timed from creation; absent: not counted. */
  metrics?: MetricsPort;
}

export type TransitionResult = { ok: true; payment: PaymentRecord } | { ok: false; current: PaymentRecord | null; duplicateTxId?: boolean };

/**
 * Moves a payment to `to` if the state machine allows it from where the payment is now. The
 * storage unit re-checks the state as it writes, so when two transitions race exactly one
 * succeeds; the other gets `{ ok: false }` with the winner's result as `current`.
 */
export async function transitionPayment(deps: PaymentDeps, payment: PaymentRecord, to: PaymentStatus, patch: PaymentPatch = {}, jobs: NewJob[] = []): Promise<TransitionResult> {
  if (!canTransition(payment.status, to)) return { ok: false, current: payment };
  const merchant = await deps.storage.merchants.get(payment.partnerId, payment.merchantId, { includeDeleted: true });
  const result = await deps.storage.payments.transition(payment.id, {
    // A final state is left only by a caller that read the payment in it (late funds), so a
    // transition decided on a payment that was open never overturns an expiry or a failure it raced.
    from: sourcesOf(to).filter((from) => !isFinal(from) || from === payment.status),
    to,
    patch,
    at: new Date(deps.clock.now()),
    event: { id: newId('event', deps.clock.now()), type: EVENT_TYPE[to], snapshot: (p) => eventSnapshot(p, merchant ?? undefined, deps.assets) },
    jobs,
  });
  if (result.ok && jobs.length) deps.onJobsWritten?.();
  if (result.ok) recordTransition(deps.metrics, payment.status, result.payment, deps.clock.now());
  return result;
}

/** Attempts a payment may make before a failed one is final rather than released. */
export const MAX_PAYMENT_ATTEMPTS = 3;

/**
 * Ends a processing payment's attempt that the chain shows can no longer pay the merchant
 * (reverted, authorization used up elsewhere, transaction never seen). Nothing a buyer does may
 * pin a payment, so it goes back to requires_action with the attempt forgotten, and the chosen
 * quote is expired so the wallet asks for fresh options (a fresh nonce). After
 * MAX_PAYMENT_ATTEMPTS attempts, or past its expiry, it ends instead: failed, or expired.
 * `_reason` (why the attempt ended) went only into the expiry job this wrote before payments
 * expired by sweep, and nothing read it there; callers still name it.
 */
export async function releasePayment(deps: PaymentDeps, payment: PaymentRecord, _reason: string): Promise<PaymentRecord> {
  const now = deps.clock.now();
  const attempts = (await deps.storage.payments.events(payment.id)).filter((e) => e.type === EVENT_TYPE.processing).length;
  if (attempts >= MAX_PAYMENT_ATTEMPTS) {
    const failed = await transitionPayment(deps, payment, 'failed', { failureCode: 'transfer_failed' });
    return failed.ok ? failed.payment : (failed.current ?? payment);
  }
  if (payment.optionId) {
    const quote = await deps.storage.quotes.get(payment.id, payment.optionId);
    if (quote && quote.deadline.getTime() > now) await deps.storage.quotes.updateState(quote.optionId, quote.state, new Date(now));
  }
  // Back in requires_action, the expiry sweep expires it at its deadline if nobody pays.
  const released = await transitionPayment(deps, payment, 'requires_action', {
    optionId: null,
    buyerAccount: null,
    buyerProviderName: null,
    buyerProviderIcon: null,
    asset: null,
    tokenValue: null,
    network: null,
    txId: null,
  });
  if (!released.ok) return released.current ?? payment;
  return expireIfDue(deps, released.payment);
}

/** Persists expiry of a payment whose time is up and that nobody has paid; lazily, on read. */
export async function expireIfDue(deps: PaymentDeps, payment: PaymentRecord): Promise<PaymentRecord> {
  if (payment.status !== 'requires_action' || payment.expiresAt.getTime() > deps.clock.now()) return payment;
  const result = await transitionPayment(deps, payment, 'expired');
  return result.ok ? result.payment : (result.current ?? payment);
}

/** Cancels an unpaid payment; `invalid_state` (400) when it cannot be, 409 when another change won. */
export async function cancelPayment(deps: PaymentDeps, payment: PaymentRecord, reason: string): Promise<PaymentRecord> {
  const current = await expireIfDue(deps, payment);
  if (current.status !== 'requires_action') {
    throw new AppError('invalid_state', `A ${current.status} payment cannot be cancelled; only one that requires action`, { details: { status: current.status } });
  }
  const result = await transitionPayment(deps, current, 'cancelled', { cancelledReason: reason, cancelledAt: new Date(deps.clock.now()) });
  if (!result.ok) {
    throw new AppError('invalid_state', 'The payment changed while cancelling it', { status: 409, details: { status: result.current?.status ?? null } });
  }
  return result.payment;
}
