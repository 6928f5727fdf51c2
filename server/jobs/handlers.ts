import type { AssetRegistry } from '../domain/assets.ts';
import { EXPIRE_JOB_TYPE, runExpiry } from '../domain/payments/expiry-job.ts';
import { followPaymentFinality } from '../domain/payments/finality-job.ts';
import { ADVANCE_JOB_TYPE, FINALITY_JOB_TYPE, advanceAttempt, chainOfAdvanceJob, chainOfFinalityJob } from '../domain/payments/settle-attempt.ts';
import type { ChainRegistry } from '../ports/chains.ts';
import type { Clock } from '../ports/clock.ts';
import type { JobHandler } from '../ports/queue.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import type { Logger } from '../ports/logger.ts';
import { webhookDeliveryJob, type WebhookJobOptions } from '../domain/webhooks/job.ts';
import type { MetricsPort } from '../ports/metrics.ts';
import type { JobPoolRule } from './pools.ts';
import { MAINTENANCE_JOB_TYPE } from './maintenance.ts';
import { LATE_FUNDS_JOB_TYPE, chainOfLateFundsJob, lateFundsJob, type LateFundsOptions } from '../domain/payments/late-funds-job.ts';
import { WALLET_TRANSFER_JOB_TYPE, chainOfWalletTransferJob, watchWalletTransfer } from '../domain/payments/wallet-transfer-job.ts';

/** What job handlers may use; later capabilities add their chain and webhook ports here. */
export interface JobHandlerDeps {
  storage: StoragePort;
  clock: Clock;
  logger: Logger;
  assets: AssetRegistry;
  /** The chains transfers are submitted on and followed. */
  chains?: ChainRegistry;
  /** Called when a handler committed new outbox jobs, so the relay hands them on at once. */
  onJobsWritten?: () => void;
  /** Webhook delivery: the guarded fetch and allowances the composition root built (tests shorten timeouts and schedule). */
  webhooks: WebhookJobOptions;
  /** Payment transitions and chain submissions counted by the handlers' domain steps. */
  metrics?: MetricsPort;
  /** The late-funds watcher's pace (tests run it every few hundred ms); default late-funds-job.ts's. */
  lateFunds?: LateFundsOptions;
}

/**
 * The registry of job types, one entry per type written to the outbox. Both the API process
 * (embedded or same-process workers) and `npm run worker` take their handlers from here, so every
 * process runs the same set. Each handler must be idempotent: see `wrapJobHandler` in
 * run-worker.ts for why.
 */
export function buildJobHandlers(deps: JobHandlerDeps): Record<string, JobHandler> {
  return {
    /** Expires a payment at its deadline; see server/domain/payments/expiry-job.ts. */
    async [EXPIRE_JOB_TYPE](job) {
      return runExpiry(deps, job.payload);
    },

    /** Submits and follows a confirmed payment's transfer, one step per run; see server/domain/payments/settle-attempt.ts. */
    async [ADVANCE_JOB_TYPE](job) {
      return advanceAttempt(deps, job.payload);
    },

    /** Follows a succeeded payment's transaction until its chain calls it final; see server/domain/payments/finality-job.ts. */
    async [FINALITY_JOB_TYPE](job) {
      return followPaymentFinality(deps, job.payload);
    },

    /** Looks on one chain for funds that paid a payment after it ended; see server/domain/payments/late-funds-job.ts. */
    [LATE_FUNDS_JOB_TYPE]: lateFundsJob(deps, deps.lateFunds),

    /** Looks for the transaction a wallet broadcast itself for one option (Solana Pay); see server/domain/payments/wallet-transfer-job.ts. */
    async [WALLET_TRANSFER_JOB_TYPE](job) {
      return watchWalletTransfer(deps, job.payload);
    },

    /** One attempt to post a webhook delivery; see server/domain/webhooks/deliver.ts. */
    'webhook.deliver': webhookDeliveryJob(deps),
  };
}

/**
 * The pool each job type runs in (see pools.ts): settlement per chain, expiry, webhooks, or the
 * default. A new job type declares its pool here (a settlement job names its chain in its
 * payload, read by `chainOf`); handlers.test.ts fails for a type without a rule.
 */
export const JOB_POOL_RULES: Record<string, JobPoolRule> = {
  [EXPIRE_JOB_TYPE]: { kind: 'expiry' },
  [ADVANCE_JOB_TYPE]: { kind: 'settlement', chainOf: chainOfAdvanceJob },
  [FINALITY_JOB_TYPE]: { kind: 'settlement', chainOf: chainOfFinalityJob },
  [LATE_FUNDS_JOB_TYPE]: { kind: 'settlement', chainOf: chainOfLateFundsJob },
  [WALLET_TRANSFER_JOB_TYPE]: { kind: 'settlement', chainOf: chainOfWalletTransferJob },
  'webhook.deliver': { kind: 'webhooks' },
  [MAINTENANCE_JOB_TYPE]: { kind: 'default' },
};
