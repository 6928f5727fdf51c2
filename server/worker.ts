import { pino } from 'pino';
import { assertWorkerConfig, ConfigError, loadConfig } from './config.ts';
import { openRuntime, type Runtime } from './composition/runtime.ts';
import { traceLogFields } from './domain/trace-context.ts';
import { startMetricsServer, type MetricsServer } from './http/metrics.ts';

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
  // Every line written inside a request's or a job's trace carries its traceId and paymentId.
  const logger = pino({ level: config.logLevel, mixin: traceLogFields });
  // Signal handlers go in before anything starts: a SIGTERM during start-up then waits for it and
  // stops cleanly, instead of killing the process with the default action.
  let running: Promise<Runtime> | null = null;
  let opened: Runtime | null = null;
  let metricsServer: Promise<MetricsServer | null> = Promise.resolve(null);
  let stopping = false;
  const boundMs = config.workerShutdownTimeoutS * 1000;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    const jobsInFlight = opened?.jobs.inFlight() ?? 0;
    logger.info({ signal, jobsInFlight, boundS: boundMs / 1000 }, 'worker shutting down; taking no new jobs, waiting for jobs in flight');
    // Past the bound the jobs still running are left to BullMQ: their locks lapse and another
    // worker's stalled-job check runs them again (handlers are idempotent; see run-worker.ts).
    setTimeout(() => {
      logger.error({ jobsInFlight: opened?.jobs.inFlight() ?? 0, durationMs: Date.now() - started }, 'worker shutdown bound passed; jobs in flight are left to other workers');
      process.exit(1);
    }, boundMs).unref();
    // The metrics server goes last: a scrape during the drain still sees the jobs in flight.
    Promise.resolve(running)
      .then((r) => r?.close())
      .then(() => metricsServer)
      .then((s) => s?.close())
      .then(
        () => {
          logger.info({ jobsInFlight, durationMs: Date.now() - started }, 'worker shut down');
          process.exit(0);
        },
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
  opened = runtime;
  const metricsPort = config.metricsPort;
  if (metricsPort !== undefined) {
    metricsServer = startMetricsServer({
      port: metricsPort,
      host: config.host,
      metrics: runtime.metrics,
      production: config.mode === 'production',
      ...(config.metricsToken ? { token: config.metricsToken } : {}),
    });
    await metricsServer;
  }
  logger.info({ jobTypes: Object.keys(runtime.jobHandlers), metricsPort: metricsPort ?? null }, 'worker started');
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(err instanceof ConfigError ? EXIT_CONFIG : 1);
});
