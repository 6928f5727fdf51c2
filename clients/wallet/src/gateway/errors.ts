/** One field-level problem reported by the service on a validation error. */
export interface GatewayIssue {
  field: string;
  message: string;
}

/**
 * An error answer from the gateway, carrying the documented body
 * `{ message, code, details?, issues? }` plus the HTTP status.
 */
export class GatewayError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: Record<string, unknown>;
  readonly issues?: GatewayIssue[];

  constructor(init: { status: number; code: string; message: string; details?: Record<string, unknown>; issues?: GatewayIssue[] }) {
    super(init.message);
    this.name = 'GatewayError';
    this.status = init.status;
    this.code = init.code;
    if (init.details !== undefined) this.details = init.details;
    if (init.issues !== undefined) this.issues = init.issues;
  }
}

/**
 * The payment (410) or its quote (409 `quote_expired`) has expired. Wallets should tell the
 * buyer and offer to start again: with fresh options for an expired quote, or with a new link
 * for an expired payment.
 */
export class PaymentExpiredError extends GatewayError {
  /** `quote`: re-fetching options can continue; `payment`: the link itself is dead. */
  readonly expired: 'payment' | 'quote';

  constructor(init: ConstructorParameters<typeof GatewayError>[0]) {
    super(init);
    this.name = 'PaymentExpiredError';
    this.expired = init.status === 410 ? 'payment' : 'quote';
  }
}

/** The service could not be reached (or kept failing at the network level) after all retries. */
export class GatewayNetworkError extends Error {
  readonly attempts: number;

  constructor(message: string, attempts: number, cause: unknown) {
    super(message, { cause });
    this.name = 'GatewayNetworkError';
    this.attempts = attempts;
  }
}

/** A success answer that does not have the documented shape; never retried. */
export class GatewayProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GatewayProtocolError';
  }
}

/** Builds the right error class for a failed answer so callers can branch with `instanceof`. */
export function errorFromResponse(status: number, body: unknown, statusText: string): GatewayError {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const init = {
    status,
    code: typeof record.code === 'string' ? record.code : `http_${status}`,
    message: typeof record.message === 'string' ? record.message : statusText || `HTTP ${status}`,
    ...(isPlainObject(record.details) ? { details: record.details } : {}),
    ...(Array.isArray(record.issues) ? { issues: record.issues.filter(isIssue) } : {}),
  };
  if (status === 410 || (status === 409 && init.code === 'quote_expired')) return new PaymentExpiredError(init);
  return new GatewayError(init);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIssue(value: unknown): value is GatewayIssue {
  return isPlainObject(value) && typeof value.field === 'string' && typeof value.message === 'string';
}
