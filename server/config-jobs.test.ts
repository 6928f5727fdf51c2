import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('job pools and webhook capacity configuration', () => {
  it('gives each pool kind its default slots, a partner half the webhook pool, and a 30-day delivery log', () => {
    const c = loadConfig({});
    expect(c.jobSlots).toEqual({ settlement: 256, solana: 128, expiry: 8, webhooks: 32, default: 2 });
    expect(c.webhookPartnerInFlight).toBe(16);
    expect(c.webhookDeliveryRetentionDays).toBe(30);
    expect(c.lateFundsReachDays).toBe(7);
    expect(loadConfig({ LATE_FUNDS_REACH_DAYS: '30' }).lateFundsReachDays).toBe(30);
  });

  it('takes JOB_CONCURRENCY per kind (the rest keep their defaults), and the partner cap follows the webhook pool', () => {
    const c = loadConfig({ JOB_CONCURRENCY: 'settlement=8, webhooks=64,solana=16' });
    expect(c.jobSlots).toEqual({ settlement: 8, solana: 16, expiry: 8, webhooks: 64, default: 2 });
    expect(c.webhookPartnerInFlight).toBe(32);
    expect(loadConfig({ JOB_CONCURRENCY: 'webhooks=20', WEBHOOK_PARTNER_IN_FLIGHT: '4', WEBHOOK_DELIVERY_RETENTION_DAYS: '7' })).toMatchObject({
      webhookPartnerInFlight: 4,
      webhookDeliveryRetentionDays: 7,
    });
  });

  it('refuses what it cannot read, and a partner cap over half the webhook pool, naming the variable', () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ JOB_CONCURRENCY: 'relayer=4' }, /JOB_CONCURRENCY/],
      [{ JOB_CONCURRENCY: 'settlement=0' }, /JOB_CONCURRENCY/],
      [{ JOB_CONCURRENCY: 'settlement' }, /JOB_CONCURRENCY/],
      [{ JOB_CONCURRENCY: 'webhooks=1001' }, /JOB_CONCURRENCY/],
      [{ WEBHOOK_PARTNER_IN_FLIGHT: '17' }, /WEBHOOK_PARTNER_IN_FLIGHT \(17\) must be at most half/],
      [{ WEBHOOK_PARTNER_IN_FLIGHT: 'many' }, /WEBHOOK_PARTNER_IN_FLIGHT/],
      [{ WEBHOOK_DELIVERY_RETENTION_DAYS: '0' }, /WEBHOOK_DELIVERY_RETENTION_DAYS/],
      [{ LATE_FUNDS_REACH_DAYS: '0' }, /LATE_FUNDS_REACH_DAYS/],
      [{ LATE_FUNDS_REACH_DAYS: '91' }, /LATE_FUNDS_REACH_DAYS/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    }
  });
});
