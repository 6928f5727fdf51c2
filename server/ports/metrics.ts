/**
 * The metrics port: what the HTTP layer, the domain and the jobs count, time and gauge, exposed
 * in the Prometheus text format. Every metric is declared once (server/ports/metric-catalog.ts)
 * with the only label names it takes, so a call site cannot invent a label, and label values
 * come from closed sets (job types, statuses, chains, flows, outcomes, route templates), never
 * ids, raw paths or error messages: a series per payment would grow without end.
 */

export type MetricKind = 'counter' | 'histogram' | 'gauge';

export interface MetricDef<K extends MetricKind = MetricKind, L extends string = string> {
  kind: K;
  /** Prometheus spelling: snake case, `_total` on counters, the unit (`_seconds`) last. */
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Histograms: upper bounds of the buckets, seconds. */
  buckets?: readonly number[];
}

export type CounterDef<L extends string = string> = MetricDef<'counter', L>;
export type HistogramDef<L extends string = string> = MetricDef<'histogram', L>;
export type GaugeDef<L extends string = string> = MetricDef<'gauge', L>;

/** One value per label name of the metric, no more and no fewer. */
export type Labels<L extends string> = { readonly [K in L]: string | number };

export interface Exposition {
  contentType: string;
  text: string;
}

export interface MetricsPort {
  /** Adds `by` (default 1, never negative) to a counter. */
  count<L extends string>(metric: CounterDef<L>, labels: Labels<L>, by?: number): void;
  /** Records one observation of a histogram (seconds for `_seconds` metrics). */
  observe<L extends string>(metric: HistogramDef<L>, labels: Labels<L>, value: number): void;
  /** Sets a gauge to `value`. */
  set<L extends string>(metric: GaugeDef<L>, labels: Labels<L>, value: number): void;
  /** Moves a gauge by `delta` (waiters in, waiters out). */
  add<L extends string>(metric: GaugeDef<L>, labels: Labels<L>, delta: number): void;
  /**
   * Runs `collect` before every exposition, for gauges read at scrape time (pool use, outbox lag,
   * balances). A collector that throws leaves its gauges as they were; the others still run.
   * Answers a function that removes it.
   */
  onCollect(collect: () => Promise<void> | void): () => void;
  /** Everything recorded, in the Prometheus text format. */
  exposition(): Promise<Exposition>;
}
