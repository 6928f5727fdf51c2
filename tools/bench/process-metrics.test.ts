// The tail bench prints the service's event-loop delay, GC and CPU from these readings: if they
// read the wrong series, it would explain a tail by pauses that never happened.
import { describe, expect, it } from 'vitest';
import { createPrometheusMetrics } from '../../adapters/metrics/prometheus/index.ts';
import { metricSum, processWindow } from './process-metrics.ts';

describe('process metrics read from /metrics text', () => {
  it('sums every label set of one metric and no metric whose name only starts the same', () => {
    const text = ['# HELP x_total x', 'x_total{kind="a"} 2', 'x_total{kind="b"} 3.5', 'x_total_more 100', 'y 1'].join('\n');
    expect(metricSum(text, 'x_total')).toBe(5.5);
    expect(metricSum(text, 'y')).toBe(1);
    expect(Number.isNaN(metricSum(text, 'absent'))).toBe(true);
  });

  it('sees a blocked event loop, the CPU it burnt and the collections it caused in the window', async () => {
    const metrics = createPrometheusMetrics({ processMetrics: true });
    const window = processWindow(async () => (await metrics.exposition()).text);
    const wallFrom = performance.now();
    await window.start();
    // Let the loop-delay monitor (10 ms resolution) take quiet samples, then block it until this
    // process has burnt 150 ms of CPU (on a loaded machine that takes longer than 150 ms of wall time).
    await new Promise((r) => setTimeout(r, 100));
    const cpuMs = () => (process.cpuUsage().user + process.cpuUsage().system) / 1000;
    const cpuFrom = cpuMs();
    let garbage: unknown[] = [];
    while (cpuMs() - cpuFrom < 150 && performance.now() - wallFrom < 30_000) garbage = [...garbage.slice(-1000), { at: performance.now(), pad: new Array(64).fill(0) }];
    await new Promise((r) => setTimeout(r, 50));
    const w = await window.end();
    const wall = performance.now() - wallFrom;
    expect(garbage.length).toBeGreaterThan(0);
    expect(w.loopMaxMs).toBeGreaterThanOrEqual(100);
    expect(w.loopP50Ms).toBeLessThan(w.loopMaxMs);
    // At least the 150 ms burnt, over at most the whole wall time the test took.
    expect(w.cpuPercent).toBeGreaterThanOrEqual(Math.floor((100 * 150) / wall) - 1);
    expect(w.gcs).toBeGreaterThan(0);
    expect(w.gcMs).toBeGreaterThanOrEqual(0);
  });
});
