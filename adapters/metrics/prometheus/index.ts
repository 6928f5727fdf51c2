import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import type { Labels, MetricDef, MetricsPort } from '../../../server/ports/metrics.ts';

export interface PrometheusMetricsOptions {
  /** Node process metrics (CPU, memory, event loop lag, GC, handles): on for a service process. */
  processMetrics?: boolean;
  /** Labels every series of this registry carries, e.g. `{ service_role: 'worker' }`. */
  defaultLabels?: Record<string, string>;
}

/**
 * The metrics port on prom-client. Each instance has its own Registry, never prom-client's global
 * one: tests build several apps in one process, and two registries must not share (or refuse, as
 * duplicates) each other's metrics. A metric is registered the first time it is used, with the
 * label names its definition fixes.
 */
export function createPrometheusMetrics(opts: PrometheusMetricsOptions = {}): MetricsPort {
  const registry = new Registry();
  if (opts.defaultLabels) registry.setDefaultLabels(opts.defaultLabels);
  if (opts.processMetrics) collectDefaultMetrics({ register: registry });
  const made = new Map<string, { def: MetricDef; metric: Metric }>();
  const collectors = new Set<() => Promise<void> | void>();

  function metricOf<M extends Metric>(def: MetricDef): M {
    const known = made.get(def.name);
    if (known) {
      // Two definitions under one name would expose one metric with two meanings.
      if (known.def !== def) throw new Error(`metrics: ${def.name} is defined twice`);
      return known.metric as M;
    }
    const config = { name: def.name, help: def.help, labelNames: [...def.labelNames], registers: [registry] };
    const metric = def.kind === 'counter' ? new Counter(config) : def.kind === 'gauge' ? new Gauge(config) : new Histogram({ ...config, buckets: [...(def.buckets ?? [])] });
    made.set(def.name, { def, metric });
    return metric as M;
  }
  const plain = <L extends string>(labels: Labels<L>) => labels as Record<string, string | number>;

  return {
    count(def, labels, by = 1) {
      if (!(by >= 0)) throw new RangeError(`metrics: ${def.name} counts up only, got ${by}`);
      metricOf<Counter>(def).inc(plain(labels), by);
    },
    observe(def, labels, value) {
      metricOf<Histogram>(def).observe(plain(labels), value);
    },
    set(def, labels, value) {
      metricOf<Gauge>(def).set(plain(labels), value);
    },
    add(def, labels, delta) {
      metricOf<Gauge>(def).inc(plain(labels), delta);
    },
    onCollect(collect) {
      collectors.add(collect);
      return () => void collectors.delete(collect);
    },
    async exposition() {
      await Promise.allSettled([...collectors].map(async (c) => c()));
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
