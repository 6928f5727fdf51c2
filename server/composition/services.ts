import type { Logger } from 'pino';
import { createPostgresPaymentChanges } from '../../adapters/payment-changes/postgres/index.ts';
import { PAYMENT_CHANGES_CHANNEL } from '../../adapters/storage/postgres/change-channel.ts';
import { createBullmqQueue } from '../../adapters/queue/bullmq/index.ts';
import { createInlineQueue } from '../../adapters/queue/inline/index.ts';
import { createMemoryRateLimiter } from '../../adapters/rate-limit/memory/index.ts';
import { createRedisRateLimiter } from '../../adapters/rate-limit/redis/index.ts';
import type { AppConfig } from '../config.ts';
import { systemClock } from '../ports/clock.ts';
import type { PaymentChangesPort } from '../ports/payment-changes.ts';
import type { QueuePort } from '../ports/queue.ts';
import type { RateLimit, RateLimiter } from '../ports/rate-limiter.ts';
import type { openConfiguredStorage } from './storage.ts';

/**
 * Redis makes the queue durable and shareable with `npm run worker` processes; without it the
 * inline queue runs jobs in the API process, and the outbox keeps them across restarts. A worker
 * always has Redis (its configuration is refused otherwise: see `assertWorkerConfig`). `pools`:
 * the job pools' names (server/jobs/pools.ts).
 */
export function openQueue(config: Pick<AppConfig, 'redisUrl' | 'queueLockS'>, role: 'api' | 'worker', logger: Logger, pools: readonly string[] = []): QueuePort {
  if (config.redisUrl) return createBullmqQueue({ redisUrl: config.redisUrl, lockMs: config.queueLockS * 1000, logger, pools });
  if (role === 'worker') throw new Error('a worker needs REDIS_URL');
  return createInlineQueue({ clock: systemClock, logger, pools });
}

/** None when limits are off; with Redis, API processes share one count per client, so the limit holds behind a balancer. */
export async function openRateLimiter(config: Pick<AppConfig, 'redisUrl'>, limit: RateLimit | null, prefix: string, logger: Logger): Promise<RateLimiter | undefined> {
  if (!limit) return undefined;
  if (!config.redisUrl) return createMemoryRateLimiter(limit, systemClock);
  let lastWarning = 0;
  return createRedisRateLimiter(limit, {
    redisUrl: config.redisUrl,
    prefix,
    onError: (err) => {
      if (Date.now() - lastWarning < 10_000) return;
      lastWarning = Date.now();
      logger.warn({ err }, 'rate limiter: Redis did not answer; requests pass unlimited meanwhile');
    },
  });
}

/**
 * One listener for the process; the storage notifies each payment change at its commit,
 * whichever process (API or worker) made it.
 */
export async function openPaymentChanges(storage: Awaited<ReturnType<typeof openConfiguredStorage>>, logger: Logger): Promise<PaymentChangesPort> {
  return createPostgresPaymentChanges({
    channel: PAYMENT_CHANGES_CHANNEL,
    db: storage.db,
    onError: (err) => logger.warn({ err }, 'payment changes: listener error (a lost connection reconnects by itself)'),
  });
}
