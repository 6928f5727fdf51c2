import type { Exact, SpecErrorCode } from './domain/vocabulary.ts';

/**
 * Every failure the service reports, by stable code. The HTTP status of a code lives here and
 * only here; handlers throw `AppError`s and `http/error-handler.ts` turns them into bodies.
 * Every code the spec declares on an operation is here (checked below at compile time, and its
 * status against the spec's by errors.test.ts); the few others are UNDECLARED_ERROR_CODES.
 */
export const ERROR_STATUS = {
  params_validation: 400,
  invalid_params: 400,
  missing_idempotency_key: 400,
  invalid_api_version: 400,
  unknown_api_version: 400,
  api_version_downgrade: 400,
  conflicting_auth_headers: 400,
  invalid_state: 400,
  payment_not_succeeded: 400,
  merchant_not_payable: 400,
  currency_not_priceable: 400,
  // The reference answers a deleted merchant with 400 on the operations that name it (no 404 there).
  merchant_not_found: 400,
  invalid_results: 400,
  // 400 as the reference's confirm declares (it has no 422): a wallet treats it as a refused request.
  invalid_signature: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  missing_app_id: 401,
  missing_client_id: 401,
  missing_merchant_id: 401,
  forbidden: 403,
  not_found: 404,
  payment_not_found: 404,
  option_not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  idempotency_in_progress: 409,
  settlement_asset_conflict: 409,
  already_refunded: 409,
  quote_expired: 409,
  transaction_already_used: 409,
  webhook_endpoint_limit: 409,
  payment_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  bad_gateway: 502,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Codes the service answers with that no operation in the spec declares: they come from the
 * HTTP layer before any operation is matched (wrong method, non-JSON body) or from the health
 * check, never from an operation's own rules.
 */
export const UNDECLARED_ERROR_CODES = ['method_not_allowed', 'unsupported_media_type', 'service_unavailable'] as const satisfies readonly ErrorCode[];

// A code the spec declares that is not in ERROR_STATUS, or a code here that is neither declared
// nor listed as undeclared, fails typecheck.
const _specCodesAreAllHere: Exact<SpecErrorCode | (typeof UNDECLARED_ERROR_CODES)[number], ErrorCode> = true;

export interface ValidationIssue {
  field: string;
  message: string;
}

export interface ErrorBody {
  message: string;
  code: ErrorCode;
  details?: Record<string, unknown>;
  issues?: ValidationIssue[];
}

/** A failure with a stable code; `status` follows from the code, so callers cannot disagree. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly issues: ValidationIssue[] | undefined;

  constructor(code: ErrorCode, message: string, extra: { details?: Record<string, unknown>; issues?: ValidationIssue[]; status?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = extra.status ?? ERROR_STATUS[code];
    this.details = extra.details;
    this.issues = extra.issues;
  }

  toBody(): ErrorBody {
    return {
      message: this.message,
      code: this.code,
      ...(this.details ? { details: this.details } : {}),
      ...(this.issues ? { issues: this.issues } : {}),
    };
  }
}

/** 400 `params_validation` with one issue per failing field. */
export function validationError(issues: ValidationIssue[], message = 'Validation failed'): AppError {
  return new AppError('params_validation', message, { issues });
}

export function notFound(what = 'Not found'): AppError {
  return new AppError('not_found', what);
}
