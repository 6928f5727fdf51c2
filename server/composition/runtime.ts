// Long because: the composition root opens every piece a process runs, in start-up order, and closes them in reverse in one place.
import type { Express } from 'express';
import type { Logger } from 'pino';
import { createApp } from '../app.ts';
import type { AppConfig } from '../config.ts';
import { createAssetRegistry, type AssetRegistry } from '../domain/assets.ts';
import { createPriceTable } from '../domain/prices.ts';
import { createServiceAccountChecks } from '../domain/service-accounts.ts';
import { createReadiness } from '../http/readiness.ts';
import { createWebhookDispatcher, type WebhookDispatcher } from '../jobs/webhook-dispatcher.ts';
import { firstStart } from '../first-start.ts';
import { buildJobHandlers, JOB_POOL_RULES } from '../jobs/handlers.ts';
import { planJobPools } from '../jobs/pools.ts';
import { formatChainId, parseAssetId } from '../domain/caip.ts';
import { startJobs, type RunningJobs } from '../jobs/start-jobs.ts';
import { createExpirySweep } from '../jobs/expiry-sweep.ts';
import { scheduleLateFunds } from '../domain/payments/late-funds-job.ts';
import { createChainRegistry, type ChainRegistry } from '../ports/chains.ts';
import { systemClock } from '../ports/clock.ts';
import type { PaymentChangesPort } from '../ports/payment-changes.ts';
import type { JobHandler, QueuePort } from '../ports/queue.ts';
import type { RateLimiter } from '../ports/rate-limiter.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { openChains, type ChainHooks, type OpenedChains } from './chains.ts';
import { startSelfChecks } from './self-checks.ts';
import { relayerRefusalAlerts } from './relayer-alerts.ts';
import { partnerFeeBudget } from '../config-chain-fees.ts';
import { createLogoChecker } from './logo-checker.ts';
import { openPaymentChanges, openQueue, openRateLimiter } from './services.ts';
import { openDashboard } from './dashboard.ts';
import { openConfiguredStorage } from './storage.ts';
import { webhookSettings, type WebhookSettings } from './webhooks.ts';
import { DELIVERY_REQUEST_LIMITS } from '../domain/webhooks/redeliver.ts';
import { OPTIONS_PER_PAYMENT_LIMIT } from '../domain/gateway/options.ts';
import { createPrometheusMetrics } from '../../adapters/metrics/prometheus/index.ts';
import type { MetricsPort } from '../ports/metrics.ts';
import { METRICS } from '../ports/metric-catalog.ts';
import { collectScrapeGauges } from './metrics.ts';

/** `api`: the HTTP process (runs jobs too unless JOB_WORKERS=off); `worker`: `npm run worker`. */
export type RuntimeRole = 'api' | 'worker';

export interface RuntimeOptions {
  role: RuntimeRole;
  logger: Logger;
  /** Where first-start messages go (the sandbox's first keys); the console by default. */
  print?: (text: string) => void;
  /** Tests: chains without starting the sandbox or dialling RPC URLs. */
  openChains?: (config: AppConfig, logger: Logger, hooks?: ChainHooks) => Promise<OpenedChains>;
  /** Where this process's metrics go; a prom-client registry of its own (with Node process metrics) by default. */
  metrics?: MetricsPort;
}

/** Everything one process runs, built from the configuration in one place. */
export interface Runtime {
  role: RuntimeRole;
  config: AppConfig;
  storage: StoragePort;
  queue: QueuePort;
  chains: OpenedChains;
  chainRegistry: ChainRegistry;
  assets: AssetRegistry;
  /** The job types this process runs: the same set in every role. */
  jobHandlers: Record<string, JobHandler>;
  jobs: RunningJobs;
  webhooks: WebhookDispatcher;
  /** Endpoint checks and delivery settings: the same in every role. */
  webhookSettings: WebhookSettings;
  /** This process's metrics: the API serves them at /metrics, a worker on METRICS_PORT. */
  metrics: MetricsPort;
  /** API role only. */
  api?: {
    app: Express;
    paymentChanges: PaymentChangesPort;
    rateLimiter?: RateLimiter;
    unauthenticatedLimiter?: RateLimiter;
  };
  /**
   * Wakes every long-poll so it answers now (API role): call before closing the HTTP server, so
   * the server's close does not wait for them. `close()` does it too.
   */
  wakeWaiters(): Promise<void>;
  /** Stops and closes everything opened, in order: payment changes (wakes long-polls) → webhooks → jobs → queue → limiters → dashboard → storage → chains. Safe to call twice. */
  close(): Promise<void>;
}

/** Runs `fn` once; later calls answer the first call's promise. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => (done ??= fn());
}

/**
 * The one composition root: the API process (server/main.ts) and `npm run worker`
 * (server/worker.ts) build storage, queue, chains and the asset registry, job handlers, jobs,
 * the webhook dispatcher and webhook settings here, so the two cannot drift. What it opens it
 * closes: if a step fails, what was already open is closed before the error is rethrown.
 */
export async function openRuntime(config: AppConfig, opts: RuntimeOptions): Promise<Runtime> {
  const { role, logger } = opts;
  // Closers in opening order; close() runs them in the reverse of a fixed order below.
  const closers: Partial<
    Record<
      'webhooks' | 'jobs' | 'rateLimiter' | 'unauthenticatedLimiter' | 'webhookRequestLimits' | 'dashboard' | 'paymentChanges' | 'storage' | 'chains' | 'queue',
      () => Promise<void>
    >
  > = {};
  const closeAll = once(async () => {
    // Long-polls are woken first (they answer with the payment as it is; the API process has
    // stopped accepting before), dispatching stops before jobs (it writes delivery jobs), jobs
    // before storage (handlers in flight write to it), storage before chains (a handler may still
    // be reading a chain).
    for (const name of [
      'paymentChanges',
      'webhooks',
      'jobs',
      'queue',
      'rateLimiter',
      'unauthenticatedLimiter',
      'webhookRequestLimits',
      'dashboard',
      'storage',
      'chains',
    ] as const) {
      const close = closers[name];
      if (!close) continue;
      try {
        await close();
      } catch (err) {
        logger.warn({ err, resource: name }, 'close failed; closing the rest');
      }
    }
  });

  try {
    const storage = await openConfiguredStorage(config);
    closers.storage = once(() => storage.close());
    if (role === 'api') await firstStart(storage, config, opts.print ?? ((text) => console.log(text)));

    const metrics = opts.metrics ?? createPrometheusMetrics({ processMetrics: true });
    const chains = await (opts.openChains ?? openChains)(config, logger, { onRefusal: relayerRefusalAlerts(logger, metrics) });
    // Fee accounts run dry quietly: read every minute in every process (a worker serves no
    // /readyz), so a low one is in the logs even where nothing polls readiness.
    const serviceAccounts = createServiceAccountChecks({ ports: chains.ports, clock: systemClock, logger });
    const balanceWatch = setInterval(() => void serviceAccounts.checks(), 60_000);
    balanceWatch.unref();
    closers.chains = once(() => {
      clearInterval(balanceWatch);
      return chains.close();
    });
    const assetConfigs = [...config.assets, ...chains.assets];
    const assets = createAssetRegistry(assetConfigs);
    collectScrapeGauges(metrics, { storage, clock: systemClock, serviceAccounts });
    const chainRegistry = createChainRegistry(chains.ports);
    // In the background: a start never waits on a node (server/composition/self-checks.ts).
    const selfChecks = startSelfChecks(chains.ports, assets.all(), logger);
    const closeChains = closers.chains;
    closers.chains = once(() => {
      selfChecks.stop();
      return closeChains();
    });

    // A settlement pool per chain the deployment's assets are on: the same in every process of it
    // (production assets come from the configuration alone), as BullMQ's queue per pool needs.
    const payChains = [...new Set(assetConfigs.map((a) => parseAssetId(a.id)).flatMap((id) => (id ? [formatChainId(id.chain)] : [])))].sort();
    const pools = planJobPools(JOB_POOL_RULES, payChains, config.jobSlots);
    const queue = openQueue(config, role, logger, pools.names);
    // Until jobs own it (startJobs closes the queue on stop), the queue is closed on its own.
    closers.queue = once(() => queue.close());
    const settings = webhookSettings({
      allowLoopback: config.webhookAllowLoopback,
      ownPort: config.port,
      delivery: { schedule: config.webhookRetryScheduleMs, maxInFlightPerPartner: config.webhookPartnerInFlight },
    });

    // Work committed by a handler or a request is handed on at once: to the relay (outbox jobs)
    // and to the dispatcher (payment events for webhooks). Set once both exist.
    let notify = () => {};
    const jobHandlers = buildJobHandlers({
      storage,
      clock: systemClock,
      logger,
      assets,
      chains: chainRegistry,
      onJobsWritten: () => notify(),
      webhooks: { ...settings.delivery, metrics },
      metrics,
      lateFunds: { reachMs: config.lateFundsReachDays * 86_400_000 },
    });
    const jobs = await startJobs({
      storage,
      queue,
      handlers: jobHandlers,
      clock: systemClock,
      logger,
      runWorker: role === 'worker' || config.jobWorkers,
      // Settlement (per chain), expiry, webhooks and the rest each on slots of their own.
      pools,
      maintenance: { storage, webhookDeliveryRetentionMs: config.webhookDeliveryRetentionDays * 86_400_000, lateFundsReachMs: config.lateFundsReachDays * 86_400_000 },
      metrics,
      loops: [createExpirySweep({ storage, clock: systemClock, assets, metrics, logger })], // expiry: a sweep, no job per payment
    });
    // One late-funds watcher per chain paid on (server/domain/payments/late-funds-job.ts); a second write of its id is ignored.
    await scheduleLateFunds(
      storage,
      systemClock,
      payChains.filter((c) => chainRegistry.forChain(c)),
    );
    closers.jobs = once(async () => {
      await jobs.stop();
      // No delivery is in flight once the jobs have stopped: drop the webhook fetch's kept-alive sockets.
      settings.delivery.fetch.close?.();
    });
    delete closers.queue;
    // Every process fans payment events out to webhook endpoints; claims are disjoint across processes.
    const webhooks = createWebhookDispatcher({ storage, clock: systemClock, logger, onJobsWritten: () => jobs.relay.notify() });
    webhooks.start();
    closers.webhooks = once(() => webhooks.stop());
    notify = () => {
      jobs.relay.notify();
      webhooks.notify();
    };

    const runtime: Runtime = {
      role,
      config,
      storage,
      queue,
      chains,
      chainRegistry,
      assets,
      jobHandlers,
      jobs,
      webhooks,
      webhookSettings: settings,
      metrics,
      wakeWaiters: async () => closers.paymentChanges?.(),
      close: closeAll,
    };
    if (role === 'worker') return runtime;

    const rateLimiter = await openRateLimiter(config, config.rateLimit, 'ratelimit', logger);
    if (rateLimiter) closers.rateLimiter = once(() => rateLimiter.close());
    // Its own buckets (per address, not per key) and its own bound.
    const unauthenticatedLimiter = await openRateLimiter(config, config.unauthenticatedRateLimit, 'ratelimit-unauthenticated', logger);
    if (unauthenticatedLimiter) closers.unauthenticatedLimiter = once(() => unauthenticatedLimiter.close());
    // Test events and redeliveries, in the API and the dashboard alike; shared across processes with Redis.
    const testEvents = (await openRateLimiter(config, DELIVERY_REQUEST_LIMITS.testEvents, 'webhook-test-events', logger))!;
    const redeliveries = (await openRateLimiter(config, DELIVERY_REQUEST_LIMITS.redeliveries, 'webhook-redeliveries', logger))!;
    // Options calls per payment: what one payment's options may cost the chains and the quote store.
    const optionsPerPayment = (await openRateLimiter(config, OPTIONS_PER_PAYMENT_LIMIT, 'options-per-payment', logger))!;
    closers.webhookRequestLimits = once(async () => void (await Promise.all([testEvents.close(), redeliveries.close(), optionsPerPayment.close()])));
    const dashboard = await openDashboard(config, logger);
    if (dashboard) closers.dashboard = once(() => dashboard.close());
    const paymentChanges = await openPaymentChanges(storage, logger);
    closers.paymentChanges = once(() => paymentChanges.close());

    const app = createApp({
      storage,
      paymentChanges,
      clock: systemClock,
      logger,
      assets,
      payBaseUrl: config.payBaseUrl,
      publicBaseUrl: config.publicBaseUrl,
      paymentTimes: { defaultTtlS: config.paymentDefaultTtlS, maxTtlS: config.paymentMaxTtlS },
      onJobsWritten: () => notify(),
      onEventsWritten: () => webhooks.notify(), // a create: its event, no job
      chains: chainRegistry,
      serviceAccounts,
      readiness: createReadiness({ storage, queue, chains: chains.ports, serviceAccounts, clock: systemClock, logger }),
      prices: createPriceTable(config.fxRates),
      quoteTtlS: config.quoteTtlS,
      liveQuotesPerPayment: config.liveQuotesPerPayment,
      optionsChainBoundMs: config.optionsChainBoundMs,
      onChainDropped: (chain, why) => {
        metrics.count(METRICS.optionsChainsDropped, { chain });
        logger.warn({ chain, why }, 'a chain was left out of gateway options');
      },
      feeBudget: { budget: (chain) => partnerFeeBudget(config, chain), periodS: config.feeBudgetPeriodS },
      ...(chains.routes ? { extraRoutes: chains.routes } : {}),
      ...(chains.walletChains ? { walletChains: chains.walletChains } : {}),
      ...(config.logoChecks ? { checkLogo: createLogoChecker() } : {}),
      webhookEndpoints: settings.endpoints,
      webhookRequestLimits: { testEvents, redeliveries },
      optionsPerPayment,
      ...(config.collectDataSecret ? { collectDataSecret: config.collectDataSecret } : {}),
      ...(rateLimiter ? { rateLimiter } : {}),
      ...(unauthenticatedLimiter ? { unauthenticatedLimiter } : {}),
      mode: config.mode,
      trustProxyHops: config.trustProxyHops,
      ...(dashboard ? { dashboard: dashboard.options } : {}),
      explorerTxUrls: config.explorerTxUrls,
      metrics,
      ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
    });
    runtime.api = { app, paymentChanges, ...(rateLimiter ? { rateLimiter } : {}), ...(unauthenticatedLimiter ? { unauthenticatedLimiter } : {}) };
    return runtime;
  } catch (err) {
    await closeAll();
    throw err;
  }
}
