// Exclusive sections inside one process: a promise chain per key. Enough wherever one process
// holds the key's resource alone (the sandbox, embedded storage, tests).
import type { ExclusiveSections } from '../../../server/ports/exclusive-sections.ts';

/** Runs async work one item at a time, in call order; a failed item does not block the next. */
export type SerialQueue = <T>(work: () => Promise<T>) => Promise<T>;

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** One serial queue per key; a key's queue is dropped once nothing waits on it. */
export function createInProcessSections(): ExclusiveSections {
  const queues = new Map<string, { queue: SerialQueue; pending: number }>();
  let closed = false;
  const running = new Set<Promise<unknown>>();
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      if (closed) return Promise.reject(new Error('exclusive sections: closed'));
      let entry = queues.get(key);
      if (!entry) queues.set(key, (entry = { queue: createSerialQueue(), pending: 0 }));
      const e = entry;
      e.pending++;
      const done = e.queue(work).finally(() => {
        if (--e.pending === 0) queues.delete(key);
      });
      const tracked = done.catch(() => undefined);
      running.add(tracked);
      void tracked.then(() => running.delete(tracked));
      return done;
    },
    async close() {
      closed = true;
      await Promise.all(running);
    },
  };
}
