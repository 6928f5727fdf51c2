// An ethers provider over several endpoints of one EVM chain (adapters/rpc-endpoints/endpoint-pool.ts),
// whose reads never go backwards. It keeps the highest head any endpoint reported; a read that
// decides something from absence or from state (a receipt or transaction not found, logs, a nonce,
// a balance, a call, an estimate) is sent in one batch with `eth_blockNumber`, and an answer from a
// node whose head is behind the highest seen is not used: the read moves to another endpoint, and
// when every endpoint is behind it fails as unknown (RpcUnavailableError), never as "not found".
// So a payment is failed or released only on a node at least as fresh as the evidence against it.
// Reads that only build an offer (options) decide nothing that ends a payment, and the relayer's
// submission checks again what they saw: `offerReads()` sends them to the same endpoints without
// the head read, calls made together in one JSON-RPC batch (one HTTP exchange, one round trip).
import { JsonRpcProvider, type JsonRpcError, type JsonRpcPayload, type JsonRpcResult } from 'ethers';
import { EndpointPool, type EndpointPoolOptions, type Verdict } from '../endpoint-pool.ts';

/** Reads whose answer depends on how far the node has synced: checked against the highest head. */
const HEAD_CHECKED = new Set([
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_getLogs',
  'eth_getTransactionCount',
  'eth_getBalance',
  'eth_call',
  'eth_estimateGas',
  'eth_getCode',
]);

/** A lagging node's answer to a block it does not have yet (geth, erigon, reth, nethermind wordings). */
const NOT_SYNCED = /header not found|unknown block|block not found|missing trie node|requested block .* (not|is) (found|ahead)|after last accepted block/i;

/** The id of the head read batched with a checked read (ethers numbers its own ids from 1). */
const HEAD_ID = 0x7fffffff;

type Answer = JsonRpcResult | JsonRpcError;

export interface HeadTracking {
  /** How long every endpoint may agree on a lower head before it is taken as the chain's (a reorg to a shorter chain). */
  regressAfterMs: number;
  now?: () => number;
}

/** The highest head seen on one chain, shared by its reads. */
export class HighestHead {
  private highest = -1;
  private lastConfirmed = 0;
  private readonly tracking: HeadTracking;
  constructor(tracking: HeadTracking = { regressAfterMs: 60_000 }) {
    this.tracking = tracking;
  }

  get value(): number {
    return this.highest;
  }

  /** Whether a node at `head` is fresh enough; records it when it is the freshest yet. */
  admit(head: number): boolean {
    const now = (this.tracking.now ?? Date.now)();
    if (head >= this.highest) {
      this.highest = head;
      this.lastConfirmed = now;
      return true;
    }
    // No endpoint has reached the old head for this long: the chain itself is shorter now (a reorg
    // or a rollback), not a replica behind. Never shorter than this, or a dead node would freeze reads.
    if (now - this.lastConfirmed > this.tracking.regressAfterMs) {
      this.highest = head;
      this.lastConfirmed = now;
      return true;
    }
    return false;
  }
}

const hexNumber = (v: unknown): number | null => (typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v) ? Number(BigInt(v)) : null);

export interface MultiProviderOptions {
  pool?: Partial<EndpointPoolOptions>;
  head?: HeadTracking;
}

/** Calls ethers collects into one batch for offer reads (within its 10 ms stall). */
const OFFER_BATCH_MAX = 20;
/**
 * One attempt of an offer read: a node silent this long is left for the next one. An options call
 * has a few seconds per chain (OPTIONS_CHAIN_BOUND_MS, 4 s): a hung node must not spend them all.
 */
export const OFFER_READ_TIMEOUT_MS = 1_500;

/**
 * The same endpoints for reads that only build an offer: no freshness guard (no head read per
 * call), concurrent calls batched. A lagging node's answer here is at worst a stale offer: the
 * relayer's submission reads code, allowances and the deadline again on the guarded provider.
 */
class OfferReadProvider extends JsonRpcProvider {
  private readonly pool: EndpointPool;
  private readonly head: HighestHead;

  constructor(pool: EndpointPool, head: HighestHead, chainId: number) {
    super(pool.urls[0], chainId, { staticNetwork: true, cacheTimeout: -1, batchMaxCount: OFFER_BATCH_MAX });
    this.pool = pool;
    this.head = head;
  }

  override async _send(payload: JsonRpcPayload | Array<JsonRpcPayload>): Promise<Array<JsonRpcResult>> {
    const list = Array.isArray(payload) ? payload : [payload];
    if (list.some((p) => p.method === 'eth_sendRawTransaction')) throw new Error('offer reads never broadcast');
    const body = list.length === 1 ? list[0] : list;
    const json = await this.pool.read(body, (j) => (usableBatch(list, j) ? 'ok' : 'stale'), { timeoutMs: OFFER_READ_TIMEOUT_MS });
    const answers = (Array.isArray(json) ? json : [json]) as Answer[];
    for (const a of answers) {
      const p = list.find((q) => q.id === a.id);
      // A head seen here still raises the highest head the guarded reads compare with.
      if (p?.method === 'eth_blockNumber' && 'result' in a) this.head.admit(hexNumber(a.result) ?? -1);
    }
    return list.map((p) => answers.find((a) => a.id === p.id)!) as JsonRpcResult[];
  }
}

/** An answer to every call of the batch, none of them a node's "not synced yet". */
function usableBatch(list: JsonRpcPayload[], json: unknown): boolean {
  const answers = (Array.isArray(json) ? json : [json]) as Answer[];
  return list.every((p) => {
    const a = answers.find((x) => typeof x === 'object' && x !== null && x.id === p.id);
    return a !== undefined && !notSynced(a);
  });
}

/** JsonRpcProvider whose requests go through the endpoint pool instead of one URL. */
export class MultiEndpointProvider extends JsonRpcProvider {
  readonly pool: EndpointPool;
  readonly head: HighestHead;
  private offers: OfferReadProvider | undefined;
  private readonly chainIdNumber: number;

  constructor(urls: readonly string[], chainId: number, opts: MultiProviderOptions = {}) {
    // One request per HTTP call, so a stale answer is judged and re-asked on its own.
    super(urls[0], chainId, { staticNetwork: true, cacheTimeout: -1, batchMaxCount: 1 });
    this.pool = new EndpointPool(urls, opts.pool);
    this.head = new HighestHead(opts.head);
    this.chainIdNumber = chainId;
  }

  /** The provider for reads that only build an offer (see OfferReadProvider); one per chain. */
  offerReads(): JsonRpcProvider {
    this.offers ??= new OfferReadProvider(this.pool, this.head, this.chainIdNumber);
    return this.offers;
  }

  override destroy(): void {
    this.offers?.destroy();
    super.destroy();
  }

  override async _send(payload: JsonRpcPayload | Array<JsonRpcPayload>): Promise<Array<JsonRpcResult>> {
    const list = Array.isArray(payload) ? payload : [payload];
    // ethers' own type says results only; it handles error answers all the same (JsonRpcApiProvider).
    return (await Promise.all(list.map((p) => this.one(p)))) as JsonRpcResult[];
  }

  private async one(p: JsonRpcPayload): Promise<Answer> {
    if (p.method === 'eth_sendRawTransaction') return (await this.pool.broadcast(p, (j) => typeof j === 'object' && j !== null && 'result' in j)) as Answer;
    if (HEAD_CHECKED.has(p.method)) {
      const batch = [p, { jsonrpc: '2.0', id: HEAD_ID, method: 'eth_blockNumber', params: [] }];
      const answers = (await this.pool.read(batch, (j) => this.judgeBatch(p, j))) as Answer[];
      return answers.find((a) => a.id === p.id)!;
    }
    return (await this.pool.read(p, (j) => this.judgeOne(p, j as Answer))) as Answer;
  }

  /** The answer and the node's head of one batch: usable only from a node at the highest head. */
  private judgeBatch(p: JsonRpcPayload, json: unknown): Verdict {
    if (!Array.isArray(json)) return 'stale';
    const answers = json as Answer[];
    const main = answers.find((a) => a?.id === p.id);
    const head = hexNumber((answers.find((a) => a?.id === HEAD_ID) as JsonRpcResult | undefined)?.result);
    if (!main || head === null || notSynced(main)) return 'stale';
    return this.head.admit(head) ? 'ok' : 'stale';
  }

  private judgeOne(p: JsonRpcPayload, a: Answer): Verdict {
    if (typeof a !== 'object' || a === null || notSynced(a)) return 'stale';
    if (!('result' in a)) return 'ok';
    if (p.method === 'eth_blockNumber') {
      const head = hexNumber(a.result);
      return head === null || this.head.admit(head) ? 'ok' : 'stale';
    }
    if (p.method === 'eth_getBlockByNumber' || p.method === 'eth_getBlockByHash') {
      const block = a.result as { number?: string } | null;
      const tag = (p.params as unknown[] | undefined)?.[0];
      // A numbered block a node does not have, below a head already seen: that node is behind.
      if (block === null) return typeof tag === 'string' && hexNumber(tag) !== null && hexNumber(tag)! <= this.head.value ? 'stale' : 'ok';
      const n = hexNumber(block.number);
      if (tag === 'latest' && n !== null) return this.head.admit(n) ? 'ok' : 'stale';
    }
    return 'ok';
  }
}

function notSynced(a: Answer): boolean {
  return 'error' in a && typeof a.error?.message === 'string' && NOT_SYNCED.test(a.error.message);
}
