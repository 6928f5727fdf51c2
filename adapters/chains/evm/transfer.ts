// Direct ERC-20 transfer: the wallet broadcasts `transfer` itself and answers the tx hash; the
// service checks on chain that it moved the right token from the right account to the destination.
import { Interface, isHexString, toBigInt, zeroPadValue, type Log, type Provider } from 'ethers';
import { checksummed } from './address.ts';
import { ERC20_ABI } from './abis.ts';
import { getConfirmations } from './receipts.ts';

export const erc20Interface = new Interface(ERC20_ABI);
const TRANSFER_TOPIC = erc20Interface.getEvent('Transfer')?.topicHash ?? '';

/** Params object of an `eth_sendTransaction` action (hex quantities, as wallets expect). */
export type EthSendTransactionParams = { from?: string; to: string; data: string; value?: string };

/** The `eth_sendTransaction` params for `token.transfer(to, value)` sent by `from`. */
export function buildTransferTransaction(input: { token: string; from: string; to: string; value: bigint }): EthSendTransactionParams {
  if (input.value <= 0n) throw new Error('value must be positive');
  return {
    from: checksummed(input.from),
    to: checksummed(input.token),
    data: erc20Interface.encodeFunctionData('transfer', [checksummed(input.to), input.value]),
    value: '0x0',
  };
}

export type TransferCheck = { token: string; from: string; to: string; minValue: bigint; confirmations: number };

export type TransferVerification =
  | { status: 'confirmed'; value: bigint; blockNumber: number }
  | { status: 'pending'; reason: 'not_found' | 'not_mined' | 'awaiting_confirmations' | 'rpc_error' }
  | { status: 'invalid'; reason: string };

/** Sum of `Transfer(from → to)` events the token emitted in these logs. */
export function sumTransfers(logs: readonly Pick<Log, 'address' | 'topics' | 'data'>[], check: { token: string; from: string; to: string }): bigint {
  const token = checksummed(check.token);
  const fromTopic = zeroPadValue(checksummed(check.from), 32).toLowerCase();
  const toTopic = zeroPadValue(checksummed(check.to), 32).toLowerCase();
  let total = 0n;
  for (const log of logs) {
    if (checksummed(log.address) !== token || log.topics.length !== 3) continue;
    const [topic0, topic1, topic2] = log.topics.map((topic) => topic.toLowerCase());
    if (topic0 !== TRANSFER_TOPIC || topic1 !== fromTopic || topic2 !== toTopic) continue;
    if (!isHexString(log.data, 32)) continue;
    total += toBigInt(log.data);
  }
  return total;
}

/**
 * Checks a wallet-broadcast transaction: it must be sent by `from` and, once `confirmations`
 * deep, have succeeded and moved at least `minValue` of `token` from `from` to `to` (its
 * Transfer logs, so smart-wallet batches count too). The sender is checked at once (signed,
 * immutable); everything read from execution waits for full depth. An unknown hash, a shallow
 * block or an RPC error answers pending, never invalid. Whether the hash already paid another
 * payment is the caller's check.
 */
export async function verifyTransferTransaction(provider: Provider, txHash: string, check: TransferCheck): Promise<TransferVerification> {
  if (!isHexString(txHash, 32)) return { status: 'invalid', reason: 'not a transaction hash' };
  try {
    const tx = await provider.getTransaction(txHash);
    if (!tx) return { status: 'pending', reason: 'not_found' };
    if (checksummed(tx.from) !== checksummed(check.from)) return { status: 'invalid', reason: 'sent by another account' };
  } catch {
    return { status: 'pending', reason: 'rpc_error' };
  }
  const state = await getConfirmations(provider, txHash);
  if (state.status === 'pending') return state;
  if (state.confirmations < Math.max(1, check.confirmations)) return { status: 'pending', reason: 'awaiting_confirmations' };
  if (!state.success) return { status: 'invalid', reason: 'transaction reverted' };
  const value = sumTransfers(state.receipt.logs, check);
  if (value === 0n) return { status: 'invalid', reason: 'no transfer of the token to the destination' };
  if (value < check.minValue) return { status: 'invalid', reason: `transferred ${value}, below the required ${check.minValue}` };
  return { status: 'confirmed', value, blockNumber: state.blockNumber };
}
