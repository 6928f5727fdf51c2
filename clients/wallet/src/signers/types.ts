/**
 * An `eth_sendTransaction` request as JSON-RPC carries it: hex quantities, `gas` for the limit.
 * Adapters translate to their library's names.
 */
export interface EvmTransactionRequest {
  from?: string;
  to?: string;
  data?: string;
  value?: string;
  gas?: string;
  gasPrice?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  nonce?: string;
  chainId?: string;
}

/** What the executor needs from an EVM wallet; chain ids are CAIP-2 (`eip155:<id>`). */
export interface EvmSigner {
  /** Every account on every chain the wallet serves, as CAIP-10 (`eip155:<id>:<address>`). */
  accounts(): Promise<string[]>;
  /** EIP-712 signature (`eth_signTypedData_v4`) over the JSON-encoded typed data. */
  signTypedData(address: string, typedDataJson: string): Promise<string>;
  /** EIP-191 signature; a `0x` hex message is signed as bytes, anything else as UTF-8 text. */
  personalSign(address: string, message: string): Promise<string>;
  /** Signs and broadcasts; resolves to the transaction hash. */
  sendTransaction(chainId: string, tx: EvmTransactionRequest): Promise<string>;
  /**
   * Resolves once the transaction is mined, and rejects when it reverted. The executor waits on
   * it after a transaction that later actions depend on (a Permit2 approval before the permit is
   * signed): until it is mined, the service's relayer cannot submit. A signer without it is not waited on.
   */
  waitForReceipt?(chainId: string, txHash: string): Promise<void>;
}

/** What the executor needs from a Solana wallet. It signs; the service broadcasts. */
export interface SolanaSigner {
  /** CAIP-10 accounts (`solana:<ref>:<base58>`) for the given chain references; empty without keys. */
  accounts(chainRefs: string[]): Promise<string[]>;
  /** Adds the wallet's signature and returns the whole transaction, base64, without sending it. */
  signTransaction(transactionBase64: string, chainId?: string): Promise<string>;
}

/** The signers available to one payment; either may be absent. */
export interface WalletSigners {
  evm?: EvmSigner;
  solana?: SolanaSigner;
}
