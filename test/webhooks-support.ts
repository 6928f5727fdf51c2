import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { startTestApp, TEST_ASSETS } from './helpers/test-app.ts';
import { buildJobHandlers } from '../server/jobs/handlers.ts';
import { webhookSettings } from '../server/composition/webhooks.ts';
import { startJobs } from '../server/jobs/start-jobs.ts';
import { createExpirySweep } from '../server/jobs/expiry-sweep.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { systemClock } from '../server/ports/clock.ts';
import { createWebhookDispatcher } from '../server/jobs/webhook-dispatcher.ts';
import type { QueuePort } from '../server/ports/queue.ts';
import type { StoragePort } from '../server/ports/storage/index.ts';
import type { AppDeps } from '../server/app.ts';

/** One request a receiver saw: headers and the body exactly as sent. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A real local webhook receiver on 127.0.0.1. `respond` decides each answer (200 by default);
 * `stop()` closes it (the port then refuses connections) and `restart()` listens on the same port.
 */
export async function startReceiver(respond: (r: Received, n: number) => number | { status: number; headers?: Record<string, string> } = () => 200) {
  const received: Received[] = [];
  let answer = respond;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { path: req.url ?? '/', headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString('utf8') };
      received.push(r);
      const out = answer(r, received.length);
      const o = typeof out === 'number' ? { status: out } : out;
      res.writeHead(o.status, o.headers ?? {}).end('ok');
    });
  });
  server.keepAliveTimeout = 1;
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    respond(fn: typeof respond) {
      answer = fn;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    restart: () => listen(port),
  };
}

/** Polls until `check` is true or the deadline passes; answers whether it became true. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/**
 * The whole delivery path as a process runs it: the test app, the job runner on `queue` with the
 * webhook handlers (loopback endpoints allowed) and the dispatcher, each notified when the app
 * commits events or jobs. `close()` stops them in reverse order.
 */
export async function startWebhookStack(
  storage: StoragePort,
  opts: { queue: QueuePort; schedule: number[]; concurrency: number; /** More of the app's options (a dashboard). */ app?: Partial<AppDeps> },
) {
  const logger = pino({ level: 'silent' });
  const assets = createAssetRegistry(TEST_ASSETS);
  const handlers = buildJobHandlers({
    storage,
    clock: systemClock,
    logger,
    assets,
    webhooks: webhookSettings({ allowLoopback: true, delivery: { timeoutMs: 2000, schedule: opts.schedule } }).delivery,
  });
  const loops = [createExpirySweep({ storage, clock: systemClock, logger, assets })];
  const jobs = await startJobs({ storage, queue: opts.queue, handlers, clock: systemClock, logger, relayIntervalMs: 100, concurrency: opts.concurrency, loops });
  const dispatcher = createWebhookDispatcher({ storage, clock: systemClock, logger, intervalMs: 100, onJobsWritten: () => jobs.relay.notify() });
  dispatcher.start();
  const t = await startTestApp(storage, {
    ...opts.app,
    clock: systemClock,
    allowLoopbackEndpoints: true,
    onJobsWritten: () => {
      jobs.relay.notify();
      dispatcher.notify();
    },
  });
  return {
    t,
    dispatcher,
    async close() {
      await dispatcher.stop();
      await jobs.stop();
      await t.close();
    },
  };
}
