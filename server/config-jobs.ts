import { DEFAULT_POOL_SLOTS, SLOT_KINDS, type SlotKind, type PoolSlots } from './jobs/pools.ts';

/** Job pools and webhook capacity from the environment; `problem` names the variable at fault. */
export interface JobsConfig {
  /** Job slots per pool kind in this process (settlement: per chain). */
  jobSlots: PoolSlots;
  /** Webhook attempts one partner may have in flight in this process, over all its endpoints. */
  webhookPartnerInFlight: number;
  /** Delivered and failed webhook deliveries (with their attempts) are purged this long after they were made, days. */
  webhookDeliveryRetentionDays: number;
  /** How long after an unpaid payment ended its quotes are kept and watched for late funds, days. */
  lateFundsReachDays: number;
}

const MAX_SLOTS = 1000;

/**
 * JOB_CONCURRENCY: slots per pool kind, e.g. `settlement=8,webhooks=64` (the kinds left out keep
 * their defaults; `settlement` is per EVM chain, `solana` per Solana cluster).
 * WEBHOOK_PARTNER_IN_FLIGHT: at most half the webhook pool, so a partner whose receivers hang
 * leaves the other half to everyone else.
 * WEBHOOK_DELIVERY_RETENTION_DAYS: how long the delivery log keeps a settled delivery.
 * LATE_FUNDS_REACH_DAYS: how long funds reaching a merchant for an unpaid payment are still recognised.
 */
export function parseJobsConfig(env: NodeJS.ProcessEnv): JobsConfig | { problem: string } {
  const jobSlots: PoolSlots = { ...DEFAULT_POOL_SLOTS };
  const raw = env.JOB_CONCURRENCY;
  if (raw !== undefined && raw !== '') {
    for (const part of raw.split(',').map((p) => p.trim())) {
      const m = /^([a-z]+)=(\d{1,4})$/.exec(part);
      const kind = m?.[1] as SlotKind | undefined;
      const n = Number(m?.[2]);
      if (!m || !SLOT_KINDS.includes(kind!) || n < 1 || n > MAX_SLOTS) {
        return {
          problem: `JOB_CONCURRENCY must be comma-separated kind=slots with kinds ${SLOT_KINDS.join(', ')} and slots 1 to ${MAX_SLOTS}, e.g. "settlement=4,webhooks=32", got "${raw}"`,
        };
      }
      jobSlots[kind!] = n;
    }
  }
  const inFlight = integer(env, 'WEBHOOK_PARTNER_IN_FLIGHT', Math.max(1, Math.floor(jobSlots.webhooks / 2)), 1, MAX_SLOTS);
  if (typeof inFlight === 'string') return { problem: inFlight };
  if (inFlight * 2 > jobSlots.webhooks) {
    return {
      problem: `WEBHOOK_PARTNER_IN_FLIGHT (${inFlight}) must be at most half the webhook pool's slots (JOB_CONCURRENCY webhooks=${jobSlots.webhooks}), so one partner cannot take them all`,
    };
  }
  const retention = integer(env, 'WEBHOOK_DELIVERY_RETENTION_DAYS', 30, 1, 3650);
  if (typeof retention === 'string') return { problem: retention };
  const reach = integer(env, 'LATE_FUNDS_REACH_DAYS', 7, 1, 90);
  if (typeof reach === 'string') return { problem: reach };
  return { jobSlots, webhookPartnerInFlight: inFlight, webhookDeliveryRetentionDays: retention, lateFundsReachDays: reach };
}

/** A whole number in bounds, or the problem naming the key. */
function integer(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number, max: number): number | string {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min && n <= max ? n : `${key} must be an integer from ${min} to ${max}, got "${raw}"`;
}
