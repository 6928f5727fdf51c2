// Solana chain functions: build, verify, submit, follow and reconcile SPL payments. Each takes the RPC
// client explicitly (`SolanaRpc`: a web3.js `Connection` or the sandbox connection).
export type { SolanaRpc, SolanaCommitment } from './rpc.ts';
export { meetsCommitment } from './rpc.ts';
export { deriveReference } from './reference.ts';
export { buildPaymentTransaction, type BuildPaymentInput, type BuiltPaymentTransaction } from './build.ts';
export { verifySignedTransaction, type VerifyExpectation, type VerifyFailure, type VerifyResult } from './verify.ts';
export { submitTransaction, type SubmitResult } from './submit.ts';
export { checkTransaction, isBlockhashExpired, type CheckOptions, type TransactionCheck } from './status.ts';
export { findPaymentByReference, type ReferenceMatch } from './find.ts';
export { getTokenBalance } from './balance.ts';
export { signatureOf } from './wire.ts';
export { base58Decode, base58Encode } from './base58.ts';
export { signTransactionAction, type SolanaWalletRpcAction } from './action.ts';
