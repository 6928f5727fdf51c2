import type { MetricsPort } from '../../ports/metrics.ts';
import { METRICS } from '../../ports/metric-catalog.ts';

const OUTCOME = { delivered: 'delivered', pending: 'retry', failed: 'failed' } as const;

/** One recorded delivery attempt: its outcome, how long it took, and whether it disabled its endpoint (410 Gone). */
export function recordDelivery(metrics: MetricsPort | undefined, status: keyof typeof OUTCOME, gone: boolean, tookMs: number): void {
  if (!metrics) return;
  metrics.count(METRICS.webhookDeliveries, { outcome: OUTCOME[status] });
  metrics.observe(METRICS.webhookDuration, { outcome: OUTCOME[status] }, tookMs / 1000);
  if (gone) metrics.count(METRICS.webhookEndpointsDisabled, { reason: 'gone' });
}
