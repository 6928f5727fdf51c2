import { pino } from 'pino';
import { assertWorkerConfig, ConfigError, loadConfig } from './config.ts';
import { openRuntime, type Runtime } from './composition/runtime.ts';

/** Exit code for a configuration that cannot run a separate worker. */
const EXIT_CONFIG = 2;

/**
 * `npm run worker`: a process that only relays the outbox, dispatches webhook events and runs
 * jobs, beside any number of API processes. It is built by the same composition root as the API
 * (server/composition/runtime.ts), so both run the same job handlers with the same settings.
 */
async function main() {
  const config = loadConfig();
  assertWorkerConfig(config);
  const logger = pino({ level: config.logLevel });
  // Signal handlers go in before anything starts: a SIGTERM during start-up then waits for it and
  // stops cleanly, instead of killing the process with the default action.
  let running: Promise<Runtime> | null = null;
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down; waiting for jobs in flight');
    setTimeout(() => process.exit(1), 30_000).unref();
    Promise.resolve(running)
      .then((r) => r?.close())
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

  running = openRuntime(config, { role: 'worker', logger });
  const runtime = await running;
  logger.info({ jobTypes: Object.keys(runtime.jobHandlers) }, 'worker started');
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(err instanceof ConfigError ? EXIT_CONFIG : 1);
});
