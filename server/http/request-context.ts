import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { RequestContext } from './context.ts';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives each request an id (the caller's `Request-Id` when it is sane) and a child logger, and
 * logs one line when the response is sent. The id is echoed so a partner can quote it.
 */
export function requestContext(log: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('Request-Id') ?? req.get('X-Request-Id');
    const requestId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    // The child logger is built on first use: most requests at the usual level log nothing.
    let child: Logger | undefined;
    const ctx: RequestContext = {
      requestId,
      get log() {
        return (child ??= log.child({ requestId }));
      },
    };
    res.locals.ctx = ctx;
    res.setHeader('Request-Id', requestId);
    // The access line is info; below that level no listener is added at all.
    if (!log.isLevelEnabled('info')) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      ctx.log.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10, op: ctx.operation?.operationId }, 'request');
    });
    next();
  };
}
