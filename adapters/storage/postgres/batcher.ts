/**
 * Group commit for one kind of statement: calls that arrive while `maxInFlight` statements of
 * that kind are already running wait, and the next statement carries all of them at once.
 *
 * Why: on PostgreSQL most of a small write's cost is per statement and per transaction (the
 * protocol exchange, executor start-up, the commit record, the WAL flush), not per row; eight
 * payment creates in one statement cost a quarter of the machine's CPU of eight statements
 * (measured with pgbench on this project's create). No call waits on a timer to fill a batch:
 * under light load every call runs at once, alone, and batches form only while the database
 * is busy, which is exactly when it pays. Each caller's promise settles only after its own statement committed.
 */
export interface BatcherOptions<T, R> {
  /**
   * Runs one batch; answers one result per item, in order. It must be all or nothing (one
   * statement is): a batch that fails is run again item by item, so a bad item fails only its
   * own caller.
   */
  run(items: T[]): Promise<R[]>;
  /** Statements of this kind running at once; more calls wait for the next batch. */
  maxInFlight: number;
  /** Items per statement at most, to bound one statement's size and lock footprint. */
  maxBatch: number;
  /**
   * Up to `extra` more statements while every running one is late: it has run longer than
   * `factor` times the recent typical run (an exponentially weighted mean), and at least
   * `minMs`. Why: at a steady rate below saturation a statement now and then stalls (a slow
   * WAL flush, the CPU taken), and every call behind it waits the whole stall; a late statement
   * is no sign of saturation, so one more alongside it costs little throughput. Under
   * saturation statements are long but not late against their own mean, so `maxInFlight` holds.
   */
  whenLate?: { extra: number; factor: number; minMs: number };
}

interface Waiting<T, R> {
  item: T;
  resolve(r: R): void;
  reject(err: unknown): void;
}

// Weight of the newest run in the mean: about the last ten statements count.
const EWMA_WEIGHT = 0.1;

export function createBatcher<T, R>(opts: BatcherOptions<T, R>): (item: T) => Promise<R> {
  if (!(opts.maxInFlight >= 1 && opts.maxBatch >= 1)) throw new Error('batcher: maxInFlight and maxBatch must be at least 1');
  const late = opts.whenLate;
  if (late && !(late.extra >= 1 && late.factor > 0 && late.minMs >= 0)) throw new Error('batcher: whenLate needs extra ≥ 1, factor > 0, minMs ≥ 0');
  const waiting: Array<Waiting<T, R>> = [];
  // Start times of the running statements, oldest first.
  const running: number[] = [];
  let typicalMs: number | undefined;
  let lateTimer: ReturnType<typeof setTimeout> | undefined;

  // How long a statement may run before it counts as late; none until one run was measured.
  const lateAfter = () => (late && typicalMs !== undefined ? Math.max(late.minMs, late.factor * typicalMs) : Infinity);

  const room = () => {
    if (running.length < opts.maxInFlight) return true;
    if (!late || running.length >= opts.maxInFlight + late.extra) return false;
    // Every running statement late means the newest one is.
    return performance.now() - running[running.length - 1]! >= lateAfter();
  };

  const flush = () => {
    while (waiting.length && room()) start(waiting.splice(0, opts.maxBatch));
    if (waiting.length && late && lateTimer === undefined && running.length < opts.maxInFlight + late.extra && lateAfter() !== Infinity) {
      // Checked again when the newest statement turns late, if calls still wait then.
      const wait = running[running.length - 1]! + lateAfter() - performance.now();
      lateTimer = setTimeout(
        () => {
          lateTimer = undefined;
          flush();
        },
        Math.max(0, Math.ceil(wait)),
      );
      lateTimer.unref();
    }
  };

  const start = (batch: Array<Waiting<T, R>>) => {
    const startedAt = performance.now();
    running.push(startedAt);
    void settle(batch).finally(() => {
      const took = performance.now() - startedAt;
      typicalMs = typicalMs === undefined ? took : typicalMs + EWMA_WEIGHT * (took - typicalMs);
      running.splice(running.indexOf(startedAt), 1);
      flush();
    });
  };

  const settle = async (batch: Array<Waiting<T, R>>) => {
    try {
      const results = await opts.run(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i]!));
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      await Promise.all(
        batch.map((w) =>
          opts.run([w.item]).then(
            (r) => w.resolve(r[0]!),
            (e: unknown) => w.reject(e),
          ),
        ),
      );
    }
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      flush();
    });
}
