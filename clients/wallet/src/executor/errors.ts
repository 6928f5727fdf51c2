export type ActionErrorCode =
  | 'unsupported_namespace'
  | 'unknown_method'
  | 'refused_method'
  | 'missing_signer'
  | 'invalid_params'
  | 'unresolved_build'
  | 'empty_result'
  /** A transaction later actions depend on reverted (or could not be followed to its receipt). */
  | 'transaction_failed';

/**
 * Raised instead of skipping an action or returning an undefined result: either would
 * misalign the confirm results and fail the payment on the service.
 */
export class ActionExecutionError extends Error {
  readonly code: ActionErrorCode;
  /** Position in the resolved action list (after build actions were expanded). */
  readonly actionIndex: number;
  readonly chainId?: string;
  readonly method?: string;

  constructor(code: ActionErrorCode, message: string, where: { actionIndex: number; chainId?: string; method?: string }) {
    super(message);
    this.name = 'ActionExecutionError';
    this.code = code;
    this.actionIndex = where.actionIndex;
    if (where.chainId !== undefined) this.chainId = where.chainId;
    if (where.method !== undefined) this.method = where.method;
  }
}
