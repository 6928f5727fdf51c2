// An EVM replica behind the others, made from the up-to-date node: every read is answered as of
// an older head. The node keeps the state of past blocks, so a read pinned to that head is what
// the replica would have answered; what the replica cannot know yet (newer blocks, their
// receipts, transactions and logs) is hidden, as a load-balanced provider's stale replica does.
import type { RpcOutcome, UpstreamCall } from './upstream.ts';

/** Where each block-tagged method takes its block: the index of that parameter. */
const BLOCK_PARAM: Record<string, number> = {
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_call: 1,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
  eth_getProof: 2,
  eth_getBlockByNumber: 0,
  eth_getBlockTransactionCountByNumber: 0,
  eth_getBlockReceipts: 0,
  eth_feeHistory: 1,
};

/** Methods whose answer names a block it was found in: hidden when that block is newer than the replica's head. */
const FOUND_IN_BLOCK = new Set(['eth_getTransactionReceipt', 'eth_getTransactionByHash', 'eth_getBlockByHash']);

const hex = (n: number) => `0x${n.toString(16)}`;
const HEADER_NOT_FOUND: RpcOutcome = { error: { code: -32000, message: 'header not found' } };

async function headOf(upstream: UpstreamCall): Promise<number> {
  const answer = await upstream('eth_blockNumber', []);
  if (!('result' in answer)) throw new Error(`upstream eth_blockNumber failed: ${answer.error.message}`);
  return Number(answer.result);
}

/** The number of a tagged block upstream (safe, finalized), for tags the replica must not answer ahead of its head. */
async function taggedNumber(upstream: UpstreamCall, tag: string): Promise<number | null> {
  const answer = await upstream('eth_getBlockByNumber', [tag, false]);
  if (!('result' in answer) || answer.result === null) return null;
  return Number((answer.result as { number: string }).number);
}

/**
 * The block a replica at `head` reads for `tag`: `latest`/`pending` (and a missing tag) are its head,
 * `safe`/`finalized` no newer than its head, a number or hash beyond it unknown (null).
 */
async function pinBlock(upstream: UpstreamCall, head: number, tag: unknown): Promise<string | Record<string, unknown> | null> {
  if (tag === undefined || tag === 'latest' || tag === 'pending') return hex(head);
  if (tag === 'earliest') return tag;
  if (tag === 'safe' || tag === 'finalized') {
    const n = await taggedNumber(upstream, tag);
    return n === null ? null : hex(Math.min(n, head));
  }
  if (typeof tag === 'string') return Number(tag) > head ? null : tag;
  if (typeof tag === 'object' && tag !== null) {
    const ref = tag as Record<string, unknown>;
    if (typeof ref.blockNumber === 'string') return Number(ref.blockNumber) > head ? null : ref;
    if (typeof ref.blockHash === 'string') {
      const block = await upstream('eth_getBlockByHash', [ref.blockHash, false]);
      if (!('result' in block) || block.result === null) return null;
      return Number((block.result as { number: string }).number) > head ? null : ref;
    }
  }
  return tag as string;
}

async function laggedLogs(upstream: UpstreamCall, head: number, params: unknown[]): Promise<RpcOutcome> {
  const filter = { ...((params[0] ?? {}) as Record<string, unknown>) };
  if (typeof filter.blockHash === 'string') {
    const block = await upstream('eth_getBlockByHash', [filter.blockHash, false]);
    if (!('result' in block) || block.result === null || Number((block.result as { number: string }).number) > head) return { error: { code: -32000, message: 'unknown block' } };
    return upstream('eth_getLogs', [filter]);
  }
  const bound = (tag: unknown, fallback: number) => (tag === undefined || tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized' ? fallback : Number(tag));
  const from = bound(filter.fromBlock, head);
  const to = Math.min(bound(filter.toBlock, head), head);
  if (from > to) return { result: [] };
  return upstream('eth_getLogs', [{ ...filter, fromBlock: hex(from), toBlock: hex(to) }]);
}

/** Answers one request as a replica `by` blocks behind the node would. */
export async function laggedEvmCall(upstream: UpstreamCall, by: number, method: string, params: unknown[]): Promise<RpcOutcome> {
  const head = Math.max(0, (await headOf(upstream)) - by);
  if (method === 'eth_blockNumber') return { result: hex(head) };
  if (method === 'eth_getLogs') return laggedLogs(upstream, head, params);
  if (FOUND_IN_BLOCK.has(method)) {
    const answer = await upstream(method, params);
    if (!('result' in answer) || answer.result === null) return answer;
    const inBlock = (answer.result as { blockNumber?: string | null; number?: string }).blockNumber ?? (answer.result as { number?: string }).number;
    return inBlock != null && Number(inBlock) > head ? { result: null } : answer;
  }
  const at = BLOCK_PARAM[method];
  if (at === undefined) return upstream(method, params);
  const pinned = await pinBlock(upstream, head, params[at]);
  if (pinned === null) return method.startsWith('eth_getBlock') ? { result: null } : HEADER_NOT_FOUND;
  const rewritten = [...params];
  rewritten[at] = pinned;
  return upstream(method, rewritten);
}
