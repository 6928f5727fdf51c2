import { pino } from 'pino';
import { createBullmqQueue } from '../adapters/queue/bullmq/index.ts';
import { ConfigError, loadConfig } from './config.ts';
import { buildJobHandlers } from './jobs/handlers.ts';
import { startJobs } from './jobs/start-jobs.ts';
import { systemClock } from './ports/clock.ts';
import { createAssetRegistry } from './domain/assets.ts';
import { openChains } from './chains-setup.ts';
import { createChainRegistry } from './ports/chains.ts';
import { openConfiguredStorage } from './storage.ts';
import { createWebhookDispatcher } from './domain/webhooks/dispatcher.ts';

/** Exit code for a configuration that cannot run a separate worker. */
const EXIT_CONFIG = 2;

/**
 * `npm run worker`: a process that only relays the outbox and runs jobs, beside any number of
 * API processes. It needs a durable queue (REDIS_URL) that the API processes also use: with the
 * inline queue, jobs live in one process's memory and a separate worker would never see them.
 * It also needs a PostgreSQL server (DATABASE_URL): an embedded PGlite directory cannot be opened
 * by two processes at once.
 */
async function main() {
  const config = loadConfig();
  if (config.mode === 'sandbox') {
    console.error('worker: the sandbox chains live inside the API process, so in sandbox mode jobs run there (JOB_WORKERS=on); run separate workers with SERVICE_MODE=production and real chain RPC URLs.');
    process.exit(EXIT_CONFIG);
  }
  if (!config.redisUrl || !config.databaseUrl) {
    const missing = [config.redisUrl ? null : 'REDIS_URL', config.databaseUrl ? null : 'DATABASE_URL'].filter(Boolean).join(' and ');
    console.error(
      `worker: ${missing} must be set. A separate worker process needs a durable queue (Redis, shared with the API processes) ` +
        'and a PostgreSQL server; in the embedded mode (no REDIS_URL) the API process runs jobs itself with the inline queue.',
    );
    process.exit(EXIT_CONFIG);
  }
  const logger = pino({ level: config.logLevel });
  // Signal handlers go in before anything starts: a SIGTERM during start-up then waits for it and
  // stops cleanly, instead of killing the process with the default action.
  let running: Promise<{ stop(): Promise<void> }> | null = null;
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down; waiting for jobs in flight');
    setTimeout(() => process.exit(1), 30_000).unref();
    Promise.resolve(running)
      .then((r) => r?.stop())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'worker shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  const redisUrl = config.redisUrl;
  running = (async () => {
    const storage = await openConfiguredStorage(config);
    const queue = createBullmqQueue({ redisUrl, logger });
    // A separate worker submits transfers, so it connects to the configured (production) chains.
    const chains = await openChains(config);
    const handlers = buildJobHandlers({ storage, clock: systemClock, logger, assets: createAssetRegistry([...config.assets, ...chains.assets]), chains: createChainRegistry(chains.ports), webhooks: { ownPort: config.port } });
    const jobs = await startJobs({ storage, queue, handlers, clock: systemClock, logger, concurrency: 4, maintenance: { storage } });
    // Workers fan payment events out to webhook endpoints too; claims are disjoint across processes.
    const webhooks = createWebhookDispatcher({ storage, clock: systemClock, logger, onJobsWritten: () => jobs.relay.notify() });
    webhooks.start();
    logger.info({ jobTypes: Object.keys(handlers) }, 'worker started');
    return {
      async stop() {
        await webhooks.stop();
        await jobs.stop();
        await storage.close();
      },
    };
  })();
  await running;
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(err instanceof ConfigError ? EXIT_CONFIG : 1);
});
