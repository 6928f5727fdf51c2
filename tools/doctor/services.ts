import type { Logger } from 'pino';
import { openQueue } from '../../server/composition/services.ts';
import type { AppConfig } from '../../server/config.ts';
import { bounded, messageOf } from './bounded.ts';
import { originOf, type CheckResult } from './report.ts';

/** Redis through the queue the service would open (`openQueue`), when REDIS_URL is set. */
export async function checkRedis(config: Pick<AppConfig, 'redisUrl' | 'queueLockS'>, logger: Logger, timeoutMs: number): Promise<CheckResult> {
  const name = 'redis';
  if (!config.redisUrl) return { verdict: 'PASS', name, reason: 'no REDIS_URL: jobs run in the API process (inline queue, kept in the outbox)' };
  const at = originOf(config.redisUrl);
  const queue = openQueue(config, 'api', logger);
  try {
    await bounded(() => queue.ping(), timeoutMs);
    return { verdict: 'PASS', name, reason: `${at} answered` };
  } catch (err) {
    return { verdict: 'FAIL', name, reason: `${at} not reachable: ${messageOf(err)}` };
  } finally {
    await bounded(() => queue.close(), timeoutMs).catch(() => {});
  }
}

/** The buyer pages' base answers HTTP at all (any status under 500): links in payments lead somewhere. */
export async function checkPayBaseUrl(payBaseUrl: string, timeoutMs: number): Promise<CheckResult> {
  const name = 'pay base URL';
  try {
    const res = await fetch(payBaseUrl, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    if (res.status >= 500) return { verdict: 'WARN', name, reason: `${payBaseUrl} answered HTTP ${res.status}` };
    return { verdict: 'PASS', name, reason: `${payBaseUrl} answered HTTP ${res.status}` };
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    return { verdict: 'FAIL', name, reason: `${payBaseUrl} did not answer: ${messageOf(cause ?? err)}` };
  }
}
