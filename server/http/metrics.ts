import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '../errors.ts';
import type { MetricsPort } from '../ports/metrics.ts';

export interface MetricsAccess {
  metrics: MetricsPort;
  /** METRICS_TOKEN: when set, a scrape must send `Authorization: Bearer <token>`; absent, anyone may read (sandbox). */
  token?: string;
  /**
   * Production mode: without a token nobody may read (403), so payment volumes and failure rates are
   * never public by default (issue 30 item 7); the doctor warns about the missing token.
   */
  production?: boolean;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether the request may read the metrics. The token is compared as digests of equal length
 * in constant time, so neither its length nor a matching prefix shows in the answer's timing.
 */
function refusal(req: IncomingMessage, token: string | undefined, production: boolean): AppError | null {
  if (token === undefined) {
    return production ? new AppError('forbidden', 'Metrics are closed in production mode until METRICS_TOKEN is set; then scrape with Authorization: Bearer <token>') : null;
  }
  const header = req.headers.authorization;
  if (!header) return new AppError('missing_api_key', 'Send the metrics token as Authorization: Bearer <token>');
  const given = /^Bearer (.+)$/i.exec(header)?.[1] ?? '';
  if (!timingSafeEqual(digest(given), digest(token))) return new AppError('invalid_api_key', 'The metrics token is not valid');
  return null;
}

/** Whether the request brings the metrics token (false when none is set): who may see /readyz's details. */
export const bringsMetricsToken = (req: IncomingMessage, token: string | undefined): boolean => token !== undefined && refusal(req, token, true) === null;

function sendError(res: ServerResponse, err: AppError) {
  res.statusCode = err.status;
  if (err.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify(err.toBody()));
}

/**
 * `GET /metrics` for both the API (an Express route ahead of the API's auth and rate limits: a
 * scraper holds no API key) and a worker's own small server. Plain node:http types, which
 * Express's request and response extend.
 */
export function metricsHandler(access: MetricsAccess): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const refused = refusal(req, access.token, access.production === true);
    if (refused) return sendError(res, refused);
    access.metrics.exposition().then(
      ({ contentType, text }) => {
        res.statusCode = 200;
        res.setHeader('Content-Type', contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => sendError(res, new AppError('internal_error', 'The metrics could not be collected')),
    );
  };
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A worker's metrics endpoint (METRICS_PORT): a worker serves no API, so this server answers
 * `GET /metrics` and nothing else.
 */
export async function startMetricsServer(opts: MetricsAccess & { port: number; host: string }): Promise<MetricsServer> {
  const handle = metricsHandler(opts);
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return sendError(res, new AppError('not_found', 'No such endpoint'));
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, new AppError('method_not_allowed', `${req.method} is not supported on this path`));
    handle(req, res);
  });
  // A scraper keeps its connection between scrapes; a stuck one must not hold a socket for good.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
