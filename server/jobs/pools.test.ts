import { describe, expect, it } from 'vitest';
import { buildJobHandlers, JOB_POOL_RULES } from './handlers.ts';
import { MAINTENANCE_JOB_TYPE } from './maintenance.ts';
import { planJobPools, settlementPool } from './pools.ts';
import { createManualClock } from '../ports/clock.ts';
import { silentLogger } from '../ports/logger.ts';
import { createAssetRegistry } from '../domain/assets.ts';
import type { StoragePort } from '../ports/storage/index.ts';

describe('job pools', () => {
  const plan = planJobPools(JOB_POOL_RULES, ['eip155:8453', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'], { settlement: 3, solana: 40, expiry: 5, webhooks: 20, default: 1 });

  it('makes a settlement pool per chain beside expiry, webhooks and the default, each with its slots (a Solana cluster’s its own figure)', () => {
    expect(plan.names).toEqual(['expiry', 'webhooks', 'settle.eip155-8453', 'settle.solana-5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp']);
    expect(plan.concurrency).toEqual({ default: 1, expiry: 5, webhooks: 20, 'settle.eip155-8453': 3, 'settle.solana-5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 40 });
  });

  it('runs settlement in its chain’s pool, and what it cannot place in the default pool', () => {
    expect(plan.poolOf('payment.advance', { paymentId: 'p', chain: 'eip155:8453' })).toBe(settlementPool('eip155:8453'));
    expect(plan.poolOf('payment.advance', { paymentId: 'p', chain: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' })).toBe('settle.solana-5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp');
    // Written before jobs named their chain, or on a chain this deployment does not pay on.
    expect(plan.poolOf('payment.advance', { paymentId: 'p' })).toBe('default');
    expect(plan.poolOf('payment.advance', { paymentId: 'p', chain: 'eip155:1' })).toBe('default');
    expect(plan.poolOf('payment.expire', { paymentId: 'p' })).toBe('expiry');
    expect(plan.poolOf('webhook.deliver', { deliveryId: 'd' })).toBe('webhooks');
    expect(plan.poolOf(MAINTENANCE_JOB_TYPE, {})).toBe('default');
    expect(plan.poolOf('something.new', {})).toBe('default');
  });

  it('has a pool rule for every job type the registry runs: a new type must say where it runs', () => {
    const handlers = buildJobHandlers({
      storage: {} as StoragePort,
      clock: createManualClock(),
      logger: silentLogger,
      assets: createAssetRegistry([]),
      webhooks: { fetch: { fetch: () => Promise.reject(new Error('not used')) } },
    });
    for (const type of [...Object.keys(handlers), MAINTENANCE_JOB_TYPE]) expect(JOB_POOL_RULES[type], type).toBeDefined();
  });
});
