import { describe, expect, it } from 'vitest';
import type { CounterDef, GaugeDef, HistogramDef, MetricsPort } from '../../../server/ports/metrics.ts';
import { parseExposition, sampleValue } from './exposition.ts';

const requests: CounterDef<'route' | 'status'> = { kind: 'counter', name: 'test_requests_total', help: 'Requests.', labelNames: ['route', 'status'] };
const latency: HistogramDef<'route'> = { kind: 'histogram', name: 'test_latency_seconds', help: 'Latency.', labelNames: ['route'], buckets: [0.1, 1, 10] };
const waiting: GaugeDef<never> = { kind: 'gauge', name: 'test_waiting', help: 'Waiting.', labelNames: [] };
const depth: GaugeDef<'queue'> = { kind: 'gauge', name: 'test_depth', help: 'Depth.', labelNames: ['queue'] };

/**
 * What every metrics adapter must do: count, observe and gauge per label set, refuse a label its
 * metric did not declare, run the scrape-time collectors before each exposition, escape label
 * values, and keep each instance's metrics to itself (tests build several apps per process).
 */
export function metricsConformance(name: string, open: () => MetricsPort): void {
  describe(`metrics conformance: ${name}`, () => {
    it('counts per label set, in the Prometheus text format', async () => {
      const m = open();
      m.count(requests, { route: '/v1/payments', status: 201 });
      m.count(requests, { route: '/v1/payments', status: 201 }, 2);
      m.count(requests, { route: '/v1/payments/{paymentId}', status: 404 });
      const { contentType, text } = await m.exposition();
      expect(contentType).toMatch(/^text\/plain/);
      const samples = parseExposition(text);
      expect(sampleValue(samples, 'test_requests_total', { route: '/v1/payments', status: '201' })).toBe(3);
      expect(sampleValue(samples, 'test_requests_total', { route: '/v1/payments/{paymentId}', status: '404' })).toBe(1);
      expect(text).toMatch(/^# TYPE test_requests_total counter$/m);
    });

    it('refuses to count down, and a label the metric does not declare', () => {
      const m = open();
      expect(() => m.count(requests, { route: '/', status: 200 }, -1)).toThrow();
      expect(() => m.count(requests, { route: '/', status: 200, paymentId: 'pay_1' } as never)).toThrow();
    });

    it('observes histograms into cumulative buckets, a sum and a count', async () => {
      const m = open();
      for (const v of [0.05, 0.5, 5, 50]) m.observe(latency, { route: 'a' }, v);
      const s = parseExposition((await m.exposition()).text);
      expect(sampleValue(s, 'test_latency_seconds_bucket', { route: 'a', le: '0.1' })).toBe(1);
      expect(sampleValue(s, 'test_latency_seconds_bucket', { route: 'a', le: '1' })).toBe(2);
      expect(sampleValue(s, 'test_latency_seconds_bucket', { route: 'a', le: '10' })).toBe(3);
      expect(sampleValue(s, 'test_latency_seconds_bucket', { route: 'a', le: '+Inf' })).toBe(4);
      expect(sampleValue(s, 'test_latency_seconds_count', { route: 'a' })).toBe(4);
      expect(sampleValue(s, 'test_latency_seconds_sum', { route: 'a' })).toBeCloseTo(55.55);
    });

    it('sets and moves gauges', async () => {
      const m = open();
      m.set(depth, { queue: 'q' }, 7);
      m.set(depth, { queue: 'q' }, 3);
      m.add(waiting, {}, 2);
      m.add(waiting, {}, -1);
      const s = parseExposition((await m.exposition()).text);
      expect(sampleValue(s, 'test_depth', { queue: 'q' })).toBe(3);
      expect(sampleValue(s, 'test_waiting', {})).toBe(1);
    });

    it('runs the collectors before every exposition; one that throws does not stop the others; a removed one no longer runs', async () => {
      const m = open();
      let reads = 0;
      const remove = m.onCollect(async () => {
        reads++;
        await new Promise((r) => setTimeout(r, 5));
        m.set(depth, { queue: 'scraped' }, reads * 10);
      });
      m.onCollect(() => {
        throw new Error('pool gone');
      });
      expect(sampleValue(parseExposition((await m.exposition()).text), 'test_depth', { queue: 'scraped' })).toBe(10);
      expect(sampleValue(parseExposition((await m.exposition()).text), 'test_depth', { queue: 'scraped' })).toBe(20);
      remove();
      expect(sampleValue(parseExposition((await m.exposition()).text), 'test_depth', { queue: 'scraped' })).toBe(20);
      expect(reads).toBe(2);
    });

    it('escapes label values, so a value cannot forge another sample', async () => {
      const m = open();
      m.count(requests, { route: 'a"} 999\nforged_total 1', status: 'x\\' });
      const { text } = await m.exposition();
      expect(text).not.toMatch(/^forged_total/m);
      expect(sampleValue(parseExposition(text), 'test_requests_total', { route: 'a"} 999\nforged_total 1', status: 'x\\' })).toBe(1);
    });

    it('keeps each instance to itself: nothing global is shared', async () => {
      const a = open();
      const b = open();
      a.count(requests, { route: 'a', status: 200 });
      b.count(requests, { route: 'b', status: 200 }, 5);
      const sa = parseExposition((await a.exposition()).text);
      expect(sampleValue(sa, 'test_requests_total', { route: 'a', status: '200' })).toBe(1);
      expect(sampleValue(sa, 'test_requests_total', { route: 'b', status: '200' })).toBeUndefined();
      expect(sampleValue(parseExposition((await b.exposition()).text), 'test_requests_total', { route: 'b', status: '200' })).toBe(5);
    });

    it('refuses a second definition under a name already used', () => {
      const m = open();
      m.count(requests, { route: 'a', status: 200 });
      expect(() => m.count({ ...requests }, { route: 'a', status: 200 })).toThrow(/defined twice/);
    });
  });
}
