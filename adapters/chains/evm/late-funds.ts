// Late funds on an EVM chain: a tagged direct transfer that reached the merchant after its payment
// expired (or failed) still paid it. The search reads the token's Transfer logs from the buyer to
// the destination, from the quote's time to the last final block only, in pages the provider
// accepts (log-pages.ts); each candidate is judged exactly as the payment's own job judges a hash
// (sender, tag, token, destination, amount, mined after the quote), so nothing the buyer or anyone
// else sends counts unless it could have paid the option in time, and only once it is final.
import { id, zeroPadValue, type Provider } from 'ethers';
import type { LateFunds, OptionRequest } from '../../../server/ports/chains.ts';
import { directTransferCheck } from './direct-transfer.ts';
import { isCanonical, isFinalBlock, type EvmFinality } from './finality.ts';
import { forEachLogPage } from './log-pages.ts';
import { firstBlockAtOrAfter } from './scan.ts';
import { QUOTE_CLOCK_ALLOWANCE_MS, sumTransfers, verifyTransferTransaction } from './transfer.ts';

const TRANSFER = id('Transfer(address,address,uint256)');
const AUTHORIZATION_USED = id('AuthorizationUsed(address,bytes32)');

/** What the search needs of its chain. */
export interface LateFundsChain {
  provider: Provider;
  confirmations: number;
  finality: EvmFinality;
}

/** The last block the chain calls final now (its `finalized`/`safe` tag, or `blocks` deep). */
async function lastFinalBlock(provider: Provider, policy: EvmFinality): Promise<number> {
  if (policy.kind === 'tag') return (await provider.getBlock(policy.tag))?.number ?? -1;
  return (await provider.getBlockNumber()) - policy.blocks + 1;
}

/** Quote start blocks found, per provider: a quote is looked at every run, its start block never moves. */
const startBlocks = new WeakMap<Provider, Map<string, number>>();
/** Start blocks kept per provider, the oldest dropped first (a dropped one is only searched for again). */
const START_BLOCKS_KEPT = 10_000;

/**
 * The block before the first one stamped at or after the quote (less the clock allowance), by binary
 * search up to the final head, once per quote: runs after the first cost no block reads for it.
 */
async function quoteStartBlock(provider: Provider, req: OptionRequest, finalHead: number): Promise<number> {
  let known = startBlocks.get(provider);
  if (!known) startBlocks.set(provider, (known = new Map<string, number>()));
  const key = `${req.paymentId}/${req.optionId}`;
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  const first = await firstBlockAtOrAfter(provider, req.quotedAt.getTime() - QUOTE_CLOCK_ALLOWANCE_MS, 1, finalHead);
  // Past the final head: the quote's blocks are not final yet, so nothing is kept and the next run searches again.
  if (first > finalHead) return first;
  const block = Math.max(1, first - 1);
  if (known.size >= START_BLOCKS_KEPT) known.delete(known.keys().next().value!);
  known.set(key, block);
  return block;
}

/**
 * The first final transaction that paid this direct-transfer option and is not in `known`, or none
 * found in the final blocks from its quote on. RPC errors throw: the window was not fully read, so
 * nothing is concluded.
 */
export async function findLateDirectTransfer(chain: LateFundsChain, req: OptionRequest, known: ReadonlySet<string> = new Set()): Promise<LateFunds> {
  const { provider } = chain;
  const check = directTransferCheck(req, chain.confirmations);
  const finalHead = await lastFinalBlock(provider, chain.finality);
  if (finalHead < 1) return { found: false };
  // The first block a transfer for this quote can be in (the quote's clock allowance included): never a scan from 0.
  const fromBlock = await quoteStartBlock(provider, req, finalHead);
  if (fromBlock > finalHead) return { found: false };
  let found: LateFunds = { found: false };
  const topics = [TRANSFER, zeroPadValue(check.from, 32), zeroPadValue(check.to, 32)];
  await forEachLogPage(provider, { address: check.token, topics }, fromBlock, finalHead, async (logs) => {
    for (const txId of [...new Set(logs.map((l) => l.transactionHash))]) {
      if (known.has(txId.toLowerCase())) continue;
      const verdict = await verifyTransferTransaction(provider, txId, check);
      if (verdict.status !== 'confirmed') continue;
      // A log page from a node behind, or a receipt kept across a reorg, is no proof: the block must be canonical and final.
      const receipt = await provider.getTransactionReceipt(txId);
      if (!receipt || !(await isCanonical(provider, receipt)) || !(await isFinalBlock(provider, chain.finality, receipt.blockNumber))) continue;
      found = { found: true, txId: txId.toLowerCase() };
      return true;
    }
    return false;
  });
  return found;
}

/**
 * The first final transaction, not in `known`, that used this EIP-3009 option's authorization (the
 * token's `AuthorizationUsed(buyer, nonce)` log; the nonce is the quote's) and paid the destination
 * the amount from the buyer: the buyer's signature submitted by someone else (the buyer, a third
 * party) after the service released or never received it. The signed `to` and `value` are the
 * option's, so whoever submits it pays the merchant; the receipt is still judged, never assumed.
 */
export async function findLateAuthorization(chain: LateFundsChain, req: OptionRequest, nonce: string, known: ReadonlySet<string> = new Set()): Promise<LateFunds> {
  const { provider } = chain;
  const check = directTransferCheck(req, chain.confirmations);
  const finalHead = await lastFinalBlock(provider, chain.finality);
  if (finalHead < 1) return { found: false };
  const fromBlock = await quoteStartBlock(provider, req, finalHead);
  if (fromBlock > finalHead) return { found: false };
  let found: LateFunds = { found: false };
  const topics = [AUTHORIZATION_USED, zeroPadValue(check.from, 32), nonce.toLowerCase()];
  await forEachLogPage(provider, { address: check.token, topics }, fromBlock, finalHead, async (logs) => {
    for (const txId of [...new Set(logs.map((l) => l.transactionHash.toLowerCase()))]) {
      if (known.has(txId)) continue;
      const receipt = await provider.getTransactionReceipt(txId);
      if (!receipt || receipt.status !== 1 || sumTransfers(receipt.logs, check) < check.minValue) continue;
      if (!(await isCanonical(provider, receipt)) || !(await isFinalBlock(provider, chain.finality, receipt.blockNumber))) continue;
      found = { found: true, txId };
      return true;
    }
    return false;
  });
  return found;
}
