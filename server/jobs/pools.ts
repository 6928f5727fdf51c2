import { DEFAULT_POOL, type PoolConcurrency } from '../ports/queue.ts';

/**
 * Job pools: each job type runs in a pool with slots of its own, so one kind of work never waits
 * behind another's (a webhook receiver that hangs cannot hold the slots settlement needs), and
 * settlement has a pool per chain (one chain's slow node cannot hold another chain's payments).
 *
 * A job type declares its pool kind in the registry (`JOB_POOL_RULES` in handlers.ts); a
 * settlement job names its chain in its payload. The composition root turns the kinds and the
 * configured chains into pool names once (`planJobPools`). Every process of a deployment must know
 * the same chains, so they make the same pools: BullMQ keeps a queue per pool and a job is put in
 * its pool's queue. Slots may differ from process to process.
 */
export type PoolKind = 'settlement' | 'expiry' | 'webhooks' | 'default';

export const POOL_KINDS: readonly PoolKind[] = ['settlement', 'expiry', 'webhooks', 'default'];

/**
 * Where a job type runs. `settlement` jobs run in their chain's pool: `chainOf` reads the chain
 * (CAIP-2) from the payload; a job without one, or on a chain this deployment does not pay on,
 * runs in the default pool.
 */
export type JobPoolRule = { kind: Exclude<PoolKind, 'settlement'> } | { kind: 'settlement'; chainOf(payload: Record<string, unknown>): string | undefined };

/**
 * What JOB_CONCURRENCY sizes: the pool kinds, and `solana`, the settlement pool of a Solana
 * cluster (a settlement pool all the same, sized apart because its jobs wait differently).
 */
export type SlotKind = PoolKind | 'solana';

export const SLOT_KINDS: readonly SlotKind[] = [...POOL_KINDS, 'solana'];

/** Slots per kind in one process; a settlement figure (`solana` too) is per chain. */
export type PoolSlots = Record<SlotKind, number>;

/**
 * Per process. Settlement (per EVM chain) and Solana: many, because a job that sent its
 * transaction waits in its slot on the chain's follow loop (adapters/chains/evm/receipt-follow.ts,
 * adapters/chains/solana/follow.ts) until the chain decides, which costs a pending promise, not RPC
 * calls or CPU: the slots bound how many payments a process follows at once (about the confirms of
 * a few seconds). An EVM relayer key's nonce, signature and record are one database transaction
 * (relayer-nonce.ts), so many first submissions at once queue there, not on the node. Expiry: quick
 * database work that must keep up with creates. Webhooks: attempts wait on receivers, so many; with pipelining one
 * endpoint's batch needs one slot. Default: maintenance and anything undeclared. Settlement 256:
 * the settle bench (1,000 EIP-3009 payments at 50 ms RPC) settled 42.7/s with 64 and 52.6–64.6/s with 256.
 */
export const DEFAULT_POOL_SLOTS: PoolSlots = { settlement: 256, solana: 128, expiry: 8, webhooks: 32, default: 2 };

/** The pool of a chain's settlement jobs: `settle.eip155-8453` (no ':' in a BullMQ queue name). */
export function settlementPool(caip2: string): string {
  return `settle.${caip2.replace(/:/g, '-')}`;
}

export interface JobPoolPlan {
  /** Named pools besides the default: what the queue is built with. */
  names: string[];
  /** Slots per pool, the default included: what the worker runs. */
  concurrency: PoolConcurrency;
  /** The pool a job runs in. */
  poolOf(type: string, payload: Record<string, unknown>): string;
}

/**
 * The pools of a deployment: one settlement pool per chain it pays on, one each for expiry and
 * webhooks, and the default. Job types the rules do not name run in the default pool.
 */
export function planJobPools(rules: Record<string, JobPoolRule>, chains: readonly string[], slots: PoolSlots = DEFAULT_POOL_SLOTS): JobPoolPlan {
  const settle = new Map(chains.map((c) => [c, settlementPool(c)]));
  const names = ['expiry', 'webhooks', ...settle.values()];
  const concurrency: PoolConcurrency = { [DEFAULT_POOL]: slots.default, expiry: slots.expiry, webhooks: slots.webhooks };
  for (const [chain, pool] of settle) concurrency[pool] = chain.startsWith('solana:') ? slots.solana : slots.settlement;
  return {
    names,
    concurrency,
    poolOf(type, payload) {
      const rule = rules[type];
      if (!rule) return DEFAULT_POOL;
      if (rule.kind !== 'settlement') return rule.kind;
      const chain = rule.chainOf(payload);
      return (chain !== undefined && settle.get(chain)) || DEFAULT_POOL;
    },
  };
}
