import type { Request, Response, NextFunction, RequestHandler } from 'express';
import type { SpecTypes } from '../../generated/types/versions.ts';
import type { LatestApiVersion } from '../domain/vocabulary.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { contextOf, type RequestContext } from './context.ts';
import type { OperationInfo } from './openapi-docs.ts';

/**
 * Handler types derived from the generated OpenAPI types, one per operationId. The handlers
 * object must satisfy `OperationHandlers`, so an operation added to the spec without a handler,
 * or a handler answering a shape the spec does not declare, fails `tsc`.
 * Handlers are typed against the newest version: older versions are subsets of it.
 */
type Ops = SpecTypes[LatestApiVersion]['operations'];
export type OperationId = keyof Ops;

type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;
type Params<K extends OperationId> = Ops[K]['parameters'];
type BodyOf<K extends OperationId> = [NonNullable<Ops[K]['requestBody']>] extends [never] ? undefined : JsonOf<NonNullable<Ops[K]['requestBody']>>;
type SuccessStatus = 200 | 201 | 202 | 204;
type SuccessOf<K extends OperationId> = {
  [S in keyof Ops[K]['responses'] & SuccessStatus]: { status: S; body: JsonOf<Ops[K]['responses'][S]>; headers?: Record<string, string> };
}[keyof Ops[K]['responses'] & SuccessStatus];

export interface HandlerInput<K extends OperationId> {
  path: Params<K> extends { path: infer P } ? P : never;
  query: Params<K> extends { query?: infer Q } ? NonNullable<Q> : never;
  body: BodyOf<K>;
  ctx: RequestContext;
}

export type OperationHandler<K extends OperationId> = (input: HandlerInput<K>) => Promise<SuccessOf<K>>;
export type OperationHandlers = { [K in OperationId]: OperationHandler<K> };

/**
 * A JSON answer written directly. Express's `res.json` re-parses and re-formats the content type
 * and runs freshness checks that never apply here; where responses are validated (tests), the
 * validator wraps `res.json`, so that path is kept for it.
 */
function sendJson(res: Response, status: number, body: unknown): void {
  if (res.locals.validatesResponses) return void res.status(status).json(body);
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * Calls the handler of the operation the route table matched. Routing is done once, by the
 * spec's own route table; there is no second router to keep in step with it.
 */
export function dispatchOperations(ops: OperationInfo[], handlers: OperationHandlers, storage: StoragePort): RequestHandler {
  for (const op of ops) {
    if (typeof handlers[op.operationId as OperationId] !== 'function') throw new Error(`no handler for operation ${op.operationId}`);
  }
  return async (req: Request, res: Response, next: NextFunction) => {
    const ctx = contextOf(res);
    const op = ctx.operation;
    if (!op) return next();
    const handler = handlers[op.operationId as OperationId] as unknown as (
      input: HandlerInput<OperationId>,
    ) => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>;
    ctx.merchantId = req.get('Merchant-Id');
    try {
      const out = await handler({ path: (ctx.pathParams ?? {}) as never, query: ctx.query ?? {}, body: req.body as never, ctx });
      if (ctx.idempotency && !ctx.idempotency.storedAtomically) {
        await storage.idempotency.complete({ partnerId: ctx.partner!.id, key: ctx.idempotency.key, statusCode: out.status, body: out.body ?? null });
      }
      if (op.deprecated) res.setHeader('Deprecation', 'true');
      for (const [name, value] of Object.entries(out.headers ?? {})) res.setHeader(name, value);
      if (out.status === 204) res.status(204).end();
      else sendJson(res, out.status, out.body);
    } catch (err) {
      // A failed request stores nothing (release only drops an uncompleted claim), so the key
      // may be used again for a corrected request.
      if (ctx.idempotency && ctx.partner) {
        await storage.idempotency.release(ctx.partner.id, ctx.idempotency.key).catch((e: unknown) => ctx.log.error({ err: e }, 'idempotency release failed'));
      }
      next(err);
    }
  };
}
