/**
 * @mps/wallet core: payment links, gateway client, action executor, collectData helpers and
 * the EIP-1193 signer. Runs in Node, browsers and React Native; it imports neither ethers nor
 * @solana/web3.js. Key-holding adapters live in `@mps/wallet/ethers` and `@mps/wallet/solana`.
 */
export { parsePaymentLink, type NotPaymentLinkReason, type ParsePaymentLinkOptions, type PaymentLinkResult } from './links/parse-payment-link.ts';
export { isPaymentId } from './links/payment-id.ts';

export { createGatewayClient, type GatewayClient, type GatewayClientConfig, type GatewayClientOptions } from './gateway/client.ts';
export {
  fromWireAction,
  toWireAction,
  type ActionResult,
  type BuildAction,
  type PaymentAction,
  type WalletRpcAction,
  type WireAction,
  type WireBuildAction,
  type WireWalletRpcAction,
} from './gateway/actions.ts';
export { GatewayError, GatewayNetworkError, GatewayProtocolError, PaymentExpiredError, type GatewayIssue } from './gateway/errors.ts';
export { backoffDelay, retryPolicy, type RetryOptions, type RetryPolicy } from './gateway/retry.ts';
export type { CollectDataField } from './gateway/types.ts';
export type { FetchLike, GatewayAuth } from './gateway/transport.ts';
export type { WaitOptions } from './gateway/wait-for-final.ts';
export type {
  Amount,
  AmountDisplay,
  CancelResult,
  CollectData,
  CollectedData,
  ConfirmRequest,
  PaymentOption,
  PaymentOptions,
  PaymentStatus,
  PaymentStatusResult,
  PaymentSummary,
} from './gateway/types.ts';

export { executeActions, resolveBuildActions, type BuildResolver, type ExecutionContext } from './executor/execute-actions.ts';
export { payWithOption, type PayOptions, type PayOutcome } from './executor/pay-with-option.ts';
export { ActionExecutionError, type ActionErrorCode } from './executor/errors.ts';

export type { EvmSigner, EvmTransactionRequest, SolanaSigner, WalletSigners } from './signers/types.ts';
export { eip1193Signer, ensureEvmChain, type AddEthereumChainParameter, type Eip1193Provider, type Eip1193SignerOptions } from './signers/eip1193-signer.ts';
export { walletAccounts } from './signers/accounts.ts';
export { standardSolanaChain, walletStandardSolanaSigner, type StandardAccount, type StandardSolanaWallet } from './signers/wallet-standard-signer.ts';
export { SOLANA_DEVNET, SOLANA_MAINNET, evmChainReference } from './signers/chain-ids.ts';

export { collectionRequirement, type CollectionRequirement } from './collect-data/requirement.ts';
export { isFromCollectionPage, parseBridgeMessage, type BridgeMessage } from './collect-data/bridge-message.ts';
export { requiredFieldNames, schemaFields, type SchemaField, type SchemaFields } from './collect-data/schema-fields.ts';
export { toCollectedData, validateCollectedData, type CollectedValue } from './collect-data/validate.ts';
