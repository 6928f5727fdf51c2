// One relayer key sends many submissions; its nonces must be taken one at a time.

/** Runs async work one item at a time, in call order; a failed item does not block the next. */
export type SerialQueue = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * Serializes submissions from one relayer key within a process. Each submit reads the
 * relayer's pending nonce; two concurrent submits would read the same one and one would be
 * dropped. (ethers' NonceManager is not a fit: it consumes a nonce even when gas estimation
 * rejects the transaction, leaving a gap that blocks every later transaction.) Across
 * processes, give each process its own relayer key or run submissions in one worker.
 */
export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}
