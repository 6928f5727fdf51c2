// One relayer key sends many submissions; its nonces must be taken one at a time.
import type { ExclusiveSections } from '../../../server/ports/exclusive-sections.ts';

/** Runs async work one item at a time, in call order; a failed item does not block the next. */
export type SerialQueue = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * Serializes submissions from one relayer key within a process: the fallback when no exclusive
 * sections are given (the sandbox and tests, where one process holds the key). Kept here rather
 * than imported from adapters/locks/in-process: an adapter family imports no other family.
 */
export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** The exclusive-section key of one relayer account on one chain: every process signing with it takes the same. */
export const relayerSectionKey = (caip2: string, relayerAddress: string) => `evm-relayer:${caip2}:${relayerAddress.toLowerCase()}`;

/**
 * Where the service owns the key's nonces (a database: relayer-nonce.ts), the key's lock is the
 * counter's row lock and this queue is not used. Without one (embedded
 * storage, one process), the relayer's sign → record → broadcast runs under this queue: with `sections` shared by every
 * worker (PostgreSQL), one section per relayer account and chain at a time, in any process.
 *
 * Under it the node's pending transaction count stays the nonce source, rather than a counter
 * kept beside the lock: the count moves only when a transaction reaches the node, so a gas
 * estimation that refuses (nothing signed) leaves no gap, and a recorded transaction whose
 * broadcast failed keeps its nonce for followRecorded to send again (or, once another took the
 * nonce, to re-sign). A counter would have to learn both. (ethers' NonceManager consumes a nonce
 * even when gas estimation rejects, leaving a gap that blocks every later transaction.)
 *
 * If the lock's connection dies mid-section, another worker may enter while this one still
 * broadcasts: exclusion can break once, and two transactions may take one nonce. That heals by
 * itself: one of them mines; the other payment's recorded transaction is then unknown to the
 * node with its nonce consumed, so followRecorded re-signs it with a fresh nonce while the
 * buyer's authorization is unused (and, if it was used, finds the transaction that used it).
 */
export function relayerQueue(sections: ExclusiveSections | undefined, caip2: string, relayerAddress: string): SerialQueue {
  if (!sections) return createSerialQueue();
  const key = relayerSectionKey(caip2, relayerAddress);
  return (work) => sections.run(key, work);
}
