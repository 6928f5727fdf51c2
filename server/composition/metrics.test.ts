import { describe, expect, it } from 'vitest';
import { createMemoryMetrics } from '../../adapters/metrics/memory/index.ts';
import { parseExposition, sampleValue } from '../../adapters/metrics/conformance/exposition.ts';
import type { AccountCheck } from '../domain/service-accounts.ts';
import { createManualClock } from '../ports/clock.ts';
import { collectScrapeGauges } from './metrics.ts';

describe('scrape-time gauges', () => {
  it('read the pool, the outbox lag and the fee accounts at each scrape; an unreadable balance is NaN, not its last value', async () => {
    const clock = createManualClock();
    let oldest: Date | null = new Date(clock.now() - 42_000);
    let pool: { total: number; idle: number; waiting: number } | null = { total: 7, idle: 3, waiting: 2 };
    let relayer: AccountCheck = { ok: true, account: '0xabc', minimum: '100', balance: '250' };
    // A second key of the relayer's pool on the same chain: a series of its own.
    const second: AccountCheck = { ok: false, account: '0xdef', minimum: '100', balance: '7' };
    const metrics = createMemoryMetrics();
    const stop = collectScrapeGauges(metrics, {
      clock,
      storage: { poolStats: () => pool, jobs: { oldestUnrelayedAt: async () => oldest } as never },
      serviceAccounts: { checks: async () => ({ 'relayer eip155:8453': relayer, 'relayer eip155:8453 #1': second }) },
    });
    const read = async () => parseExposition((await metrics.exposition()).text);

    let s = await read();
    expect(sampleValue(s, 'jobs_outbox_lag_seconds', {})).toBe(42);
    expect(sampleValue(s, 'db_client_connection_count', { db_client_connection_state: 'idle' })).toBe(3);
    expect(sampleValue(s, 'db_client_connection_count', { db_client_connection_state: 'used' })).toBe(4);
    expect(sampleValue(s, 'db_client_connection_pending_requests', {})).toBe(2);
    expect(sampleValue(s, 'chain_service_account_balance', { role: 'relayer', chain: 'eip155:8453', key: '0' })).toBe(250);
    expect(sampleValue(s, 'chain_service_account_balance_minimum', { role: 'relayer', chain: 'eip155:8453', key: '0' })).toBe(100);
    expect(sampleValue(s, 'chain_service_account_balance', { role: 'relayer', chain: 'eip155:8453', key: '1' })).toBe(7);

    oldest = null;
    pool = { total: 1, idle: 1, waiting: 0 };
    relayer = { ok: false, account: '0xabc', minimum: '100', error: 'rpc unreachable' };
    s = await read();
    expect(sampleValue(s, 'jobs_outbox_lag_seconds', {})).toBe(0);
    expect(sampleValue(s, 'db_client_connection_count', { db_client_connection_state: 'used' })).toBe(0);
    expect(sampleValue(s, 'chain_service_account_balance', { role: 'relayer', chain: 'eip155:8453', key: '0' })).toBeNaN();

    // Once removed (the runtime closed), a scrape no longer reads anything.
    stop();
    oldest = new Date(clock.now() - 5000);
    expect(sampleValue(await read(), 'jobs_outbox_lag_seconds', {})).toBe(0);
  });
});
