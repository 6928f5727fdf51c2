import { pino } from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { openRuntime } from './composition/runtime.ts';

/** The API process: config → runtime (server/composition/runtime.ts) → listen → signals → close. */
async function main() {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  const runtime = await openRuntime(config, { role: 'api', logger });
  const server = runtime.api!.app.listen(config.port, config.host, () => {
    logger.info(
      {
        port: config.port,
        mode: config.mode,
        storage: config.databaseUrl ? 'postgresql' : `pglite:${config.dataDir}`,
        queue: config.redisUrl ? 'bullmq' : 'inline',
        jobWorkers: config.jobWorkers,
        rateLimit: config.rateLimit ? `${config.rateLimit.perSecond}/s per key, burst ${config.rateLimit.burst}${config.redisUrl ? ', shared in Redis' : ''}` : 'off',
        unauthenticatedRateLimit: config.unauthenticatedRateLimit
          ? `${config.unauthenticatedRateLimit.perSecond}/s per address, burst ${config.unauthenticatedRateLimit.burst}`
          : 'off',
      },
      'listening',
    );
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), 10_000).unref();
    // Long-polls answer now with the payment as it is, so the server's close need not wait for
    // them; storage closes only after they did.
    void runtime.wakeWaiters();
    server.close(() => {
      void runtime.close().finally(() => process.exit(0));
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});
