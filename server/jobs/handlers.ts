import type { AssetRegistry } from '../domain/assets.ts';
import { expireIfDue, releasePayment, transitionPayment } from '../domain/payments/transition.ts';
import { chainOfQuote, optionRequestOf } from '../domain/gateway/confirm.ts';
import type { ChainRegistry, Submission } from '../ports/chains.ts';
import type { Clock } from '../ports/clock.ts';
import type { JobHandler } from '../ports/queue.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import type { JobLogger } from './logger.ts';
import { webhookDeliveryJob, type WebhookJobOptions } from '../domain/webhooks/job.ts';

/** What job handlers may use; later capabilities add their chain and webhook ports here. */
export interface JobHandlerDeps {
  storage: StoragePort;
  clock: Clock;
  logger: JobLogger;
  assets: AssetRegistry;
  /** The chains transfers are submitted on and followed. */
  chains?: ChainRegistry;
  /** Called when a handler committed new outbox jobs, so the relay hands them on at once. */
  onJobsWritten?: () => void;
  /** Webhook delivery settings (sandbox loopback allowance; tests shorten timeouts and schedule). */
  webhooks?: WebhookJobOptions;
}

/** How soon to look again at a transfer just submitted. */
const FOLLOW_MS = 1000;
/** The longest wait between two looks at a transfer that stays undecided. */
const MAX_FOLLOW_MS = 30_000;

/**
 * Backoff without stored state: wait a tenth of how long the payment has already waited, between
 * one and thirty seconds, so a transfer the chain is slow to decide costs few RPC calls.
 */
export function followDelayMs(waitedMs: number): number {
  return Math.min(MAX_FOLLOW_MS, Math.max(FOLLOW_MS, Math.floor(waitedMs / 10)));
}

/**
 * The registry of job types, one entry per type written to the outbox. Both the API process
 * (embedded or same-process workers) and `npm run worker` take their handlers from here, so every
 * process runs the same set. Each handler must be idempotent: see `wrapJobHandler` in
 * run-worker.ts for why.
 */
export function buildJobHandlers(deps: JobHandlerDeps): Record<string, JobHandler> {
  return {
    /**
     * Expires a payment nobody paid by its deadline. Idempotent: a payment that moved on (paid,
     * cancelled, already expired) is left alone; one whose deadline is not yet reached by this
     * process's clock is retried at the deadline.
     */
    async 'payment.expire'(job) {
      const payment = await deps.storage.payments.get(String(job.payload.paymentId));
      if (!payment || payment.status !== 'requires_action') return;
      if (payment.expiresAt.getTime() > deps.clock.now()) return { retryAt: payment.expiresAt };
      await expireIfDue(deps, payment);
    },

    /**
     * Moves a confirmed payment's transfer forward one step per run: submit (gasless flows), then
     * follow it until final. Only a definite on-chain answer ends the payment: an RPC error, a
     * timeout or a transaction not yet seen keeps it processing and retries later, since funds
     * may already have moved.
     */
    async 'payment.advance'(job) {
      if (!deps.chains) throw new Error('payment.advance needs chains');
      const payment = await deps.storage.payments.get(String(job.payload.paymentId));
      if (!payment || payment.status !== 'processing' || payment.optionId !== job.payload.optionId) return;
      // A job of an earlier attempt (released, then confirmed again) must not act on this one.
      if (typeof job.payload.stateVersion === 'number' && payment.stateVersion !== job.payload.stateVersion) return;
      const quote = await deps.storage.quotes.get(payment.id, String(job.payload.optionId));
      if (!quote) throw new Error(`quote ${String(job.payload.optionId)} missing for ${payment.id}`);
      const { chain } = chainOfQuote({ chains: deps.chains }, quote);
      // A transaction the relayer signed is recorded (hash and bytes) before it is broadcast, so
      // a crash at any point finds it again by its hash and never sends a second one.
      const recorded = payment.txId ? await deps.storage.payments.getRelayerTx(payment.id) : null;
      // The payload is JSON as confirm wrote it; the adapter checks its shape at its edge.
      const step = await chain.advance(optionRequestOf(deps, quote), job.payload.submission as Submission, payment.txId, {
        rawTx: recorded?.txId === payment.txId ? recorded.rawTx : null,
        record: (tx, replaces) => deps.storage.payments.recordRelayerTx(payment.id, tx, replaces, new Date(deps.clock.now())),
      });
      const now = deps.clock.now();
      if (step.state === 'submitted') {
        // Relayer flows recorded it already (this is then a no-op); Solana records it here.
        if (step.txId !== payment.txId) await deps.storage.payments.recordTxId(payment.id, step.txId, new Date(now));
        return { retryAt: new Date(now + FOLLOW_MS) };
      }
      if (step.state === 'confirmed') {
        await transitionPayment(deps, payment, 'succeeded', { txId: step.txId, succeededAt: new Date(now) });
        return;
      }
      if (step.state === 'failed') {
        // If a concurrent run of this job recorded another transaction meanwhile (recorded before
        // broadcast, so before the chain could refuse this one because of it), that transaction
        // decides, not this verdict about an older one or about a refused signing.
        if ((await deps.storage.payments.get(payment.id))?.txId !== payment.txId) return { retryAt: new Date(now + FOLLOW_MS) };
        // The chain shows this attempt cannot pay the merchant: give the payment back (or end it).
        deps.logger.warn({ paymentId: payment.id, reason: step.reason, txId: step.txId }, 'payment attempt released');
        await releasePayment(deps, payment, step.reason);
        return;
      }
      return { retryAt: new Date(now + followDelayMs(now - payment.updatedAt.getTime())) };
    },

    /** One attempt to post a webhook delivery; see server/domain/webhooks/deliver.ts. */
    'webhook.deliver': webhookDeliveryJob(deps),
  };
}
