import type { MetricsPort } from '../ports/metrics.ts';
import { METRICS } from '../ports/metric-catalog.ts';
import type { JobHandler } from '../ports/queue.ts';

/**
 * Handlers that count and time their runs per job type: running now, then completed, asked to run
 * again later (`retryAt`: a transfer not final yet, a busy endpoint), or failed (threw; the queue
 * retries it with backoff). The types are the registry's keys, a closed set.
 */
export function meteredHandlers(handlers: Record<string, JobHandler>, metrics: MetricsPort): Record<string, JobHandler> {
  const out: Record<string, JobHandler> = {};
  for (const [type, handler] of Object.entries(handlers)) {
    const labels = { job_type: type };
    out[type] = async (job) => {
      const started = performance.now();
      const done = (outcome: 'completed' | 'retry' | 'failed') => {
        metrics.add(METRICS.jobsRunning, labels, -1);
        metrics.count(outcome === 'completed' ? METRICS.jobsCompleted : outcome === 'retry' ? METRICS.jobsRetried : METRICS.jobsFailed, labels);
        metrics.observe(METRICS.jobDuration, { job_type: type, outcome }, (performance.now() - started) / 1000);
      };
      metrics.add(METRICS.jobsRunning, labels, 1);
      let outcome;
      try {
        outcome = await handler(job);
      } catch (err) {
        done('failed');
        throw err;
      }
      done(outcome && outcome.retryAt instanceof Date ? 'retry' : 'completed');
      return outcome;
    };
  }
  return out;
}
