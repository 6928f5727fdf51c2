// What the chain port conformance suite needs from each adapter's test file: the adapter, and a
// harness that plays the buyer's wallet, the chain (mining, held broadcasts, expiry) and other
// submitters; plus the in-memory payment record the job keeps, and a per-method call counter.
import type { AssetInfo } from '../../../server/domain/assets.ts';
import type { AdvanceContext, ChainPort, RecordedTransaction, Submission, WireAction } from '../../../server/ports/chains.ts';
import type { CallFilter, CallRecord, Fault, FaultControl, FaultScope, ReorgResult } from '../../../tools/chain-faults/index.ts';

/** How a wallet may misbehave: sign as another key, or sign/send other terms than the action's. */
export type Tamper = 'wrong-signer' | 'amount' | 'destination';

export interface ConformanceWallet {
  /** The buyer's CAIP-10 account. */
  account: string;
  /**
   * Executes the actions as a wallet does (sign, or sign and send), one result per action. With
   * `withhold`, a transaction the wallet would broadcast is signed but never sent.
   */
  act(actions: WireAction[], options?: { tamper?: Tamper; withhold?: boolean }): Promise<string[]>;
  /** Signs a transaction the wallet broadcasts itself (`walletTransaction`), pays its fee and sends it; answers its id. */
  sendWalletTransaction?(transaction: string): Promise<string>;
}

export interface FlowFixture {
  /** The `flow` of the quote state the adapter prepares for this asset. */
  flow: string;
  asset: AssetInfo;
  /** The wallet broadcasts the payment itself (its result is a tx id): held broadcasts start before it acts. */
  walletBroadcasts: boolean;
  /**
   * Someone other than the service's job spends the buyer's signed submission first (another
   * account submitting an EIP-3009 authorization, the wallet sending its signed Solana
   * transaction itself). Answers that transaction's id.
   */
  submitElsewhere?(submission: Submission): Promise<string>;
  /**
   * The buyer sends what it signed itself, before confirm, without the service (flows where the
   * wallet signs a whole transaction the service pays the fee of: Solana's). Answers the node's
   * refusal, or null when the node took it.
   */
  broadcastAlone?(results: string[]): Promise<string | null>;
}

export interface ChainHarness {
  port: ChainPort;
  namespace: string;
  caip2: string;
  /** A CAIP-2 id this adapter does not serve. */
  otherChain: string;
  /**
   * Adapters of this family that must fail their node check: `misnamed` over the same node but
   * configured as `otherChain` (an RPC URL pointing at another chain), `unreachable` over a node
   * nothing answers for.
   */
  broken: { misnamed: ChainPort; unreachable: ChainPort };
  addresses: { valid: string[]; invalid: string[] };
  flows: FlowFixture[];
  /** The service's time, as the adapter's clock sees it. */
  now(): number;
  newBuyer(flow: FlowFixture, amount: bigint): Promise<ConformanceWallet>;
  /** A fresh merchant destination (CAIP-10) holding nothing. */
  newDestination(): string;
  balance(destination: string, asset: AssetInfo): Promise<bigint>;
  /** Produces `blocks` blocks (a no-op where the chain confirms at once). */
  mine(blocks: number): Promise<void>;
  /** Broadcasts reach the node but are not included until `releaseBroadcasts`. */
  holdBroadcasts(): Promise<void>;
  releaseBroadcasts(): Promise<void>;
  /** Moves the service's clock (and the chain's next block time) forward by `ms`. */
  passTime(ms: number): Promise<void>;
  /** Sets the native balance (wei, lamports) of one of the adapter's service accounts. */
  setServiceBalance(account: string, value: bigint): Promise<void>;
  /** Moves the chain (and the service's clock) past this quote's deadline. */
  expire(deadline: Date): Promise<void>;
  /** Where the adapter bounds its log searches: every `eth_getLogs` range asked so far, and the bound. */
  scans?: {
    ranges(): Array<{ fromBlock: number; toBlock: number }>;
    bound: number;
    head(): Promise<number>;
  };
  /** The chain's faults, injected in front of the adapter's nodes (tools/chain-faults). */
  faults: ChainFaultHooks;
  close(): Promise<void>;
}

/** How the adapter reaches its chain: the in-process sandbox, or JSON-RPC over HTTP through the fault proxy to the standalone sandbox chains. */
export type ChainTransport = 'in-process' | 'json-rpc';

/**
 * What a fault case does to the adapter's chain. Faults act in front of the real node (a proxy
 * node, or the same engine in process), never inside the adapter: lag, refused/dropped/held
 * broadcasts, log range caps, errors, latency (tools/chain-faults/faults.ts lists them); HTTP-only
 * faults (429, 5xx, resets, hangs of a socket) exist on the JSON-RPC transport only.
 */
export interface ChainFaultHooks {
  transport: ChainTransport;
  /** How many nodes the adapter was given; a fault names one of them (0-based) or every one (`*`). */
  nodes: number;
  /** Sets a fault on this chain's node(s); answers its undo. */
  inject(node: number | '*', fault: Fault, scope?: FaultScope): () => void;
  /** Removes every fault set through `inject` (each case starts clean: the suite calls it after each). */
  clear(): void;
  /** The calls this chain's nodes received (each request of a batch is one), oldest first. */
  calls(filter?: Omit<CallFilter, 'chain'>): CallRecord[];
  /** EVM: a point to reorg back to (the chain as of its head now). */
  mark?(): Promise<string>;
  /**
   * EVM: the blocks after `mark` are replaced by a longer branch holding the `conflicting` raw
   * transactions instead of what they held (their transactions are gone, mempool included).
   */
  reorg?(mark: string, options?: { conflicting?: string[]; extraBlocks?: number }): Promise<ReorgResult>;
  /** EVM: the next block's base fee (a spike; it decays 12.5 % a block after). */
  spikeBaseFee?(wei: bigint): Promise<void>;
}

/**
 * The payment's record as the job keeps it: the tx id recorded at confirm or by `record`, and the
 * signed bytes of a relayer transaction. `crashAfterRecord` makes the process die right after a
 * record commits, before anything is broadcast.
 */
export function paymentRecord(confirmedTxId: string | null, now: () => number) {
  const state = {
    txId: confirmedTxId,
    rawTx: null as string | null,
    recordedAt: null as Date | null,
    records: 0,
    crashAfterRecord: false,
  };
  const ctx = (): AdvanceContext => ({
    // No service nonce counter in the conformance harness: the id names the payment all the same.
    paymentId: 'pay_conformance',
    rawTx: state.rawTx,
    recordedAt: state.recordedAt,
    async record(tx: RecordedTransaction, replaces: string | null) {
      if (state.txId !== replaces) return false;
      state.txId = tx.txId;
      state.rawTx = tx.rawTx;
      state.recordedAt = new Date(now());
      state.records++;
      if (state.crashAfterRecord) throw new Error('crash after record');
      return true;
    },
  });
  return { state, ctx };
}

export type MethodName =
  | 'namespace'
  | 'supportsChain'
  | 'isValidAddress'
  | 'prepareOption'
  | 'fetchActions'
  | 'expectedResults'
  | 'verifyResults'
  | 'advance'
  | 'followFinality'
  | 'findLateFunds'
  | 'walletTransaction'
  | 'accounts'
  | 'health'
  | 'selfCheck';

/** The port with every method call (and every read of `namespace`) counted. */
export function countingPort(port: ChainPort): {
  port: ChainPort;
  counts: Record<MethodName, number>;
} {
  const counts: Record<MethodName, number> = {
    namespace: 0,
    supportsChain: 0,
    isValidAddress: 0,
    prepareOption: 0,
    fetchActions: 0,
    expectedResults: 0,
    verifyResults: 0,
    advance: 0,
    followFinality: 0,
    findLateFunds: 0,
    walletTransaction: 0,
    accounts: 0,
    health: 0,
    selfCheck: 0,
  };
  const fetch = port.fetchActions?.bind(port);
  const accounts = port.accounts?.bind(port);
  const follow = port.followFinality?.bind(port);
  const health = port.health?.bind(port);
  const late = port.findLateFunds?.bind(port);
  const walletTx = port.walletTransaction?.bind(port);
  const selfCheck = port.selfCheck?.bind(port);
  const counted: ChainPort = {
    get namespace() {
      counts.namespace++;
      return port.namespace;
    },
    supportsChain: (caip2) => (counts.supportsChain++, port.supportsChain(caip2)),
    isValidAddress: (address) => (counts.isValidAddress++, port.isValidAddress(address)),
    prepareOption: (req) => (counts.prepareOption++, port.prepareOption(req)),
    ...(fetch
      ? {
          fetchActions: (req, state, data) => (counts.fetchActions++, fetch(req, state, data)),
        }
      : {}),
    expectedResults: (state) => (counts.expectedResults++, port.expectedResults(state)),
    verifyResults: (req, state, results) => (counts.verifyResults++, port.verifyResults(req, state, results)),
    advance: (req, sub, txId, ctx) => (counts.advance++, port.advance(req, sub, txId, ctx)),
    ...(follow ? { followFinality: (req, sub, txId, rawTx) => (counts.followFinality++, follow(req, sub, txId, rawTx)) } : {}),
    ...(late ? { findLateFunds: (req, state) => (counts.findLateFunds++, late(req, state)) } : {}),
    ...(walletTx ? { walletTransaction: (req, state) => (counts.walletTransaction++, walletTx(req, state)) } : {}),
    ...(accounts ? { accounts: () => (counts.accounts++, accounts()) } : {}),
    ...(health ? { health: (o) => (counts.health++, health(o)) } : {}),
    ...(selfCheck ? { selfCheck: (assets, o) => (counts.selfCheck++, selfCheck(assets, o)) } : {}),
  };
  return { port: counted, counts };
}

/**
 * The hooks every transport shares: faults set on one chain's nodes of `control`, each remembered
 * so `clear` undoes exactly what this harness set, and that chain's calls.
 */
export function nodeFaultHooks(
  control: FaultControl,
  chain: 'evm' | 'solana',
  transport: ChainTransport,
): Pick<ChainFaultHooks, 'transport' | 'nodes' | 'inject' | 'clear' | 'calls'> {
  const set = new Set<() => void>();
  return {
    transport,
    nodes: 1,
    inject(node, fault, scope) {
      const { clear } = control.set(`${chain}:${node}`, fault, scope);
      set.add(clear);
      return () => {
        clear();
        set.delete(clear);
      };
    },
    clear() {
      for (const clear of set) clear();
      set.clear();
    },
    calls: (filter = {}) => control.calls({ ...filter, chain }),
  };
}
