import { describe, expect, it } from 'vitest';
import { metricsConformance } from '../conformance/metrics-conformance.ts';
import { parseExposition, sampleValue } from '../conformance/exposition.ts';
import { createPrometheusMetrics } from './index.ts';

metricsConformance('prometheus', () => createPrometheusMetrics());

describe('prometheus metrics', () => {
  it('adds Node process metrics and default labels to its own registry only', async () => {
    const m = createPrometheusMetrics({ processMetrics: true, defaultLabels: { service_role: 'worker' } });
    const samples = parseExposition((await m.exposition()).text);
    expect(samples.some((s) => s.name === 'process_resident_memory_bytes' && s.labels.service_role === 'worker')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
    // A second registry in the same process neither shares them nor refuses them as duplicates.
    const other = createPrometheusMetrics({ processMetrics: true });
    expect(sampleValue(parseExposition((await other.exposition()).text), 'nodejs_eventloop_lag_seconds', {})).toBeGreaterThanOrEqual(0);
    expect((await createPrometheusMetrics().exposition()).text).not.toMatch(/process_resident_memory_bytes/);
  });
});
