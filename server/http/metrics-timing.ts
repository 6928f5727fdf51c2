import type { Request, RequestHandler } from 'express';
import type { MetricsPort } from '../ports/metrics.ts';
import { METRICS } from '../ports/metric-catalog.ts';
import { contextOf } from './context.ts';

/** The route of a request no operation or page matched: one value, however many paths are probed. */
export const UNMATCHED_ROUTE = 'unmatched';

/** OpenTelemetry's known methods; anything else is `_OTHER`, so a made-up method is not a series. */
const KNOWN_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/**
 * The route template of a request, never its path: the API operation's OpenAPI path
 * (`/v1/payments/{paymentId}`, known once the route table matched, even when auth then refused),
 * else the Express route that answered (pages, /healthz, the sandbox's routes), written the
 * OpenAPI way; else `unmatched`.
 */
function routeOf(req: Request, operationPath: string | undefined): string {
  if (operationPath) return operationPath;
  const route: unknown = req.route;
  const path = route && typeof route === 'object' && 'path' in route ? route.path : undefined;
  if (typeof path !== 'string') return UNMATCHED_ROUTE;
  return `${req.baseUrl}${path}`.replace(/:(\w+)/g, '{$1}');
}

/** Times every request into `http_server_request_duration_seconds`, labelled by route template. */
export function httpMetrics(metrics: MetricsPort): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observe(
        METRICS.httpDuration,
        {
          http_request_method: KNOWN_METHODS.has(req.method) ? req.method : '_OTHER',
          http_route: routeOf(req, contextOf(res)?.operation?.path),
          http_response_status_code: res.statusCode,
        },
        seconds,
      );
    });
    next();
  };
}
