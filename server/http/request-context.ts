import type { RequestHandler, Response } from 'express';
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
  requestId: string;
  readonly trace: RequestTrace;
  readonly callerTraceId: string | undefined;
  readonly #callerTraceparent: string | undefined;
  readonly #root: Logger;
  #child: Logger | undefined;
  constructor(requestId: string, trace: RequestTrace, root: Logger, caller: { traceId?: string | undefined; traceparent?: string | undefined }) {
    this.requestId = requestId;
    this.trace = trace;
    this.#root = root;
    this.callerTraceId = caller.traceId;
    this.#callerTraceparent = caller.traceparent;
  }
  get log(): Logger {
    return (this.#child ??= this.#root.child({ requestId: this.requestId }));
  }
  adoptCallerTrace(res: Response): void {
    if (this.callerTraceId === undefined || this.callerTraceId === this.requestId) return;
    this.requestId = this.callerTraceId;
    // The trace record is the one the request runs in: the jobs, events and lines written from
    // here on carry the caller's id.
    this.trace.traceId = this.callerTraceId;
    this.#child = undefined;
    if (!res.headersSent) {
      res.setHeader('Request-Id', this.requestId);
      if (this.#callerTraceparent) res.setHeader('traceparent', this.#callerTraceparent);
    }
  }
}

/**
 * Gives each request an id and a child logger, logs one line when the response is sent, and runs
 * the rest of the request inside its trace (server/domain/trace-context.ts), so the jobs and
 * events it writes, and every line logged meanwhile, carry the id. The id is a new one (a W3C
 * trace id, so the webhook deliveries it causes can link to it) until auth finds a partner key:
 * then the caller's own becomes it (adoptCallerTrace), the trace id of a valid W3C `traceparent`
 * or else a sane `Request-Id` / `X-Request-Id`, so a partner's lines and ours join. A wallet, an
 * App-Id caller (a buyer's browser) or a request without a key never chooses what the partner's
 * tracing sees (issue 30 item 8): their id is only logged, as `callerTraceId` on the request line.
 * `Request-Id` is echoed (the id in force), and an adopted `traceparent` too.
 */
export function requestContext(log: Logger): RequestHandler {
  return (req, res, next) => {
    const parent = parseTraceparent(req.get('traceparent'));
    const incoming = req.get('Request-Id') ?? req.get('X-Request-Id');
    const callerTraceId = parent?.traceId ?? (incoming && INCOMING_ID.test(incoming) ? incoming : undefined);
    const requestId = newTraceId();
    // The trace is a plain record apart from the request: whatever outlives the request in its async
    // context (an expiry job's timer, a pooled connection) keeps these two strings, never the
    // request, its response and what they hold (measured: ~19 KB per create retained otherwise).
    const trace: RequestTrace = { traceId: requestId };
    const ctx: RequestContext = new LazyLogContext(requestId, trace, log, { traceId: callerTraceId, traceparent: parent?.echo });
    res.locals.ctx = ctx;
    res.setHeader('Request-Id', requestId);
    runInTrace(trace, () => {
      // The access line is info; below that level no listener is added at all.
      if (log.isLevelEnabled('info')) {
        const started = process.hrtime.bigint();
        res.on(
          'finish',
          bindTrace(() => {
            const ms = Number(process.hrtime.bigint() - started) / 1e6;
            // The caller's id, when it did not become ours, stays as a link to their trace.
            const link = callerTraceId !== undefined && callerTraceId !== ctx.requestId ? { callerTraceId } : {};
            ctx.log.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10, op: ctx.operation?.operationId, ...link }, 'request');
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
