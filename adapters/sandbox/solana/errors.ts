import type { FailedTransactionMetadata } from 'litesvm';

// Names of LiteSVM's `TransactionErrorFieldless` (a const enum, not importable at run time), in order.
const FIELDLESS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const;

/** A LiteSVM failure as the RPC would show it: a readable message and the `err` JSON value. */
export interface SandboxTxError {
  message: string;
  /** Shaped like the RPC's `TransactionError`: a string, or `{ InstructionError: [index, detail] }`. */
  json: string | Record<string, unknown>;
}

/** Converts LiteSVM's error classes (numbers and napi objects) into RPC-like values. */
export function describeFailure(failed: FailedTransactionMetadata): SandboxTxError {
  const err: unknown = failed.err();
  if (typeof err === 'number') {
    const name = FIELDLESS[err] ?? `TransactionError${err}`;
    return { message: name, json: name };
  }
  if (err && typeof err === 'object' && 'index' in err) {
    const instructionError = err as unknown as { index: number; err(): unknown };
    const index = instructionError.index;
    const inner: unknown = instructionError.err();
    // The RPC writes a custom program error as { Custom: code }; other variants keep LiteSVM's text.
    const code = typeof inner === 'object' && inner !== null && 'code' in inner ? inner.code : undefined;
    // LiteSVM's other error variants are class instances whose toString() is their text.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    const detail = typeof code === 'number' ? { Custom: code } : typeof inner === 'object' && inner !== null ? String(inner) : inner;
    return { message: `InstructionError(${index}, ${JSON.stringify(detail)})`, json: { InstructionError: [index, detail] } };
  }
  const text = String(err);
  return { message: text, json: text };
}
