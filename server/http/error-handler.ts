import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, type ValidationIssue } from '../errors.ts';
import { contextOf } from './context.ts';

/** Shape of the errors express-openapi-validator and body-parser raise. */
type FrameworkError = {
  status?: number;
  type?: string;
  errors?: Array<{ path?: string; message?: string; errorCode?: string }>;
  message?: string;
};

/** `/body/settlements/0/asset` or `.body.settlements[0].asset` → `settlements[0].asset`; `.query.limit` → `query.limit`. */
export function issueField(path: string | undefined): string {
  if (!path) return 'request';
  const parts = path
    .replace(/\[(\d+)\]/g, '.$1')
    .split(/[./]/)
    .filter(Boolean);
  if (parts[0] === 'body') parts.shift();
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out.replace(/^headers\./, 'header.') || 'body';
}

function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const e = err as FrameworkError;
  if (!e || typeof e !== 'object') return null;
  if (e.type === 'entity.parse.failed') return new AppError('invalid_params', 'The request body is not valid JSON');
  if (e.type === 'entity.too.large' || e.status === 413) return new AppError('payload_too_large', 'The request body is larger than 1 MB');
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported' || e.status === 415) {
    return new AppError('unsupported_media_type', 'Send the body as application/json (UTF-8)');
  }
  // Express's router could not percent-decode a path parameter (`/pay/%ED%A0%80`: not UTF-8).
  if (err instanceof URIError && e.status === 400)
    return new AppError('params_validation', 'Validation failed', { issues: [{ field: 'path', message: 'is not valid percent-encoded UTF-8' }] });
  // body-parser's other refusals (a gzip/deflate/br body that does not decode, an aborted or
  // short body) carry a 400 and no type of their own: the body could not be read.
  if (e.status === 400 && !Array.isArray(e.errors) && (e as { expose?: boolean }).expose === true)
    return new AppError('invalid_params', 'The request body could not be read (check its Content-Encoding and length)');
  if (e.status === 405) return new AppError('method_not_allowed', 'This path does not accept this method');
  if (e.status === 404) return new AppError('not_found', 'Not found');
  if (e.status === 400 && Array.isArray(e.errors)) {
    const issues: ValidationIssue[] = e.errors.map((x) => ({ field: issueField(x.path), message: x.message ?? 'is invalid' }));
    return new AppError('params_validation', 'Validation failed', { issues });
  }
  return null;
}

/** Turns every failure into the documented error body; nothing internal leaves the process. */
export function errorHandler(): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const ctx = contextOf(res);
    const known = toAppError(err);
    const appError = known ?? new AppError('internal_error', 'Internal error', { details: { requestId: ctx?.requestId } });
    if (!known) ctx?.log.error({ err }, 'unhandled error');
    else if (appError.status >= 500) ctx?.log.error({ err }, appError.code);
    if (res.headersSent) return;
    if (appError.code === 'rate_limited') res.setHeader('Retry-After', String(Number(appError.details?.retryAfterS ?? 1)));
    try {
      res.status(appError.status).json(appError.toBody());
    } catch (err2) {
      // Only response validation (tests) can throw here; still answer in the error shape.
      ctx?.log.error({ err: err2 }, 'error response rejected');
      if (!res.headersSent)
        res
          .status(500)
          .type('application/json')
          .end(JSON.stringify({ message: 'Internal error', code: 'internal_error' }));
    }
  };
}

/** For paths the spec does not describe. */
export function notFoundHandler(): RequestHandler {
  return (_req, _res, next) => next(new AppError('not_found', 'No such endpoint'));
}
