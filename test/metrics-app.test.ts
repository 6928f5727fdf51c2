import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryMetrics } from '../adapters/metrics/memory/index.ts';
import { parseExposition, sampleValue } from '../adapters/metrics/conformance/exposition.ts';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { systemClock } from '../server/ports/clock.ts';
import { storageBackends, type StorageBackend } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

const [pglite] = (await storageBackends()) as [StorageBackend];

/** /metrics beside the API: outside its key checks and rate limits, and absent when the app records nothing. */
describe('GET /metrics on the API app', () => {
  let storage: Awaited<ReturnType<StorageBackend['open']>>;
  let withMetrics: TestApp;
  let without: TestApp;
  const metrics = createMemoryMetrics();

  beforeAll(async () => {
    storage = await pglite.open();
    // One request per client address without a proven key, one per key: a scraper would be refused at once if it were counted.
    withMetrics = await startTestApp(storage, {
      metrics,
      unauthenticatedLimiter: createMemoryRateLimiter({ perSecond: 0.001, burst: 1 }, systemClock),
      rateLimiter: createMemoryRateLimiter({ perSecond: 0.001, burst: 1 }, systemClock),
    });
    without = await startTestApp(storage);
  });
  afterAll(async () => {
    await withMetrics?.close();
    await without?.close();
    await storage?.dispose();
  });

  it('is not counted by the rate limits, needs no API key, and refuses other methods', async () => {
    for (let i = 0; i < 5; i++) expect((await withMetrics.call('GET', '/metrics')).status).toBe(200);
    expect((await withMetrics.call('HEAD', '/metrics')).status).toBe(200);
    // The API's own limit still bites: the second request without a key is refused.
    expect((await withMetrics.call('GET', '/v1/merchants')).status).toBe(401);
    expect((await withMetrics.call('GET', '/v1/merchants')).status).toBe(429);
    expect((await withMetrics.call('DELETE', '/metrics')).status).toBe(404);
    const s = parseExposition(String((await withMetrics.call('GET', '/metrics')).body));
    expect(sampleValue(s, 'http_server_request_duration_seconds_count', { http_request_method: 'GET', http_route: '/metrics', http_response_status_code: '200' })).toBe(5);
    expect(sampleValue(s, 'http_server_request_duration_seconds_count', { http_request_method: 'GET', http_route: '/v1/merchants', http_response_status_code: '429' })).toBe(1);
  });

  it('production mode: closed (403) without METRICS_TOKEN; with one, only the bearer of it reads', async () => {
    // Before: production without METRICS_TOKEN answered 200 with payment volumes to anyone.
    const closed = await startTestApp(storage, { metrics, mode: 'production' });
    const token = 'metrics-token-0123456789abcdef';
    const guarded = await startTestApp(storage, { metrics, mode: 'production', metricsToken: token });
    try {
      const r = await closed.call('GET', '/metrics');
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('forbidden');
      expect((await closed.call('GET', '/metrics', { headers: { Authorization: 'Bearer anything-at-all-here' } })).status).toBe(403);
      expect((await guarded.call('GET', '/metrics')).status).toBe(401);
      expect((await guarded.call('GET', '/metrics', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      await closed.close();
      await guarded.close();
    }
  });

  it('does not exist when the app was given no metrics', async () => {
    const r = await without.call('GET', '/metrics');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
  });
});
