// The fault engine: one JSON-RPC request to one node in, the answer that node gives out, with the
// JSON-RPC-level faults applied (errors, lag, refused/dropped/held broadcasts, log range caps,
// geth's estimate) and every call recorded. The HTTP proxy adds the transport faults around it;
// the in-process wrapper uses it as is, so both transports misbehave the same way.
import { Transaction, keccak256 } from 'ethers';
import { signatureOf } from '../../adapters/chains/solana/wire.ts';
import { laggedEvmCall } from './evm-lag.ts';
import { BROADCAST_METHODS, FaultRules, type ChainKind, type EvmRefusal, type Fault, type FaultKind, type Rule, type SolanaRefusal } from './faults.ts';
import { deservesRefusal, evmRefusal, gethError, logsRangeRefusal, POLYGON_MIN_TIP_WEI, solanaRefusal, type EvmRefusalFacts } from './messages.ts';
import { BlockhashHistory, laggedSolanaCall } from './solana-lag.ts';
import type { RpcOutcome, UpstreamCall } from './upstream.ts';

export interface CallRecord {
  at: number;
  chain: ChainKind;
  node: number;
  method: string;
  params: unknown[];
  /** The fault that acted on this call, if any. */
  fault: FaultKind | null;
}

export interface HeldBroadcast {
  chain: ChainKind;
  node: number;
  /** The hash or signature the node answered. */
  id: string;
  params: unknown[];
}

/** Faults that answer in the node's place (the request goes no further). */
const ANSWERING: ReadonlySet<FaultKind> = new Set(['rpc-error', 'refuse-broadcasts', 'drop-broadcasts', 'hold-broadcasts', 'logs-range-cap']);
const SHAPING: ReadonlySet<FaultKind> = new Set(['lag', 'estimate-at-latest']);
const KEEP_CALLS = 200_000;
const DEFAULT_MIN_TIP_WEI = 1_000_000_000n;

function defaultMethods(chain: ChainKind): (f: Fault) => string[] | null {
  return (f) => {
    if (f.kind === 'logs-range-cap') return ['eth_getLogs'];
    if (f.kind === 'estimate-at-latest') return ['eth_estimateGas'];
    if (f.kind === 'drop-broadcasts' || f.kind === 'hold-broadcasts' || f.kind === 'refuse-broadcasts') return [BROADCAST_METHODS[chain]];
    return null;
  };
}

/** What a broadcast's answer would be: its hash (EVM) or first signature (Solana). */
function broadcastId(chain: ChainKind, params: unknown[]): string {
  const raw = String(params[0]);
  if (chain === 'evm') return keccak256(raw);
  const encoding = (params[1] as { encoding?: string } | undefined)?.encoding;
  if (encoding !== 'base64') throw new Error('the fault proxy reads base64 Solana transactions only (what web3.js sends)');
  const signature = signatureOf(raw);
  if (!signature) throw new Error('not a signed Solana transaction');
  return signature;
}

function intrinsicGas(data: string): bigint {
  const bytes = Buffer.from(data.slice(2), 'hex');
  let gas = 21_000n;
  for (const b of bytes) gas += b === 0 ? 4n : 16n;
  return gas;
}

async function read(upstream: UpstreamCall, method: string, params: unknown[]): Promise<unknown> {
  const answer = await upstream(method, params);
  if (!('result' in answer)) throw new Error(`upstream ${method} failed: ${answer.error.message}`);
  return answer.result;
}

async function refusalFacts(upstream: UpstreamCall, raw: string, reason: EvmRefusal, minTipWei: bigint | undefined): Promise<EvmRefusalFacts> {
  const tx = Transaction.from(raw);
  const from = tx.from ?? '0x0000000000000000000000000000000000000000';
  const [count, balance, block] = await Promise.all([
    read(upstream, 'eth_getTransactionCount', [from, 'latest']),
    read(upstream, 'eth_getBalance', [from, 'latest']),
    read(upstream, 'eth_getBlockByNumber', ['latest', false]),
  ]);
  const maxFee = tx.maxFeePerGas ?? tx.gasPrice ?? 0n;
  const tip = tx.maxPriorityFeePerGas ?? tx.gasPrice ?? 0n;
  return {
    from,
    nonce: tx.nonce,
    chainNonce: Number(count),
    gasLimit: tx.gasLimit,
    intrinsicGas: intrinsicGas(tx.data),
    tip,
    maxFee,
    baseFee: BigInt((block as { baseFeePerGas?: string }).baseFeePerGas ?? 0),
    cost: tx.gasLimit * maxFee + tx.value,
    balance: BigInt(balance as string),
    minTip: minTipWei ?? (reason === 'polygon-min-tip' ? POLYGON_MIN_TIP_WEI : DEFAULT_MIN_TIP_WEI),
  };
}

export interface FaultEngineOptions {
  upstreams: Partial<Record<ChainKind, UpstreamCall>>;
  /** Rewrite the sandbox node's wording of refused broadcasts as geth's (default true). */
  gethErrors?: boolean;
}

export class FaultEngine {
  readonly rules = new FaultRules();
  private held: HeldBroadcast[] = [];
  private readonly history = new BlockhashHistory();
  private log: CallRecord[] = [];
  private dropped = 0;
  private readonly options: FaultEngineOptions;

  constructor(options: FaultEngineOptions) {
    this.options = options;
  }

  upstream(chain: ChainKind): UpstreamCall {
    const call = this.options.upstreams[chain];
    if (!call) throw new Error(`no ${chain} upstream configured`);
    return call;
  }

  record(chain: ChainKind, node: number, method: string, params: unknown[], fault: FaultKind | null): void {
    this.log.push({ at: Date.now(), chain, node, method, params, fault });
    if (this.log.length > KEEP_CALLS) {
      this.dropped += this.log.length - KEEP_CALLS / 2;
      this.log = this.log.slice(-KEEP_CALLS / 2);
    }
  }

  /** Calls recorded (the newest 100,000 at least), and how many older ones were let go. */
  calls(): { records: readonly CallRecord[]; droppedOlder: number } {
    return { records: this.log, droppedOlder: this.dropped };
  }

  clearCalls(): void {
    this.log = [];
    this.dropped = 0;
  }

  heldBroadcasts(): readonly HeldBroadcast[] {
    return this.held;
  }

  /** Forwards the held broadcasts (of one chain, or all) in the order they came; answers their outcomes. */
  async release(chain?: ChainKind): Promise<RpcOutcome[]> {
    const mine = this.held.filter((h) => !chain || h.chain === chain);
    this.held = this.held.filter((h) => chain && h.chain !== chain);
    const outcomes: RpcOutcome[] = [];
    for (const h of mine) outcomes.push(await this.upstream(h.chain)(BROADCAST_METHODS[h.chain], h.params));
    return outcomes;
  }

  /** The rules of `kinds` acting on this call, newest first. */
  matching(chain: ChainKind, node: number, method: string, kinds: ReadonlySet<FaultKind>): Rule[] {
    return this.rules.match(chain, node, method, kinds, defaultMethods(chain));
  }

  /** Answers one JSON-RPC request as `node` of `chain`, faults applied; records the call. */
  async answer(chain: ChainKind, node: number, method: string, params: unknown[]): Promise<RpcOutcome> {
    const upstream = this.upstream(chain);
    for (const rule of this.matching(chain, node, method, ANSWERING)) {
      const answer = await this.answerInstead(chain, node, rule, method, params);
      if (answer) {
        this.rules.spend(rule);
        this.record(chain, node, method, params, rule.fault.kind);
        return answer;
      }
    }
    const shaping = this.matching(chain, node, method, SHAPING);
    const lag = shaping.find((r) => r.fault.kind === 'lag');
    const estimate = shaping.find((r) => r.fault.kind === 'estimate-at-latest');
    let call = params;
    if (estimate && params[1] === undefined) call = [params[0], 'latest'];
    for (const r of [lag, estimate]) if (r) this.rules.spend(r);
    this.record(chain, node, method, params, lag?.fault.kind ?? estimate?.fault.kind ?? null);
    const by = lag?.fault.kind === 'lag' ? lag.fault.by : 0;
    let answer: RpcOutcome;
    if (by > 0) answer = chain === 'evm' ? await laggedEvmCall(upstream, by, method, call) : await laggedSolanaCall(upstream, by, this.history, method, call);
    else answer = await upstream(method, call);
    if (chain === 'solana' && method === 'getLatestBlockhash' && by === 0 && 'result' in answer) this.history.record(answer.result);
    if (chain === 'evm' && method === 'eth_sendRawTransaction' && 'error' in answer && this.options.gethErrors !== false) return { error: gethError(answer.error) };
    return answer;
  }

  /** The answer a fault gives in the node's place, or null when this request does not trigger it. */
  private async answerInstead(chain: ChainKind, node: number, rule: Rule, method: string, params: unknown[]): Promise<RpcOutcome | null> {
    const f = rule.fault;
    const upstream = this.upstream(chain);
    switch (f.kind) {
      case 'rpc-error':
        return { error: { code: f.code, message: f.message, ...(f.data === undefined ? {} : { data: f.data }) } };
      case 'drop-broadcasts':
        return { result: broadcastId(chain, params) };
      case 'hold-broadcasts': {
        const id = broadcastId(chain, params);
        this.held.push({ chain, node, id, params });
        return { result: id };
      }
      case 'refuse-broadcasts': {
        let error;
        if (chain === 'evm') {
          const reason = f.reason as EvmRefusal;
          const facts = await refusalFacts(upstream, String(params[0]), reason, f.minTipWei);
          if (!deservesRefusal(reason, facts)) return null;
          error = evmRefusal(reason, facts);
        } else {
          error = solanaRefusal(f.reason as SolanaRefusal, 42);
        }
        if (f.forward) await upstream(method, params);
        return { error };
      }
      case 'logs-range-cap': {
        const filter = (params[0] ?? {}) as { fromBlock?: string; toBlock?: string; blockHash?: string };
        if (filter.blockHash) return null;
        const head = Number(await read(upstream, 'eth_blockNumber', []));
        const at = (tag: string | undefined) => (tag === undefined || !tag.startsWith('0x') ? head : Number(tag));
        const from = at(filter.fromBlock);
        const to = at(filter.toBlock);
        if (to - from + 1 <= f.maxBlocks) return null;
        return { error: logsRangeRefusal(f.provider ?? 'alchemy', from, to, f.maxBlocks) };
      }
      default:
        return null;
    }
  }
}
