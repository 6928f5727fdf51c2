// The `fetch` a web3.js Connection is given so that its requests go to several endpoints of one
// cluster (adapters/rpc-endpoints/endpoint-pool.ts: reads fail over, `sendTransaction` goes to all,
// bounded timeouts, Retry-After, breakers) and its reads never go backwards: the highest slot any
// answer showed is kept per commitment, passed as `minContextSlot` on the reads that take it (a node
// behind refuses with -32016 and the read moves on), and a `getSignatureStatuses` answered at an
// older slot than one already seen is not used. A status "not found" from a node behind the one
// that gave the block height cannot fail a payment that landed.
import { EndpointPool, type EndpointPoolOptions, type Verdict } from '../endpoint-pool.ts';

/** Where each read takes its config object, for the reads that accept `minContextSlot`. */
const CONFIG_AT: Record<string, number> = {
  getSlot: 0,
  getBlockHeight: 0,
  getLatestBlockhash: 0,
  getAccountInfo: 1,
  getBalance: 1,
  getMultipleAccounts: 1,
  getTokenAccountBalance: 1,
  getSignaturesForAddress: 1,
  getTokenAccountsByOwner: 2,
  simulateTransaction: 1,
};

const RANK = { processed: 0, confirmed: 1, finalized: 2 } as const;
type Level = keyof typeof RANK;
const LEVELS = Object.keys(RANK) as Level[];

/** -32016: minimum context slot not reached; -32005: node is behind; both: ask another node. */
const BEHIND_CODES = new Set([-32016, -32005]);

type Request = { jsonrpc: '2.0'; id: unknown; method: string; params?: unknown[] };
type Answer = { id?: unknown; result?: unknown; error?: { code?: number; message?: string } };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The highest slot seen per commitment; a slot seen at a stronger commitment bounds the weaker ones too. */
export class SlotFloor {
  private readonly highest: Record<Level, number> = { processed: 0, confirmed: 0, finalized: 0 };

  /** The slot a node answering at `level` must have reached. */
  required(level: Level): number {
    return Math.max(...LEVELS.filter((l) => RANK[l] >= RANK[level]).map((l) => this.highest[l]));
  }

  /** True when a context slot at `level` is not behind what was seen; records it. */
  admit(level: Level, slot: number): boolean {
    if (slot < this.required(level)) return false;
    this.highest[level] = Math.max(this.highest[level], slot);
    return true;
  }
}

export interface MultiFetch {
  fetch: (input: string | URL | Request | globalThis.Request, init?: RequestInit) => Promise<Response>;
  pool: EndpointPool;
  floor: SlotFloor;
}

/** A fetch for `new Connection(urls[0], { fetch, disableRetryOnRateLimit: true })`. */
export function multiEndpointFetch(urls: readonly string[], defaultCommitment: Level, opts: Partial<EndpointPoolOptions> = {}): MultiFetch {
  const pool = new EndpointPool(urls, opts);
  const floor = new SlotFloor();

  const levelOf = (req: Request): Level => {
    const config = (req.params ?? []).find(isObject);
    const c = config?.commitment;
    return typeof c === 'string' && c in RANK ? (c as Level) : defaultCommitment;
  };

  /** The request with `minContextSlot` set to the floor, where the method takes it. */
  function withFloor(req: Request): Request {
    const at = CONFIG_AT[req.method];
    if (at === undefined) return req;
    const min = floor.required(levelOf(req));
    if (min <= 0) return req;
    const params = [...(req.params ?? [])];
    while (params.length < at) params.push(undefined);
    const config = isObject(params[at]) ? params[at] : {};
    params[at] = { ...config, minContextSlot: Math.max(min, typeof config.minContextSlot === 'number' ? config.minContextSlot : 0) };
    return { ...req, params };
  }

  function judge(req: Request, json: unknown): Verdict {
    if (!isObject(json)) return 'stale';
    const a = json as Answer;
    if (a.error) return typeof a.error.code === 'number' && BEHIND_CODES.has(a.error.code) ? 'stale' : 'ok';
    const slot = isObject(a.result) && isObject(a.result.context) ? a.result.context.slot : undefined;
    if (typeof slot !== 'number') return 'ok';
    // Statuses are read at the node's processed bank, whatever the caller's commitment.
    const level = req.method === 'getSignatureStatuses' ? 'processed' : levelOf(req);
    return floor.admit(level, slot) ? 'ok' : 'stale';
  }

  async function send(req: Request): Promise<unknown> {
    if (req.method === 'sendTransaction') return pool.broadcast(req, (j) => isObject(j) && 'result' in j);
    const sent = withFloor(req);
    return pool.read(sent, (j) => judge(sent, j));
  }

  return {
    pool,
    floor,
    async fetch(_input, init) {
      // web3.js always sends its JSON body as a string.
      const body = JSON.parse(typeof init?.body === 'string' ? init.body : 'null') as Request | Request[];
      const json = Array.isArray(body) ? await Promise.all(body.map(send)) : await send(body);
      return new Response(JSON.stringify(json), { status: 200, headers: { 'content-type': 'application/json' } });
    },
  };
}
