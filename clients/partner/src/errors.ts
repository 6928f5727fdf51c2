import type { ValidationIssue } from './contract.ts';

/**
 * Every non-2xx answer of the service, as its documented error body `{ message, code, details?,
 * issues? }` plus the HTTP status and the `Request-Id` header (quote it when asking for support).
 * Bodies that are not the documented shape (a proxy's HTML page, say) get code `unexpected_response`.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly issues: ValidationIssue[] | undefined;
  readonly requestId: string | undefined;

  constructor(init: { status: number; code: string; message: string; details?: Record<string, unknown>; issues?: ValidationIssue[]; requestId?: string }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.issues = init.issues;
    this.requestId = init.requestId;
  }
}

/** Thrown by `payments.waitForFinal` when `timeoutMs` passes before the payment is final. */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
  /** The last status seen, if any poll answered. */
  readonly lastStatus: string | undefined;

  constructor(timeoutMs: number, lastStatus: string | undefined) {
    super(`payment not final after ${timeoutMs} ms${lastStatus ? ` (last status: ${lastStatus})` : ''}`);
    this.lastStatus = lastStatus;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIssue(value: unknown): value is ValidationIssue {
  return isRecord(value) && typeof value.field === 'string' && typeof value.message === 'string';
}

/** Builds the ApiError for a failed response from the body openapi-fetch already parsed. */
export function toApiError(response: Response, body: unknown): ApiError {
  const requestId = response.headers.get('Request-Id') ?? undefined;
  const base = { status: response.status, ...(requestId ? { requestId } : {}) };
  if (isRecord(body) && typeof body.code === 'string' && typeof body.message === 'string') {
    const issues = Array.isArray(body.issues) ? body.issues.filter(isIssue) : undefined;
    return new ApiError({ ...base, code: body.code, message: body.message, ...(isRecord(body.details) ? { details: body.details } : {}), ...(issues ? { issues } : {}) });
  }
  const text = typeof body === 'string' ? body.slice(0, 200) : '';
  return new ApiError({
    ...base,
    code: 'unexpected_response',
    message: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${text ? `: ${text}` : ''}`,
  });
}
