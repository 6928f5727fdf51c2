import type { Labels, MetricDef, MetricsPort } from '../../../server/ports/metrics.ts';

type Series = { labels: Record<string, string>; value: number; buckets?: number[]; sum?: number };

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelText = (labels: Record<string, string>) => {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
};
const num = (n: number) => (n === Infinity ? '+Inf' : n === -Infinity ? '-Inf' : String(n));

/**
 * The metrics port in memory, with its own small Prometheus text rendering: for tests and tools
 * that want to read what was recorded without prom-client, and the second adapter the
 * conformance suite holds the port to. Labels are checked against the definition as prom-client
 * checks them, so a test on this adapter catches a wrong label as production would.
 */
export function createMemoryMetrics(): MetricsPort {
  const metrics = new Map<string, { def: MetricDef; series: Map<string, Series> }>();
  const collectors = new Set<() => Promise<void> | void>();

  function seriesOf(def: MetricDef, labels: Labels<string>): Series {
    let m = metrics.get(def.name);
    if (!m) metrics.set(def.name, (m = { def, series: new Map() }));
    else if (m.def !== def) throw new Error(`metrics: ${def.name} is defined twice`);
    const given = Object.keys(labels);
    const unknown = given.find((k) => !def.labelNames.includes(k));
    if (unknown !== undefined) throw new Error(`metrics: ${def.name} has no label ${unknown}`);
    const values = Object.fromEntries(def.labelNames.map((k) => [k, String(labels[k] ?? '')]));
    const key = JSON.stringify(values);
    let s = m.series.get(key);
    if (!s) m.series.set(key, (s = def.kind === 'histogram' ? { labels: values, value: 0, sum: 0, buckets: (def.buckets ?? []).map(() => 0) } : { labels: values, value: 0 }));
    return s;
  }

  function render(def: MetricDef, series: Iterable<Series>): string[] {
    const lines = [`# HELP ${def.name} ${def.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${def.name} ${def.kind}`];
    for (const s of series) {
      if (def.kind !== 'histogram') {
        lines.push(`${def.name}${labelText(s.labels)} ${num(s.value)}`);
        continue;
      }
      (def.buckets ?? []).forEach((le, i) => lines.push(`${def.name}_bucket${labelText({ ...s.labels, le: num(le) })} ${s.buckets![i]}`));
      lines.push(`${def.name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.value}`);
      lines.push(`${def.name}_sum${labelText(s.labels)} ${num(s.sum!)}`, `${def.name}_count${labelText(s.labels)} ${s.value}`);
    }
    return lines;
  }

  return {
    count(def, labels, by = 1) {
      if (!(by >= 0)) throw new RangeError(`metrics: ${def.name} counts up only, got ${by}`);
      seriesOf(def, labels).value += by;
    },
    observe(def, labels, value) {
      const s = seriesOf(def, labels);
      s.value++;
      s.sum! += value;
      (def.buckets ?? []).forEach((le, i) => {
        if (value <= le) s.buckets![i]!++;
      });
    },
    set(def, labels, value) {
      seriesOf(def, labels).value = value;
    },
    add(def, labels, delta) {
      seriesOf(def, labels).value += delta;
    },
    onCollect(collect) {
      collectors.add(collect);
      return () => void collectors.delete(collect);
    },
    async exposition() {
      await Promise.allSettled([...collectors].map(async (c) => c()));
      const lines = [...metrics.values()].flatMap((m) => render(m.def, m.series.values()));
      return { contentType: 'text/plain; version=0.0.4; charset=utf-8', text: lines.length ? `${lines.join('\n')}\n` : '' };
    },
  };
}
