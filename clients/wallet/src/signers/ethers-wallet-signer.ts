import { getBytes, isHexString, type BaseWallet, type Provider, type TransactionRequest } from 'ethers';
import { evmChainReference, sameEvmAddress } from './chain-ids.ts';
import { parseTypedData } from './evm-typed-data.ts';
import type { EvmSigner, EvmTransactionRequest } from './types.ts';

export interface EthersWalletSignerOptions {
  /** Chains to advertise accounts on (`8453` or `eip155:8453`). */
  chainIds: (number | string)[];
  /** Provider used to broadcast on a chain (CAIP-2 id given); needed only for eth_sendTransaction. */
  providerFor?: (chainId: string) => Provider;
}

/**
 * Adapts an ethers `Wallet` (or HD wallet) to the executor. The wallet signs only for its own
 * address: a request for any other address is refused rather than signed with the wrong key.
 */
export function ethersWalletSigner(wallet: BaseWallet, options: EthersWalletSignerOptions): EvmSigner {
  const ownAddress = (address: string): void => {
    if (!sameEvmAddress(address, wallet.address)) throw new Error(`this wallet holds ${wallet.address}, not ${address}`);
  };
  return {
    async accounts() {
      return options.chainIds.map((chainId) => `eip155:${evmChainReference(chainId)}:${wallet.address}`);
    },
    async signTypedData(address, typedDataJson) {
      ownAddress(address);
      const { domain, types, message } = parseTypedData(typedDataJson);
      return wallet.signTypedData(domain, types, message);
    },
    async personalSign(address, message) {
      ownAddress(address);
      return wallet.signMessage(isHexString(message) ? getBytes(message) : message);
    },
    async sendTransaction(chainId, tx) {
      if (tx.from !== undefined) ownAddress(tx.from);
      if (options.providerFor === undefined) throw new Error('eth_sendTransaction needs providerFor');
      const connected = wallet.connect(options.providerFor(chainId));
      const response = await connected.sendTransaction(toEthersRequest(chainId, tx));
      return response.hash;
    },
    async waitForReceipt(chainId, txHash) {
      if (options.providerFor === undefined) throw new Error('waiting for a transaction needs providerFor');
      const receipt = await options.providerFor(chainId).waitForTransaction(txHash);
      if (receipt?.status !== 1) throw new Error(`transaction ${txHash} reverted`);
    },
  };
}

/** JSON-RPC transaction fields → ethers names; the chain comes from the action, not the tx. */
export function toEthersRequest(chainId: string, tx: EvmTransactionRequest): TransactionRequest {
  const reference = BigInt(evmChainReference(chainId));
  if (tx.chainId !== undefined && BigInt(evmChainReference(tx.chainId)) !== reference) {
    throw new Error(`transaction chainId ${tx.chainId} does not match action chain ${chainId}`);
  }
  const request: TransactionRequest = { chainId: reference };
  if (tx.to !== undefined) request.to = tx.to;
  if (tx.data !== undefined) request.data = tx.data;
  if (tx.value !== undefined) request.value = BigInt(tx.value);
  if (tx.gas !== undefined) request.gasLimit = BigInt(tx.gas);
  if (tx.gasPrice !== undefined) request.gasPrice = BigInt(tx.gasPrice);
  if (tx.maxFeePerGas !== undefined) request.maxFeePerGas = BigInt(tx.maxFeePerGas);
  if (tx.maxPriorityFeePerGas !== undefined) request.maxPriorityFeePerGas = BigInt(tx.maxPriorityFeePerGas);
  if (tx.nonce !== undefined) request.nonce = Number(BigInt(tx.nonce));
  return request;
}
