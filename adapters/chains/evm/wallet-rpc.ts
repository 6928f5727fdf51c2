// The `params` arrays of the walletRpc actions, in the wire form of the reference gateway.
import { getAddress } from 'ethers';
import type { EthSendTransactionParams } from './transfer.ts';
import type { Eip712TypedData } from './typed-data.ts';

/**
 * `eth_signTypedData_v4` params: `[signer address, typed data as a JSON string]` (MetaMask's
 * order, and the reference gateway's: the typed data travels as a string, not an object).
 */
export function signTypedDataV4Params(from: string, typedData: Eip712TypedData): [string, string] {
  return [getAddress(from), JSON.stringify(typedData)];
}

/** `eth_sendTransaction` params: one transaction object. */
export function sendTransactionParams(transaction: EthSendTransactionParams): [EthSendTransactionParams] {
  return [transaction];
}
