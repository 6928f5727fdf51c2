// A Solana RPC node behind the cluster, made from the up-to-date one: slots, block heights,
// statuses and signature lists as of an older slot, the blockhash it would have handed out then,
// and `minContextSlot` beyond its slot refused (-32016) as a real node refuses it. Account state
// cannot be rewound (LiteSVM keeps no history): account reads answer today's state with the
// replica's slot as context, which only ever makes a lagging node look fresher than it is.
import { minContextSlotNotReached } from './messages.ts';
import type { RpcOutcome, UpstreamCall } from './upstream.ts';

/** Where each method takes its config object (commitment, minContextSlot). */
const CONFIG_AT: Record<string, number> = {
  getSlot: 0,
  getBlockHeight: 0,
  getEpochInfo: 0,
  getLatestBlockhash: 0,
  getAccountInfo: 1,
  getBalance: 1,
  getMultipleAccounts: 1,
  getTokenAccountBalance: 1,
  getSignaturesForAddress: 1,
  getTransaction: 1,
  sendTransaction: 1,
  simulateTransaction: 1,
};

type BlockhashAnswer = { context: { slot: number }; value: { blockhash: string; lastValidBlockHeight: number } };

/** The blockhashes the cluster handed out, by the slot they were handed out at: what a lagging node would hand out. */
export class BlockhashHistory {
  private seen: BlockhashAnswer[] = [];

  record(answer: unknown): void {
    const a = answer as BlockhashAnswer | null;
    if (!a?.value?.blockhash || typeof a.context?.slot !== 'number') return;
    if (this.seen.at(-1)?.value.blockhash === a.value.blockhash) return;
    this.seen.push(a);
    if (this.seen.length > 2_000) this.seen.splice(0, 1_000);
  }

  /** The newest blockhash handed out at or before `slot`. */
  at(slot: number): BlockhashAnswer | undefined {
    for (let i = this.seen.length - 1; i >= 0; i--) if (this.seen[i]!.context.slot <= slot) return this.seen[i];
    return undefined;
  }
}

const configOf = (method: string, params: unknown[]): Record<string, unknown> => {
  const at = CONFIG_AT[method];
  const value = at === undefined ? undefined : params[at];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
};

async function number(upstream: UpstreamCall, method: 'getSlot' | 'getBlockHeight', config: Record<string, unknown>): Promise<number> {
  const { minContextSlot: _ignored, ...rest } = config;
  const answer = await upstream(method, [{ commitment: 'processed', ...rest }]);
  if (!('result' in answer)) throw new Error(`upstream ${method} failed: ${answer.error.message}`);
  return answer.result as number;
}

const withSlot = (answer: RpcOutcome, slot: number, value?: unknown): RpcOutcome => {
  if (!('result' in answer)) return answer;
  const r = answer.result as { context?: { slot: number }; value?: unknown } | null;
  if (!r || typeof r !== 'object' || !r.context) return answer;
  return { result: { ...r, context: { ...r.context, slot: Math.min(r.context.slot, slot) }, value: value === undefined ? r.value : value } };
};

/** Answers one request as a node `by` slots behind the cluster would. */
export async function laggedSolanaCall(upstream: UpstreamCall, by: number, history: BlockhashHistory, method: string, params: unknown[]): Promise<RpcOutcome> {
  const config = configOf(method, params);
  const slot = Math.max(0, (await number(upstream, 'getSlot', {})) - by);
  if (typeof config.minContextSlot === 'number' && config.minContextSlot > slot) return { error: minContextSlotNotReached(slot) };
  switch (method) {
    case 'getSlot':
      return { result: Math.max(0, (await number(upstream, 'getSlot', config)) - by) };
    case 'getBlockHeight':
      return { result: Math.max(0, (await number(upstream, 'getBlockHeight', config)) - by) };
    case 'getLatestBlockhash': {
      const answer = await upstream(method, params);
      if ('result' in answer) history.record(answer.result);
      const old = history.at(slot);
      return old ? { result: { ...old, context: { ...old.context, slot } } } : withSlot(answer, slot);
    }
    case 'getSignatureStatuses': {
      const answer = await upstream(method, params);
      if (!('result' in answer)) return answer;
      const { value } = answer.result as { value: Array<{ slot: number } | null> };
      return withSlot(
        answer,
        slot,
        value.map((s) => (s && s.slot > slot ? null : s)),
      );
    }
    case 'getEpochInfo': {
      // Slot and height as of the replica's slot (one slot, one block, as the sandbox moves).
      const answer = await upstream(method, params);
      if (!('result' in answer)) return answer;
      const info = answer.result as { absoluteSlot: number; blockHeight?: number };
      return {
        result: { ...info, absoluteSlot: Math.max(0, info.absoluteSlot - by), ...(info.blockHeight === undefined ? {} : { blockHeight: Math.max(0, info.blockHeight - by) }) },
      };
    }
    case 'getSignaturesForAddress': {
      const answer = await upstream(method, params);
      if (!('result' in answer)) return answer;
      return { result: (answer.result as Array<{ slot: number }>).filter((s) => s.slot <= slot) };
    }
    case 'getTransaction': {
      const answer = await upstream(method, params);
      if (!('result' in answer) || answer.result === null) return answer;
      return (answer.result as { slot: number }).slot > slot ? { result: null } : answer;
    }
    default:
      return withSlot(await upstream(method, params), slot);
  }
}
