import { outsideTrace } from '../domain/trace-context.ts';

/**
 * A background loop of passes: one pass at a time, every `intervalMs`, and at once when nudged.
 * A nudge during a pass asks for one more pass after it, so no nudge is lost and passes never
 * overlap. Shared by the outbox relay and the webhook dispatcher.
 */
export interface PassLoop {
  /** Starts the periodic pass. */
  start(): void;
  /** Stops it and waits for a pass in progress. */
  stop(): Promise<void>;
  /** Runs passes until one ends with nothing asked in between; answers the summed count. */
  runOnce(): Promise<number>;
  /** Asks for a pass now rather than at the next interval. Cheap and safe to call often. */
  notify(): void;
}

export function createPassLoop(opts: {
  intervalMs: number;
  /** One pass; `stopped()` tells a long pass to finish early. Answers how much it did. */
  pass: (stopped: () => boolean) => Promise<number>;
  /** A failed background pass; the next interval tries again. */
  onError: (err: unknown) => void;
  /**
   * Nudges within this many ms of the first one share one pass (default 0: the pass starts on the
   * next turn of the event loop). Why: under steady creates every request nudges, and passes run
   * back to back each carrying the few events made during the last, each costing its statements.
   */
  gatherMs?: number;
}): PassLoop {
  let timer: NodeJS.Timeout | null = null;
  let nudged: NodeJS.Timeout | NodeJS.Immediate | null = null;
  let current: Promise<number> | null = null;
  let again = false;
  let stopped = false;
  const isStopped = () => stopped;

  const runOnce = (): Promise<number> => {
    if (current) {
      again = true;
      return current;
    }
    // Outside any trace: a request that nudges the loop runs it, but what a pass does is not its.
    current = outsideTrace(async () => {
      let total = 0;
      do {
        again = false;
        total += await opts.pass(isStopped);
      } while (again && !stopped);
      return total;
    }).finally(() => {
      current = null;
    });
    return current;
  };

  const gatherMs = opts.gatherMs ?? 0;
  const nudge = () => {
    nudged = null;
    background();
  };
  const clearNudge = () => {
    if (nudged && gatherMs > 0) clearTimeout(nudged as NodeJS.Timeout);
    else if (nudged) clearImmediate(nudged as NodeJS.Immediate);
    nudged = null;
  };

  const background = () => {
    // A nudge during a pass only asks for one more: a `.catch` on the running pass per nudge would
    // pile up on it for as long as nudges keep it going (one per create under steady load).
    if (current) {
      again = true;
      return;
    }
    runOnce().catch(opts.onError);
  };

  return {
    start() {
      if (timer || stopped) return;
      timer = setInterval(background, opts.intervalMs);
      background();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      clearNudge();
      timer = null;
      if (current) await current.catch(() => 0);
    },
    runOnce,
    notify() {
      if (stopped || nudged) return;
      nudged = gatherMs > 0 ? setTimeout(nudge, gatherMs) : setImmediate(nudge);
    },
  };
}
