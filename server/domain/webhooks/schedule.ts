/**
 * When each attempt runs, counted from the previous one: at once, 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 10 h. After the last one fails the delivery is `failed` (redeliver it by hand).
 */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** The wait before attempt `attempt + 1` after attempt number `attempt` failed; null when none is left. */
export function nextAttemptDelay(schedule: readonly number[], attempt: number): number | null {
  return attempt < schedule.length ? (schedule[attempt] as number) : null;
}

/** Rotation overlap: the previous secret signs beside the new one this long. */
export const SECRET_OVERLAP_MS = 24 * 3600_000;

/** The per-attempt deadline: a receiver gets 15 s to answer. */
export const DELIVERY_TIMEOUT_MS = 15_000;
