import type { Server, ServerResponse } from 'node:http';
import { pino, type Logger } from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { openRuntime, type Runtime } from './composition/runtime.ts';
import { traceLogFields } from './domain/trace-context.ts';

/** Time kept from the bound for closing jobs, the queue and storage after the last request. */
const CLOSE_RESERVE_MS = 2000;

/**
 * SIGTERM: stop accepting connections → wake long-polls (they answer with the payment as it is)
 * → let requests in flight finish, up to the bound less a reserve, then cut them → close the
 * runtime (jobs → queue → storage). Exits 0 when nothing was cut, 1 otherwise or at the bound.
 */
function gracefulShutdown(server: Server, runtime: Runtime, logger: Logger, boundMs: number): (signal: string) => void {
  // Requests being served, so shutdown can say how many it waited for and close their
  // connections once they are answered: a keep-alive connection must not hold the close open.
  const inFlight = new Set<ServerResponse>();
  let stopping = false;
  const closeAfterAnswer = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  server.on('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    if (stopping) closeAfterAnswer(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
  });
  return (signal) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    const requestsInFlight = inFlight.size;
    logger.info({ signal, requestsInFlight, boundS: boundMs / 1000 }, 'shutting down');
    setTimeout(() => {
      logger.error({ requestsInFlight: inFlight.size, durationMs: Date.now() - started }, 'shutdown bound passed; exiting');
      process.exit(1);
    }, boundMs).unref();
    for (const res of inFlight) closeAfterAnswer(res);
    const httpClosed = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    let requestsCut = 0;
    const cut = setTimeout(
      () => {
        requestsCut = inFlight.size;
        logger.warn({ requestsCut }, 'requests still in flight at the shutdown bound; closing their connections');
        server.closeAllConnections();
      },
      Math.max(boundMs - CLOSE_RESERVE_MS, boundMs / 2),
    );
    void (async () => {
      await runtime.wakeWaiters();
      await httpClosed;
      clearTimeout(cut);
      await runtime.close();
      logger.info({ requestsInFlight, requestsCut, durationMs: Date.now() - started }, 'shut down');
      process.exit(requestsCut ? 1 : 0);
    })();
  };
}

/** The API process: config → runtime (server/composition/runtime.ts) → listen → signals → close. */
async function main() {
  const config = loadConfig();
  // Every line written inside a request's or a job's trace carries its traceId and paymentId.
  const logger = pino({ level: config.logLevel, mixin: traceLogFields });
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
  const shutdown = gracefulShutdown(server, runtime, logger, config.shutdownTimeoutS * 1000);
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});
