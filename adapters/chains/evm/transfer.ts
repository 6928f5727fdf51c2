// Direct ERC-20 transfer: the wallet broadcasts `transfer` itself and answers the tx hash; the
// service checks on chain that this option's transaction moved the right token from the right
// account to the destination, after the quote.
import { Interface, isHexString, toBigInt, zeroPadValue, type Log, type Provider, type TransactionResponse } from 'ethers';
import { checksummed } from './address.ts';
import { ERC20_ABI } from './abis.ts';
import { getConfirmations } from './receipts.ts';
import { appendReference, carriesReference } from './transfer-reference.ts';

export const erc20Interface = new Interface(ERC20_ABI);
const TRANSFER_TOPIC = erc20Interface.getEvent('Transfer')?.topicHash ?? '';

/** Params object of an `eth_sendTransaction` action (hex quantities, as wallets expect). */
export type EthSendTransactionParams = { from?: string; to: string; data: string; value?: string };

/**
 * The `eth_sendTransaction` params for `token.transfer(to, value)` sent by `from`; with a
 * `reference` (see transfer-reference.ts) the option's tag follows the arguments.
 */
export function buildTransferTransaction(input: { token: string; from: string; to: string; value: bigint; reference?: string }): EthSendTransactionParams {
  if (input.value <= 0n) throw new Error('value must be positive');
  const data = erc20Interface.encodeFunctionData('transfer', [checksummed(input.to), input.value]);
  return {
    from: checksummed(input.from),
    to: checksummed(input.token),
    data: input.reference === undefined ? data : appendReference(data, input.reference),
    value: '0x0',
  };
}

/**
 * How far before the quote's creation a block may be stamped and still count as after it: the
 * service's clock and a block producer's may disagree by seconds (and block times are whole
 * seconds). The tag already binds the transaction to the option, which did not exist before
 * the quote; the time check keeps any older transfer out even where a tag could be guessed.
 */
export const QUOTE_CLOCK_ALLOWANCE_MS = 60_000;

export type TransferCheck = {
  token: string;
  from: string;
  to: string;
  minValue: bigint;
  confirmations: number;
  /** The option's tag (0x, 32 bytes) the transaction's input must carry. */
  reference: string;
  /** When the option was quoted: the transaction's block must not be older (less the allowance). */
  quotedAt: Date;
};

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
 * What is wrong with a transaction's signed fields for this check, or null: the sender and the
 * input (with the tag) are fixed by the signature, so they are final as soon as the node knows
 * the transaction, mined or not.
 */
export function signedFieldsProblem(tx: Pick<TransactionResponse, 'from' | 'data'>, check: Pick<TransferCheck, 'from' | 'reference'>): string | null {
  if (checksummed(tx.from) !== checksummed(check.from)) return 'sent by another account';
  if (!carriesReference(tx.data, check.reference)) return 'the transaction does not carry this option’s reference';
  return null;
}

/** Whether a block stamped at `timestampS` (seconds) comes after the quote, less the allowance. */
export const minedAfterQuote = (timestampS: number, quotedAt: Date): boolean => timestampS * 1000 >= quotedAt.getTime() - QUOTE_CLOCK_ALLOWANCE_MS;

/**
 * Checks a wallet-broadcast transaction: it must be sent by `from` and carry the option's tag
 * (checked at once: signed, immutable) and, once `confirmations` deep, have succeeded in a
 * block stamped after the quote and moved at least `minValue` of `token` from `from` to `to`
 * (its Transfer logs, so smart-wallet batches count too). Everything read from execution waits
 * for full depth. An unknown hash, a shallow block or an RPC error answers pending, never
 * invalid; when an unknown hash is given up on is the caller's decision (direct-transfer.ts), as
 * is whether the hash already paid another payment.
 */
export async function verifyTransferTransaction(provider: Provider, txHash: string, check: TransferCheck): Promise<TransferVerification> {
  if (!isHexString(txHash, 32)) return { status: 'invalid', reason: 'not a transaction hash' };
  try {
    const tx = await provider.getTransaction(txHash);
    if (!tx) return { status: 'pending', reason: 'not_found' };
    const problem = signedFieldsProblem(tx, check);
    if (problem) return { status: 'invalid', reason: problem };
  } catch {
    return { status: 'pending', reason: 'rpc_error' };
  }
  const state = await getConfirmations(provider, txHash);
  if (state.status === 'pending') return state;
  if (state.confirmations < Math.max(1, check.confirmations)) return { status: 'pending', reason: 'awaiting_confirmations' };
  if (!state.success) return { status: 'invalid', reason: 'transaction reverted' };
  let timestamp: number;
  try {
    const block = await provider.getBlock(state.receipt.blockHash);
    if (!block) return { status: 'pending', reason: 'rpc_error' };
    timestamp = block.timestamp;
  } catch {
    return { status: 'pending', reason: 'rpc_error' };
  }
  if (!minedAfterQuote(timestamp, check.quotedAt)) return { status: 'invalid', reason: 'mined before the quote' };
  const value = sumTransfers(state.receipt.logs, check);
  if (value === 0n) return { status: 'invalid', reason: 'no transfer of the token to the destination' };
  if (value < check.minValue) return { status: 'invalid', reason: `transferred ${value}, below the required ${check.minValue}` };
  return { status: 'confirmed', value, blockNumber: state.blockNumber };
}
