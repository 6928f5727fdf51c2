/**
 * How both queues retry a handler that throws: exponential backoff from `baseMs`, capped at
 * `maxMs`, for at most `maxAttempts` runs. A job that exhausts them is dropped by the queue but
 * stays unfinished in the outbox with its `lastError`, for an operator (or `requeueUnfinished`).
 */
export interface RetryPolicy {
  maxAttempts: number;
  baseMs: number;
  maxMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 20,
  baseMs: 1_000,
  maxMs: 5 * 60_000,
};

/** Checks a partial policy given to a queue factory and fills in the defaults. */
export function resolveRetryPolicy(owner: string, p: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...defaultRetryPolicy, ...p };
  for (const key of ['maxAttempts', 'baseMs', 'maxMs'] as const) {
    const v = policy[key];
    if (!Number.isInteger(v) || v < 1) throw new Error(`${owner}: retry.${key} must be a positive integer, got ${String(v)}`);
  }
  if (policy.maxMs < policy.baseMs) throw new Error(`${owner}: retry.maxMs must be at least retry.baseMs`);
  return policy;
}

/** The wait before the run after `attemptsMade` failed runs (1 → baseMs). */
export function backoffDelay(policy: RetryPolicy, attemptsMade: number): number {
  const exp = Math.min(attemptsMade - 1, 30);
  return Math.min(policy.baseMs * 2 ** Math.max(0, exp), policy.maxMs);
}
