import { describe, expect, it } from 'vitest';
import { checkMetricsAccess } from './run.ts';

describe('doctor: metrics access', () => {
  it('warns in production without METRICS_TOKEN, passes with one or in sandbox', () => {
    expect(checkMetricsAccess({ mode: 'production' }).verdict).toBe('WARN');
    expect(checkMetricsAccess({ mode: 'production', metricsToken: 'x'.repeat(16) }).verdict).toBe('PASS');
    expect(checkMetricsAccess({ mode: 'sandbox' }).verdict).toBe('PASS');
  });
});
