import type { JobOutcome } from '../../ports/queue.ts';
import type { NewJob } from '../jobs/records.ts';
import { describeError } from '../../ports/logger.ts';
import type { AdvanceDeps } from './settle-attempt.ts';
import { settleLate } from './late-funds-job.ts';

/**
 * Watches one option whose transaction the wallet broadcasts itself (a Solana Pay transaction
 * request): nothing calls confirm, so the service looks on chain, by the option's reference, with
 * the same step as the late-funds watcher (late-funds-job.ts `settleLate`): a final transaction that
 * paid the option makes the payment succeeded, whether it is still open or already expired or
 * failed, and is told as a second payment (paid twice) when another option or attempt paid it
 * first (two wallets scanning the same page). One job per option (a fixed id: asking again for the
 * same option adds none).
 */
export const WALLET_TRANSFER_JOB_TYPE = 'payment.wallet_transfer';

/** The job's fixed id for one option. */
export const walletTransferJobId = (optionId: string) => `job_wallet_transfer_${optionId}`;

/**
 * How long after its quote's deadline an option is still watched: a transaction built just before
 * the deadline can land until its blockhash expires (150 blocks, ~60–90 s) and is final ~15 s later.
 * After that the per-chain late-funds job still looks at ended payments' quotes for an hour.
 */
export const WALLET_TRANSFER_GRACE_MS = 180_000;

/** Between two looks: about the time a Solana block takes to be finalized after it is confirmed. */
const LOOK_EVERY_MS = 2_000;

/** The chain a watch job names, for its settlement pool. */
export function chainOfWalletTransferJob(payload: Record<string, unknown>): string | undefined {
  return typeof payload.chain === 'string' ? payload.chain : undefined;
}

/** The watch job for an option just handed to a wallet, first look one interval on. */
export function walletTransferJob(option: { paymentId: string; optionId: string; chain: string }, now: number): NewJob {
  return { id: walletTransferJobId(option.optionId), type: WALLET_TRANSFER_JOB_TYPE, payload: { ...option }, runAt: new Date(now + LOOK_EVERY_MS) };
}

/** One look; again in LOOK_EVERY_MS until paid, the payment moved on, or the grace has passed. */
export async function watchWalletTransfer(deps: AdvanceDeps, payload: Record<string, unknown>): Promise<JobOutcome> {
  const { paymentId, optionId } = payload;
  if (typeof paymentId !== 'string' || typeof optionId !== 'string' || !deps.chains) return;
  const again = { retryAt: new Date(deps.clock.now() + LOOK_EVERY_MS) };
  try {
    const [quote, payment] = await Promise.all([deps.storage.quotes.get(paymentId, optionId), deps.storage.payments.get(paymentId)]);
    if (!quote || !payment) return;
    // Paid by this option (its transaction lands once), or cancelled: nothing this option can still change.
    if (payment.status === 'cancelled' || (payment.status === 'succeeded' && payment.optionId === optionId)) return;
    // Paid by another option, or being paid: this option's transaction landing too is a second payment, told as such
    // (settleLate), never dropped because the first one got there before it.
    if (await settleLate(deps, quote)) return;
    if (deps.clock.now() > quote.deadline.getTime() + WALLET_TRANSFER_GRACE_MS) return;
  } catch (err) {
    deps.logger.warn({ paymentId, optionId, err: describeError(err) }, 'wallet transfer: not looked at; again shortly');
  }
  return again;
}
