// What the fault proxy can do to a request, which node and method each fault applies to, and the
// rule store both transports (the HTTP proxy, the in-process wrapper) read: one list of rules, the
// newest first, each with its own bounds (a number of times, a duration, every n-th request).

/** The chains a proxy fronts. */
export type ChainKind = 'evm' | 'solana';

/** A node of a chain (`evm:0`), or every node of it (`evm:*`). */
export type NodeRef = `${ChainKind}:${number}` | `${ChainKind}:*`;

/** Why a broadcast is refused, as real EVM nodes and providers answer (geth's messages, the numbers filled from the transaction and the chain). */
export type EvmRefusal =
  | 'already-known'
  | 'nonce-too-low'
  | 'replacement-underpriced'
  | 'transaction-underpriced'
  | 'fee-cap-below-base-fee'
  | 'intrinsic-gas-too-low'
  | 'insufficient-funds'
  | 'polygon-min-tip';

/** Why a Solana `sendTransaction` is refused, as nodes answer. */
export type SolanaRefusal = 'blockhash-not-found' | 'already-processed' | 'node-behind';

/** Providers whose `eth_getLogs` range refusal the proxy can speak (their real codes and messages). */
export type LogsProvider = 'alchemy' | 'infura' | 'quicknode' | 'reth';

export type Fault =
  /** The answer comes this much later (a slow node; with several nodes, a slow one of them). */
  | { kind: 'latency'; ms: number }
  /** HTTP 429 with `Retry-After` (seconds, or an HTTP date as a string) and the provider's body. */
  | { kind: 'throttle'; retryAfter?: number | string }
  /** An HTTP 5xx from the provider's gateway. */
  | { kind: 'http-error'; status: 500 | 502 | 503 | 504 }
  /** Never answered: the connection stays open until the client gives up (or the proxy closes). */
  | { kind: 'hang' }
  /** The connection is reset without an answer. */
  | { kind: 'reset' }
  /** A JSON-RPC error answer, whatever was asked. */
  | { kind: 'rpc-error'; code: number; message: string; data?: unknown }
  /**
   * A replica `by` blocks (EVM) or slots (Solana) behind the others: heads, `latest`/`pending`
   * reads, receipts, statuses and logs as of then; `minContextSlot` beyond it refused (-32016).
   */
  | { kind: 'lag'; by: number }
  /** `eth_getLogs` over more than `maxBlocks` blocks refused with the provider's message (default alchemy). */
  | { kind: 'logs-range-cap'; maxBlocks: number; provider?: LogsProvider }
  /** Broadcasts answered as accepted (the hash or signature) and never forwarded. */
  | { kind: 'drop-broadcasts' }
  /** Broadcasts answered as accepted and kept until `release()` forwards them. */
  | { kind: 'hold-broadcasts' }
  /**
   * Broadcasts refused with a real node's message. Conditional refusals (underpriced, minimum
   * tip, fee cap below base fee) refuse only a transaction that deserves it, so re-pricing gets
   * through; `forward` sends the transaction on anyway (a node that took it but answered an
   * error, e.g. `already known` from a second endpoint).
   */
  | { kind: 'refuse-broadcasts'; reason: EvmRefusal | SolanaRefusal; minTipWei?: bigint; forward?: boolean }
  /** `eth_estimateGas` without a block estimates against `latest`, as geth does (EDR estimates against pending). */
  | { kind: 'estimate-at-latest' };

export type FaultKind = Fault['kind'];

/** Faults that act on the HTTP exchange itself: the HTTP proxy only. */
export const TRANSPORT_FAULTS: ReadonlySet<FaultKind> = new Set(['throttle', 'http-error', 'hang', 'reset']);

/** Which requests a rule applies to, and for how long. */
export interface FaultScope {
  /** JSON-RPC methods (default: every method the fault means something for). */
  methods?: string[];
  /** Applies this many times, then is gone. */
  times?: number;
  /** Applies for this long from now, then is gone. */
  forMs?: number;
  /** Applies to one matching request in `every` (the n-th, 2n-th, ...), deterministically. */
  every?: number;
}

export interface Rule {
  id: number;
  chain: ChainKind;
  /** null: every node of the chain. */
  node: number | null;
  fault: Fault;
  scope: FaultScope;
  applied: number;
  seen: number;
  until: number | null;
}

/** Methods that broadcast a signed transaction. */
export const BROADCAST_METHODS: Record<ChainKind, string> = { evm: 'eth_sendRawTransaction', solana: 'sendTransaction' };

export function parseNodeRef(ref: NodeRef): { chain: ChainKind; node: number | null } {
  const [chain, node] = ref.split(':') as [ChainKind, string];
  if (chain !== 'evm' && chain !== 'solana') throw new Error(`unknown chain in node ref ${ref}`);
  if (node === '*') return { chain, node: null };
  const index = Number(node);
  if (!Number.isInteger(index) || index < 0) throw new Error(`bad node index in node ref ${ref}`);
  return { chain, node: index };
}

function validate(fault: Fault, chain: ChainKind): void {
  const evmOnly: FaultKind[] = ['logs-range-cap', 'estimate-at-latest'];
  if (evmOnly.includes(fault.kind) && chain !== 'evm') throw new Error(`${fault.kind} is an EVM fault`);
  if (fault.kind === 'lag' && (!Number.isInteger(fault.by) || fault.by < 0)) throw new Error('lag.by must be a non-negative integer');
  if (fault.kind === 'logs-range-cap' && (!Number.isInteger(fault.maxBlocks) || fault.maxBlocks < 1)) throw new Error('logs-range-cap.maxBlocks must be a positive integer');
  if (fault.kind === 'refuse-broadcasts') {
    const solana = ['blockhash-not-found', 'already-processed', 'node-behind'].includes(fault.reason);
    if (solana !== (chain === 'solana')) throw new Error(`refusal ${fault.reason} is not a ${chain} refusal`);
  }
}

/** The rules of one proxy (or in-process wrapper). */
export class FaultRules {
  private rules: Rule[] = [];
  private nextId = 1;

  add(ref: NodeRef, fault: Fault, scope: FaultScope = {}): Rule {
    const { chain, node } = parseNodeRef(ref);
    validate(fault, chain);
    const rule: Rule = { id: this.nextId++, chain, node, fault, scope, applied: 0, seen: 0, until: scope.forMs === undefined ? null : Date.now() + scope.forMs };
    this.rules.unshift(rule);
    return rule;
  }

  remove(id: number): void {
    this.rules = this.rules.filter((r) => r.id !== id);
  }

  /** Without a ref: every rule; with one: the rules set for exactly that node (or that chain's `*`). */
  clear(ref?: NodeRef): void {
    if (!ref) {
      this.rules = [];
      return;
    }
    const { chain, node } = parseNodeRef(ref);
    this.rules = this.rules.filter((r) => !(r.chain === chain && r.node === node));
  }

  /**
   * The live rules of `kinds` for this node and method, newest first, each counted as seen. A
   * rule's `every` decides here; `times` is spent by `spend` when the fault actually acted.
   */
  match(chain: ChainKind, node: number, method: string, kinds: ReadonlySet<FaultKind>, defaultMethods: (f: Fault) => string[] | null): Rule[] {
    const now = Date.now();
    this.rules = this.rules.filter((r) => (r.until === null || r.until > now) && (r.scope.times === undefined || r.applied < r.scope.times));
    return this.rules.filter((r) => {
      if (r.chain !== chain || (r.node !== null && r.node !== node) || !kinds.has(r.fault.kind)) return false;
      const methods = r.scope.methods ?? defaultMethods(r.fault);
      if (methods && !methods.includes(method)) return false;
      r.seen++;
      return r.scope.every === undefined || r.seen % r.scope.every === 0;
    });
  }

  /** The rule acted on a request: counts against its `times`. */
  spend(rule: Rule): void {
    rule.applied++;
  }

  list(): readonly Rule[] {
    return this.rules;
  }
}
