import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { RequestContext, RequestTrace } from './context.ts';
import { bindTrace, newTraceId, parseTraceparent, runInTrace } from '../domain/trace-context.ts';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,128}$/;
/** Operations on one payment: `/v1/payments/{id}…` and `/v1/gateway/payment/{id}…`. */
const PAYMENT_PATH = /^\/v1\/(?:payments|gateway\/payment)\/\{id\}/;

/**
 * The context with its child logger built on first use (most requests at the usual level log
 * nothing). A class, not an object literal with a `get log()`: V8 allocates an own accessor's
 * getter/setter pair straight in the old generation, and that pair pointed at a closure over this
 * middleware's scope (the request, its response, the router's `next`). Old objects are roots for
 * young collections until a full one finds them dead, so every request survived the young
 * collections and was promoted: measured at ~3 MB promoted per scavenge on /healthz alone, most of
 * the API's old-generation growth under load (docs/benchmarks.md, "npm run bench -- memory").
 */
class LazyLogContext implements RequestContext {
  readonly requestId: string;
  readonly trace: RequestTrace;
  readonly #root: Logger;
  #child: Logger | undefined;
  constructor(requestId: string, trace: RequestTrace, root: Logger) {
    this.requestId = requestId;
    this.trace = trace;
    this.#root = root;
  }
  get log(): Logger {
    return (this.#child ??= this.#root.child({ requestId: this.requestId }));
  }
}

/**
 * Gives each request an id and a child logger, logs one line when the response is sent, and runs
 * the rest of the request inside its trace (server/domain/trace-context.ts), so the jobs and
 * events it writes, and every line logged meanwhile, carry the id. The id is the trace id of a
 * valid W3C `traceparent` (so this service's lines join the caller's trace), else the caller's
 * `Request-Id` / `X-Request-Id` when it is sane, else a new one (a W3C trace id too, so the webhook
 * deliveries it causes can send it on in their own `traceparent`). `Request-Id` is echoed so a
 * partner can quote it, and an accepted `traceparent` too.
 */
export function requestContext(log: Logger): RequestHandler {
  return (req, res, next) => {
    const parent = parseTraceparent(req.get('traceparent'));
    const incoming = req.get('Request-Id') ?? req.get('X-Request-Id');
    const requestId = parent?.traceId ?? (incoming && INCOMING_ID.test(incoming) ? incoming : newTraceId());
    // The trace is a plain record apart from the request: whatever outlives the request in its async
    // context (an expiry job's timer, a pooled connection) keeps these two strings, never the
    // request, its response and what they hold (measured: ~19 KB per create retained otherwise).
    const trace: RequestTrace = { traceId: requestId };
    const ctx: RequestContext = new LazyLogContext(requestId, trace, log);
    res.locals.ctx = ctx;
    res.setHeader('Request-Id', requestId);
    if (parent) res.setHeader('traceparent', parent.echo);
    runInTrace(trace, () => {
      // The access line is info; below that level no listener is added at all.
      if (log.isLevelEnabled('info')) {
        const started = process.hrtime.bigint();
        res.on(
          'finish',
          bindTrace(() => {
            const ms = Number(process.hrtime.bigint() - started) / 1e6;
            ctx.log.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10, op: ctx.operation?.operationId }, 'request');
          }),
        );
      }
      next();
    });
  };
}

/** Once the operation is matched: a request about one payment names it on its lines. */
export function traceOperation(ctx: RequestContext): void {
  const id = ctx.pathParams?.id;
  if (ctx.operation && id !== undefined && PAYMENT_PATH.test(ctx.operation.path)) ctx.trace.paymentId = id;
}
