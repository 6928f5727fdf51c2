import type { Response } from 'express';
import type { Logger } from 'pino';
import type { ApiKeyRecord, PartnerRecord } from '../domain/partners/records.ts';
import type { IdempotencyCompletion } from '../domain/idempotency/records.ts';
import type { OperationInfo } from './openapi-docs.ts';

/** What the middleware chain learns about a request, for the handler. */
/**
 * The trace the request runs in (server/domain/trace-context.ts): its id, and the payment it is
 * about once known (a path's payment when the operation is matched, the payment a create made).
 */
export interface RequestTrace {
  /** This service's id until a partner key proves the caller may choose it (adoptCallerTrace). */
  traceId: string;
  paymentId?: string;
}

export interface RequestContext {
  requestId: string;
  trace: RequestTrace;
  log: Logger;
  /**
   * The trace id the caller sent (`traceparent`, else `Request-Id`), while it is only a link: it
   * becomes this request's id for partner keys alone (issue 30 item 8), and is logged beside it
   * otherwise.
   */
  callerTraceId?: string;
  /** Makes the caller's trace id this request's, once auth has found a partner key. */
  adoptCallerTrace(res: Response): void;
  operation?: OperationInfo;
  /** Path parameters of the matched operation (coerced by validation). */
  pathParams?: Record<string, string>;
  /** The query after validation coerced it (numbers, lists). */
  query?: Record<string, unknown>;
  partner?: PartnerRecord;
  key?: ApiKeyRecord;
  apiVersion?: string;
  /** The `Merchant-Id` header, on operations that declare it (the validator has checked it is there). */
  merchantId?: string;
  idempotency?: IdempotencyScope;
}

/** An idempotency key claimed for this request. */
export interface IdempotencyScope {
  key: string;
  requestHash: string;
  /**
   * The completion to hand to the storage write that creates the resource, so the stored answer
   * commits with it. Calling it tells the wrapper the answer is already stored.
   */
  completeWith(statusCode: number, body: unknown): IdempotencyCompletion;
  storedAtomically: boolean;
}

export function contextOf(res: Response): RequestContext {
  return res.locals.ctx as RequestContext;
}

/** The authenticated partner; the auth middleware guarantees it on partner operations. */
export function partnerOf(ctx: RequestContext): PartnerRecord {
  if (!ctx.partner) throw new Error('no authenticated partner on this request');
  return ctx.partner;
}
