import { DEFAULT_POOL, POOL_NAME, type PoolConcurrency } from '../../server/ports/queue.ts';

/** Checks the named pools given to a queue factory; the default pool is always there. */
export function resolvePoolNames(owner: string, pools: readonly string[] = []): Set<string> {
  for (const p of pools) if (!POOL_NAME.test(p)) throw new Error(`${owner}: pool "${p}" must be 1-80 of A-Z a-z 0-9 _ . -`);
  return new Set([DEFAULT_POOL, ...pools]);
}

/** The pool a job runs in: the one it names when the queue knows it, else the default. */
export function poolOf(known: ReadonlySet<string>, pool: string | undefined): string {
  return pool !== undefined && known.has(pool) ? pool : DEFAULT_POOL;
}

/**
 * Slots per known pool from `startWorker`'s options: `concurrency` is the default pool's, `pools`
 * the others' (1 where left out). A pool the queue was not built with is a wiring mistake: refused.
 */
export function resolveConcurrency(owner: string, known: ReadonlySet<string>, opts?: { concurrency?: number; pools?: PoolConcurrency }): Map<string, number> {
  const slots = new Map<string, number>();
  for (const p of known) slots.set(p, 1);
  const given: PoolConcurrency = { ...opts?.pools, ...(opts?.concurrency === undefined ? {} : { [DEFAULT_POOL]: opts.concurrency }) };
  for (const [pool, n] of Object.entries(given)) {
    if (!known.has(pool)) throw new Error(`${owner}: pool "${pool}" was not given to the queue when it was built`);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${owner}: concurrency must be a positive integer (pool ${pool})`);
    slots.set(pool, n);
  }
  return slots;
}
