// Late funds on an EVM chain: a tagged direct transfer that reached the merchant after its payment
// expired (or failed) still paid it. The search reads the token's Transfer logs to the destination,
// from the quote's time to the last final block only, in pages the provider accepts (log-pages.ts);
// a candidate counts when its transaction carries the option's tag and moved at least the amount
// of the token to the destination, mined after the quote, in a canonical final block. The sender
// is not asked: the tag binds the transaction to the option, and whoever paid (the buyer's other
// wallet, an exchange withdrawal carrying the tag) paid the merchant. Each quote's blocks are read
// once: a mark per quote says up to where nothing could still pay it, so later runs read new blocks only.
import { id, isHexString, toBigInt, zeroPadValue, type Log, type Provider } from 'ethers';
import type { LateFunds, OptionRequest } from '../../../server/ports/chains.ts';
import { directTransferCheck } from './direct-transfer.ts';
import { isCanonical, isFinalBlock, type EvmFinality } from './finality.ts';
import { forEachLogPage } from './log-pages.ts';
import { firstBlockAtOrAfter } from './scan.ts';
import { checksummed } from './address.ts';
import { carriesReference } from './transfer-reference.ts';
import { QUOTE_CLOCK_ALLOWANCE_MS, minedAfterQuote, sumTransfers } from './transfer.ts';
import { spenderPaidTopics, spenderTransfer, type SpenderPayment } from './permit2-spender.ts';

const TRANSFER = id('Transfer(address,address,uint256)');
const AUTHORIZATION_USED = id('AuthorizationUsed(address,bytes32)');

/** What the search needs of its chain. */
export interface LateFundsChain {
  provider: Provider;
  confirmations: number;
  finality: EvmFinality;
  /** The last final block as the watcher's run read it (once for all its quotes); absent: read here. */
  finalHead?: () => Promise<number>;
}

/** The last block the chain calls final now (its `finalized`/`safe` tag, or `blocks` deep). */
export async function lastFinalBlock(provider: Provider, policy: EvmFinality): Promise<number> {
  if (policy.kind === 'tag') return (await provider.getBlock(policy.tag))?.number ?? -1;
  return (await provider.getBlockNumber()) - policy.blocks + 1;
}

/**
 * Per provider and per quote search, the first block not yet read to the end: the quote's start
 * block at first, then one past the final head each search read with nothing left undecided. Final
 * blocks never change, so a quote looked at every run for days costs one page of new blocks a run,
 * not a walk from its quote. Kept in memory: a process that starts over reads a quote's blocks once more.
 */
const searchedTo = new WeakMap<Provider, Map<string, number>>();
/** Marks kept per provider, the oldest dropped first (a dropped one is only searched for again). */
const MARKS_KEPT = 20_000;

function marksOf(provider: Provider): Map<string, number> {
  let marks = searchedTo.get(provider);
  if (!marks) searchedTo.set(provider, (marks = new Map<string, number>()));
  return marks;
}

function mark(provider: Provider, key: string, block: number): void {
  const marks = marksOf(provider);
  marks.delete(key);
  if (marks.size >= MARKS_KEPT) marks.delete(marks.keys().next().value!);
  marks.set(key, block);
}

/**
 * The block before the first one stamped at or after the quote (less the clock allowance), by binary
 * search up to the final head, once per quote: runs after the first cost no block reads for it.
 */
async function quoteStartBlock(provider: Provider, req: OptionRequest, finalHead: number): Promise<number> {
  const first = await firstBlockAtOrAfter(provider, req.quotedAt.getTime() - QUOTE_CLOCK_ALLOWANCE_MS, 1, finalHead);
  return first > finalHead ? first : Math.max(1, first - 1);
}

/** What judging one transaction of a page concluded: it paid, it cannot pay, or the node could not tell yet. */
type Verdict = 'paid' | 'not' | 'unsure';

/**
 * Reads `filter`'s logs for one quote from where its last search stopped to the final head, page by
 * page, judging each transaction not in `known` once. The mark moves past a page only when nothing
 * in it is left unsure (an RPC error, a block not canonical or final on the node asked), so an
 * unsure candidate is judged again next run; the transaction found is returned and judged again too
 * until the caller has recorded it (it is then in `known`).
 */
async function searchQuote(
  chain: LateFundsChain,
  req: OptionRequest,
  kind: string,
  filter: { address: string; topics: Array<string | null> },
  judge: (txId: string, logs: Log[]) => Promise<Verdict>,
  known: ReadonlySet<string>,
  shared = false,
): Promise<LateFunds> {
  const { provider } = chain;
  const finalHead = chain.finalHead ? await chain.finalHead() : await lastFinalBlock(provider, chain.finality);
  if (finalHead < 1) return { found: false };
  // Everything the judging reads of the request: a search for other terms never inherits another's mark.
  const key = `${kind}/${req.paymentId}/${req.optionId}/${req.asset.id}/${req.destination}/${req.account}/${req.amount}`;
  // The first block a transfer for this quote can be in (the quote's clock allowance included): never a scan from 0.
  const fromBlock = marksOf(provider).get(key) ?? (await quoteStartBlock(provider, req, finalHead));
  // Past the final head: the quote's blocks are not final yet, so nothing is kept and the next run searches again.
  if (fromBlock > finalHead) return { found: false };
  let found: LateFunds = { found: false };
  let settledTo = fromBlock;
  let unsure = false;
  await forEachLogPage(provider, filter, fromBlock, finalHead, async (logs, pageTo) => {
    const byTx = new Map<string, Log[]>();
    for (const log of logs) byTx.set(log.transactionHash.toLowerCase(), [...(byTx.get(log.transactionHash.toLowerCase()) ?? []), log]);
    for (const [txId, txLogs] of byTx) {
      if (known.has(txId)) continue;
      const verdict = await judge(txId, txLogs);
      if (verdict === 'paid') {
        found = { found: true, txId, ...(shared ? { shared: true as const } : {}) };
        return true;
      }
      unsure ||= verdict === 'unsure';
    }
    if (!unsure) settledTo = pageTo + 1;
    return false;
  });
  if (settledTo > fromBlock || !marksOf(provider).has(key)) mark(provider, key, settledTo);
  return found;
}

/** Whether a transaction's receipt is in a canonical block the chain calls final now. */
async function finalAndCanonical(chain: LateFundsChain, receipt: { blockNumber: number; blockHash: string }): Promise<boolean> {
  return (await isCanonical(chain.provider, receipt)) && (await isFinalBlock(chain.provider, chain.finality, receipt.blockNumber));
}

/** Sum of the token's Transfer logs to `to` from any account but `to` itself (a merchant moving its own funds pays nothing). */
function sumReceived(logs: readonly Pick<Log, 'address' | 'topics' | 'data'>[], token: string, to: string): bigint {
  const toTopic = zeroPadValue(to, 32).toLowerCase();
  let total = 0n;
  for (const log of logs) {
    if (checksummed(log.address) !== checksummed(token) || log.topics.length !== 3) continue;
    const [topic0, from, dest] = log.topics.map((t) => t.toLowerCase());
    if (topic0 !== TRANSFER || dest !== toTopic || from === toTopic || !isHexString(log.data, 32)) continue;
    total += toBigInt(log.data);
  }
  return total;
}

/**
 * The first final transaction that paid this direct-transfer option and is not in `known`, or none
 * found in the final blocks from its quote on. From any sender: its input must carry the option's
 * tag, and its receipt show at least the amount of the token reaching the destination (from an
 * account other than the destination), mined after the quote. RPC errors throw: the window was not
 * fully read, so nothing is concluded.
 */
export async function findLateDirectTransfer(chain: LateFundsChain, req: OptionRequest, known: ReadonlySet<string> = new Set()): Promise<LateFunds> {
  const { provider } = chain;
  const check = directTransferCheck(req, chain.confirmations);
  const topics = [TRANSFER, null, zeroPadValue(check.to, 32)];
  return searchQuote(
    chain,
    req,
    'transfer',
    { address: check.token, topics },
    async (txId, logs) => {
      // The logs alone say whether it moved enough: most transfers to a busy address are never read further.
      if (sumReceived(logs, check.token, check.to) < check.minValue) return 'not';
      const tx = await provider.getTransaction(txId).catch(() => null);
      if (!tx) return 'unsure';
      if (!carriesReference(tx.data, check.reference)) return 'not';
      const receipt = await provider.getTransactionReceipt(txId);
      if (!receipt) return 'unsure';
      if (receipt.status !== 1 || sumReceived(receipt.logs, check.token, check.to) < check.minValue) return 'not';
      const block = await provider.getBlock(receipt.blockHash);
      if (!block) return 'unsure';
      if (!minedAfterQuote(block.timestamp, check.quotedAt)) return 'not';
      // A log page from a node behind, or a receipt kept across a reorg, is no proof: the block must be canonical and final.
      return (await finalAndCanonical(chain, receipt)) ? 'paid' : 'unsure';
    },
    new Set([...known].map((t) => t.toLowerCase())),
  );
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
  const topics = [AUTHORIZATION_USED, zeroPadValue(check.from, 32), nonce.toLowerCase()];
  return searchQuote(
    chain,
    req,
    'eip3009',
    { address: check.token, topics },
    async (txId) => {
      const receipt = await provider.getTransactionReceipt(txId);
      if (!receipt) return 'unsure';
      if (receipt.status !== 1 || sumTransfers(receipt.logs, check) < check.minValue) return 'not';
      return (await finalAndCanonical(chain, receipt)) ? 'paid' : 'unsure';
    },
    new Set([...known].map((t) => t.toLowerCase())),
    // A relayer batch pays several payments in one transaction, each judged by its own authorization.
    true,
  );
}

/**
 * The first final transaction, not in `known`, that paid this Permit2 option through the spender
 * contract (its `Paid(payment, buyer)` log with the quote's nonce, and the Transfer that call made
 * from the buyer to the destination): the buyer's permit submitted by someone else after the service
 * released it. The contract pays only the signed destination and amount, so whoever submits it
 * pays the merchant; the receipt is still judged. A permit naming a relayer key is not searched:
 * only that key can use it.
 */
export async function findLateSpenderPermit(chain: LateFundsChain, req: OptionRequest, permit: SpenderPayment, known: ReadonlySet<string> = new Set()): Promise<LateFunds> {
  const { provider } = chain;
  const check = directTransferCheck(req, chain.confirmations);
  return searchQuote(
    chain,
    req,
    'permit2',
    { address: permit.spender, topics: spenderPaidTopics(permit, check.from) },
    async (txId) => {
      const receipt = await provider.getTransactionReceipt(txId);
      if (!receipt) return 'unsure';
      if (receipt.status !== 1 || spenderTransfer(receipt.logs, check, permit) < check.minValue) return 'not';
      return (await finalAndCanonical(chain, receipt)) ? 'paid' : 'unsure';
    },
    new Set([...known].map((t) => t.toLowerCase())),
    // The relayer's batches carry several payments, each judged by its own Paid event.
    true,
  );
}

/**
 * Whether the final transaction `txId` pays all these direct-transfer options together (a batch
 * wallet's one transaction for several payments): it succeeded in a canonical final block, its
 * input carries every option's tag, and for each token and destination the transfers into it (from
 * other accounts) reach the sum of the amounts due there. One transfer carrying two tags therefore
 * pays one of them, never both. Each option's own checks (mined after its quote) were made when the
 * transaction was found for it; this is the check that two payments do not count one transfer.
 */
export async function paysTogether(chain: LateFundsChain, reqs: readonly OptionRequest[], txId: string): Promise<boolean> {
  const { provider } = chain;
  const [tx, receipt] = await Promise.all([provider.getTransaction(txId), provider.getTransactionReceipt(txId)]);
  if (!tx || !receipt || receipt.status !== 1 || !(await finalAndCanonical(chain, receipt))) return false;
  const due = new Map<string, { token: string; to: string; value: bigint }>();
  for (const req of reqs) {
    const check = directTransferCheck(req, chain.confirmations);
    if (!carriesReference(tx.data, check.reference)) return false;
    const key = `${check.token}/${checksummed(check.to)}`;
    const sum = due.get(key) ?? { token: check.token, to: check.to, value: 0n };
    sum.value += check.minValue;
    due.set(key, sum);
  }
  return [...due.values()].every((d) => sumReceived(receipt.logs, d.token, d.to) >= d.value);
}
