// Bounded searches of the chain for a transaction that used a buyer's signature. When the relayer's
// own transaction did not pay (replaced, dropped, reverted, or refused before broadcast because the
// authorization was already used), someone else may have submitted the buyer's authorization: the
// money then went to the merchant all the same, and the payment is paid by THAT transaction. The
// search looks only where such a transaction can be: from the block the option was quoted at to the
// last block before the signature's deadline, in pages the provider accepts (log-pages.ts); never from block 0,
// never to an open end.
import { id, zeroPadValue, type Provider } from 'ethers';
import type { RelayerSubmission } from '../../../server/ports/chain-state-eip155.ts';
import { checksummed } from './address.ts';
import { forEachLogPage } from './log-pages.ts';
import { QUOTE_CLOCK_ALLOWANCE_MS, sumTransfers } from './transfer.ts';
import { authorizedTransfer } from './authorization-transfer.ts';
import { namesSpenderContract, spenderPaidTopics, spenderPaymentOf, spenderTransfer } from './permit2-spender.ts';

const AUTHORIZATION_USED = id('AuthorizationUsed(address,bytes32)');
const TRANSFER = id('Transfer(address,address,uint256)');

/** The first block in [lo, hi] stamped at or after `timeMs`, or hi + 1 when none is (binary search). */
export async function firstBlockAtOrAfter(provider: Provider, timeMs: number, lo: number, hi: number): Promise<number> {
  let a = lo;
  let b = hi + 1;
  while (a < b) {
    const mid = Math.floor((a + b) / 2);
    const block = await provider.getBlock(mid);
    if (!block) throw new Error(`block ${mid} not available`);
    if (block.timestamp * 1000 >= timeMs) b = mid;
    else a = mid + 1;
  }
  return a;
}

/** The blocks a transaction using the signature can be in. */
export type ScanWindow = { fromBlock: number; toBlock: number };

/**
 * From the quote's block (stored at prepare; else the first block stamped after the quote, less the
 * clock allowance) to the last block stamped before the deadline, or the head if that comes first.
 */
export async function scanWindow(provider: Provider, quote: { quoteBlock?: number; quotedAt: Date; deadline: Date }): Promise<ScanWindow> {
  const head = await provider.getBlockNumber();
  // An unknown quote block is found by time, between block 1 and the head: never a scan from 0.
  const fromBlock = quote.quoteBlock ?? Math.min(head, Math.max(1, (await firstBlockAtOrAfter(provider, quote.quotedAt.getTime() - QUOTE_CLOCK_ALLOWANCE_MS, 1, head)) - 1));
  const headBlock = await provider.getBlock(head);
  if (!headBlock) throw new Error('head block not available');
  // Both signatures are valid strictly before the deadline (EIP-3009 validBefore, Permit2 deadline).
  const toBlock = headBlock.timestamp * 1000 < quote.deadline.getTime() ? head : (await firstBlockAtOrAfter(provider, quote.deadline.getTime(), fromBlock, head)) - 1;
  return { fromBlock, toBlock: Math.max(fromBlock, toBlock) };
}

/** What the payment must see: `minValue` of `token` moved from `from` to `to`. */
export type ScanCheck = { token: string; from: string; to: string; minValue: bigint };

export type ScanResult =
  /** A mined transaction used the signature and paid the destination in full. */
  | { found: true; txId: string; blockNumber: number }
  /** The whole window was read: no transaction paid the destination with this signature. */
  | { found: false };

/**
 * Looks through the window, page by page, for a transaction that used this submission's signature
 * and whose receipt pays the check (judged as the relayer's own). EIP-3009: the token's
 * `AuthorizationUsed(buyer, nonce)` log. A permit naming the spender contract: the contract's
 * `Paid(payment, buyer)` log, judged by the Transfer its call made. Permit2 emits no event of its
 * own: for a permit naming a relayer key, the token's `Transfer` from the buyer to the destination,
 * in a transaction whose input carries the buyer's signature.
 * RPC errors throw: the caller answers pending, as the window was not fully read.
 */
export async function findPayingTransaction(provider: Provider, sub: RelayerSubmission, check: ScanCheck, window: ScanWindow): Promise<ScanResult> {
  const token = checksummed(check.token);
  const viaSpender = sub.flow === 'permit2' && namesSpenderContract(sub.typedData) ? spenderPaymentOf(sub.typedData) : null;
  const topics = viaSpender
    ? spenderPaidTopics(viaSpender, check.from)
    : sub.flow === 'eip3009'
      ? [AUTHORIZATION_USED, zeroPadValue(checksummed(check.from), 32), String(sub.typedData.message.nonce).toLowerCase()]
      : [TRANSFER, zeroPadValue(checksummed(check.from), 32), zeroPadValue(checksummed(check.to), 32)];
  const signature = sub.signature.slice(2).toLowerCase();
  let found: ScanResult = { found: false };
  // Pages shrink when the provider refuses a range (log-pages.ts), never skipping a block.
  await forEachLogPage(provider, { address: viaSpender ? viaSpender.spender : token, topics }, window.fromBlock, window.toBlock, async (logs) => {
    for (const txId of [...new Set(logs.map((l) => l.transactionHash))]) {
      if (sub.flow === 'permit2' && !viaSpender) {
        const tx = await provider.getTransaction(txId);
        if (!tx || !tx.data.toLowerCase().includes(signature)) continue;
      }
      const receipt = await provider.getTransactionReceipt(txId);
      if (!receipt || receipt.status !== 1) continue;
      // EIP-3009: only the transfer of this authorization counts (a batch may hold another payment of the same buyer and destination).
      const paid = viaSpender
        ? spenderTransfer(receipt.logs, check, viaSpender)
        : sub.flow === 'eip3009'
          ? authorizedTransfer(receipt.logs, check, { authorizer: check.from, nonce: String(sub.typedData.message.nonce) })
          : sumTransfers(receipt.logs, check);
      if (paid >= check.minValue) {
        found = { found: true, txId, blockNumber: receipt.blockNumber };
        return true;
      }
    }
    return false;
  });
  return found;
}
