import type { ServiceAccountChecks } from '../domain/service-accounts.ts';
import type { Clock } from '../ports/clock.ts';
import type { MetricsPort } from '../ports/metrics.ts';
import { METRICS } from '../ports/metric-catalog.ts';
import type { StoragePort } from '../ports/storage/index.ts';

export interface ScrapeGaugeSources {
  storage: Pick<StoragePort, 'poolStats' | 'jobs'>;
  clock: Clock;
  /** Relayer and fee-payer balances (cached by the checks, so a scrape does not dial every RPC). */
  serviceAccounts?: ServiceAccountChecks;
}

/**
 * Gauges read when Prometheus scrapes rather than kept up to date: the database pool's use, the
 * outbox's lag (one indexed query), and the service accounts' balances. Each costs a bounded
 * amount per scrape, whatever the traffic.
 */
export function collectScrapeGauges(metrics: MetricsPort, src: ScrapeGaugeSources): () => void {
  const removers = [
    metrics.onCollect(() => {
      const pool = src.storage.poolStats();
      if (!pool) return;
      metrics.set(METRICS.dbConnections, { db_client_connection_state: 'idle' }, pool.idle);
      metrics.set(METRICS.dbConnections, { db_client_connection_state: 'used' }, pool.total - pool.idle);
      metrics.set(METRICS.dbPending, {}, pool.waiting);
    }),
    metrics.onCollect(async () => {
      const oldest = await src.storage.jobs.oldestUnrelayedAt();
      metrics.set(METRICS.outboxLag, {}, oldest ? Math.max(0, src.clock.now() - oldest.getTime()) / 1000 : 0);
    }),
  ];
  const accounts = src.serviceAccounts;
  if (accounts) {
    removers.push(
      metrics.onCollect(async () => {
        for (const [key, check] of Object.entries(await accounts.checks())) {
          // Keys are `<role> <CAIP-2>[ #<n>]`: one per account (a relayer pool has several per chain), labelled by
          // its place in the pool, never its address (labels stay few and name nothing).
          const [role = '', chain = '', n = '#0'] = key.split(' ');
          const labels = { role, chain, key: n.slice(1) };
          metrics.set(METRICS.serviceAccountMinimum, labels, Number(check.minimum));
          // An unreadable balance is NaN, not 0 (which would read as empty) nor the last value read (which would hide the outage).
          metrics.set(METRICS.serviceAccountBalance, labels, 'balance' in check ? Number(check.balance) : NaN);
        }
      }),
    );
  }
  return () => removers.forEach((remove) => remove());
}
