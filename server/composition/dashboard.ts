import type { Logger } from 'pino';
import type { AppConfig } from '../config.ts';
import type { DashboardOptions } from '../dashboard/index.ts';
import { openRateLimiter } from './services.ts';

/**
 * Sign-in throttles: per account, 10 attempts at once then one a minute (a password guesser gets
 * about 1,400 tries a day per account, against passwords of 12 characters or more); per address,
 * 30 at once then one every 5 s (an office behind one NAT still signs in). With Redis they hold
 * across API processes.
 */
const PER_ACCOUNT = { perSecond: 1 / 60, burst: 10 };
const PER_ADDRESS = { perSecond: 1 / 5, burst: 30 };

export async function openDashboard(
  config: Pick<AppConfig, 'redisUrl' | 'dashboard' | 'temporaryPasswordHours'>,
  logger: Logger,
): Promise<{ options: DashboardOptions; close(): Promise<void> } | undefined> {
  if (!config.dashboard) return undefined;
  const perAccount = (await openRateLimiter(config, PER_ACCOUNT, 'dashboard-signin-account', logger))!;
  const perAddress = (await openRateLimiter(config, PER_ADDRESS, 'dashboard-signin-address', logger))!;
  return {
    options: { signInLimiters: { perAccount, perAddress }, temporaryPasswordMs: config.temporaryPasswordHours * 3_600_000 },
    close: async () => {
      await Promise.all([perAccount.close(), perAddress.close()]);
    },
  };
}
