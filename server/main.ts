import { pino, type Logger } from 'pino';
import { createApp } from './app.ts';
import { ConfigError, loadConfig, type AppConfig } from './config.ts';
import { createAssetRegistry } from './domain/assets.ts';
import { systemClock } from './ports/clock.ts';
import { firstStart } from './first-start.ts';
import { openConfiguredStorage } from './storage.ts';
import { createLogoChecker } from './logo-checker.ts';
import { createInlineQueue } from '../adapters/queue/inline/index.ts';
import { createBullmqQueue } from '../adapters/queue/bullmq/index.ts';
import { buildJobHandlers } from './jobs/handlers.ts';
import { startJobs } from './jobs/start-jobs.ts';
import { openChains } from './chains-setup.ts';
import { createChainRegistry } from './ports/chains.ts';
import { createPriceTable } from './domain/prices.ts';
import { createWebhookDispatcher } from './domain/webhooks/dispatcher.ts';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { createRedisRateLimiter } from '../adapters/rate-limit/redis/index.ts';
import type { RateLimit, RateLimiter } from './ports/rate-limiter.ts';
import { createPostgresPaymentChanges } from '../adapters/payment-changes/postgres/index.ts';

/** None when limits are off; with Redis, API processes share one count per client, so the limit holds behind a balancer. */
async function openRateLimiter(config: AppConfig, limit: RateLimit | null, prefix: string, logger: Logger): Promise<RateLimiter | undefined> {
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

/** The composition root: config → adapters → app → listen. */
async function main() {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  const storage = await openConfiguredStorage(config);
  await firstStart(storage, config, (text) => console.log(text));

  const chains = await openChains(config);
  const assets = createAssetRegistry([...config.assets, ...chains.assets]);
  const chainRegistry = createChainRegistry(chains.ports);
  // Redis makes the queue durable and shareable with `npm run worker` processes; without it the
  // inline queue runs jobs here, and the outbox keeps them across restarts.
  const queue = config.redisUrl ? createBullmqQueue({ redisUrl: config.redisUrl, logger }) : createInlineQueue({ clock: systemClock, logger });
  let notify = () => {};
  // Loopback webhook receivers (plain http) are a sandbox convenience; production refuses them.
  const sandbox = config.mode === 'sandbox';
  const handlers = buildJobHandlers({ storage, clock: systemClock, logger, assets, chains: chainRegistry, onJobsWritten: () => notify(), webhooks: { allowLoopbackEndpoints: sandbox, ownPort: config.port } });
  // Several slots, so one slow webhook receiver (capped per endpoint) cannot hold up other jobs.
  const jobs = await startJobs({ storage, queue, handlers, clock: systemClock, logger, runWorker: config.jobWorkers, concurrency: 16, maintenance: { storage } });
  const webhooks = createWebhookDispatcher({ storage, clock: systemClock, logger, onJobsWritten: () => jobs.relay.notify() });
  webhooks.start();
  notify = () => {
    jobs.relay.notify();
    webhooks.notify();
  };

  const rateLimiter = await openRateLimiter(config, config.rateLimit, 'ratelimit', logger);
  // Its own buckets (per address, not per key) and its own bound.
  const unauthenticatedLimiter = await openRateLimiter(config, config.unauthenticatedRateLimit, 'ratelimit-unauthenticated', logger);
  // One listener for the process; the storage notifies each payment change at its commit,
  // whichever process (API or worker) made it.
  const paymentChanges = await createPostgresPaymentChanges({ db: storage.db, onError: (err) => logger.warn({ err }, 'payment changes: listener error (a lost connection reconnects by itself)') });

  const app = createApp({
    storage,
    paymentChanges,
    clock: systemClock,
    logger,
    assets,
    payBaseUrl: config.payBaseUrl,
    paymentTimes: { defaultTtlS: config.paymentDefaultTtlS, maxTtlS: config.paymentMaxTtlS },
    onJobsWritten: notify,
    chains: chainRegistry,
    prices: createPriceTable(config.fxRates),
    quoteTtlS: config.quoteTtlS,
    ...(chains.routes ? { extraRoutes: chains.routes } : {}),
    ...(config.logoChecks ? { checkLogo: createLogoChecker() } : {}),
    allowLoopbackEndpoints: sandbox,
    ownPort: config.port,
    ...(config.collectDataSecret ? { collectDataSecret: config.collectDataSecret } : {}),
    ...(rateLimiter ? { rateLimiter } : {}),
    ...(unauthenticatedLimiter ? { unauthenticatedLimiter } : {}),
    mode: config.mode,
    trustProxyHops: config.trustProxyHops,
  });
  const server = app.listen(config.port, config.host, () => {
    logger.info(
      {
        port: config.port,
        mode: config.mode,
        storage: config.databaseUrl ? 'postgresql' : `pglite:${config.dataDir}`,
        queue: config.redisUrl ? 'bullmq' : 'inline',
        jobWorkers: config.jobWorkers,
        rateLimit: config.rateLimit ? `${config.rateLimit.perSecond}/s per key, burst ${config.rateLimit.burst}${config.redisUrl ? ', shared in Redis' : ''}` : 'off',
        unauthenticatedRateLimit: config.unauthenticatedRateLimit ? `${config.unauthenticatedRateLimit.perSecond}/s per address, burst ${config.unauthenticatedRateLimit.burst}` : 'off',
      },
      'listening',
    );
  });

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    // Long-polls answer now with the payment as it is (storage closes only after they did).
    void paymentChanges.close();
    server.close(() => {
      void webhooks
        .stop()
        .then(() => jobs.stop())
        .then(() => rateLimiter?.close())
        .then(() => unauthenticatedLimiter?.close())
        .then(() => storage.close())
        .then(() => chains.close())
        .finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});
