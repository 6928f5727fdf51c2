// EVM chain functions the gateway calls: build what the wallet signs or sends, verify, submit, confirm.
export { deriveNonce, derivePaymentReference, type DerivedNonce } from './nonce.ts';
export { toEthersTypedData, type Eip712Domain, type Eip712TypedData, type TypedDataField } from './typed-data.ts';
export {
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  buildTransferWithAuthorization,
  readAuthorizationState,
  readTokenDomain,
  recoverTransferWithAuthorizationSigner,
  submitTransferWithAuthorization,
  verifyTransferWithAuthorization,
  type TokenDomain,
  type TransferWithAuthorizationInput,
} from './eip3009.ts';
export {
  PERMIT_TRANSFER_FROM_TYPES,
  buildApproveTransaction,
  buildPermitTransferFrom,
  isPermit2NonceUsed,
  readErc20Allowance,
  readPermit2Allowance,
  recoverPermitTransferFromSigner,
  submitPermitTransferFrom,
  verifyPermitTransferFrom,
  type PermitTransferFromInput,
} from './permit2.ts';
export {
  PAYMENT_WITNESS_TYPE_STRING,
  PERMIT_WITNESS_TRANSFER_FROM_TYPES,
  buildPermitWitnessTransferFrom,
  verifyPermitWitnessTransferFrom,
  witnessDestination,
  type PermitWitnessInput,
} from './permit2-witness.ts';
export { advanceRelayerFlow, judgeReceipt, type PaymentCheck, type RelayerSubmission } from './relayer-flow.ts';
export {
  buildTransferTransaction,
  sumTransfers,
  verifyTransferTransaction,
  type EthSendTransactionParams,
  type TransferCheck,
  type TransferVerification,
} from './transfer.ts';
export {
  classifySubmitError,
  getConfirmations,
  waitForReceipt,
  type ConfirmationState,
  type WaitOptions,
  type WaitResult,
} from './receipts.ts';
export { createSerialQueue, type SerialQueue } from './relayer.ts';
export { sendTransactionParams, signTypedDataV4Params } from './wallet-rpc.ts';
