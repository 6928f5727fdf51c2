import { pino } from 'pino';
import { openChains, type OpenedChains } from '../../server/composition/chains.ts';
import { loadConfig, type AppConfig } from '../../server/config.ts';
import { messageOf } from './bounded.ts';
import { checkAssets, checkBalances, checkNodes } from './chains.ts';
import { checkDatabase } from './database.ts';
import { checkFeePolicy, checkFeeSpending } from './fees.ts';
import { checkPayBaseUrl, checkRedis } from './services.ts';
import { checkChainSelfChecks, registeredAssets } from './self-checks.ts';
import type { CheckResult } from './report.ts';

function summary(config: AppConfig): string {
  const evm = Object.keys(config.evmRpcUrls);
  return [
    `${config.mode} mode`,
    evm.length ? `EVM ${evm.join(', ')}` : null,
    config.solanaRpcUrl ? `Solana ${config.solanaChainId}` : null,
    `${config.assets.length} assets in ASSETS_FILE`,
    config.databaseUrl ? 'PostgreSQL' : 'embedded PGlite',
    config.redisUrl ? 'Redis queue' : 'inline queue',
  ]
    .filter(Boolean)
    .join('; ');
}

/** Production without METRICS_TOKEN: /metrics answers 403 to everyone and /readyz hides fee accounts' details. */
export function checkMetricsAccess(config: Pick<AppConfig, 'mode' | 'metricsToken'>): CheckResult {
  if (config.metricsToken) return { verdict: 'PASS', name: 'metrics', reason: '/metrics needs METRICS_TOKEN' };
  if (config.mode === 'production')
    return { verdict: 'WARN', name: 'metrics', reason: 'METRICS_TOKEN is not set: /metrics is closed (403) in production mode and nothing can scrape it' };
  return { verdict: 'PASS', name: 'metrics', reason: '/metrics is open to anyone (sandbox mode, no METRICS_TOKEN)' };
}

/**
 * Every check, against the configuration exactly as the service reads it (`loadConfig`) and
 * through the composition root's own builders (`openChains`, `openQueue`). Independent checks run
 * at once, each bounded by `timeoutMs`; the chains opened are closed before it answers.
 */
export async function runDoctor(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<CheckResult[]> {
  let config: AppConfig;
  try {
    config = loadConfig(env);
  } catch (err) {
    return [{ verdict: 'FAIL', name: 'configuration', reason: messageOf(err) }];
  }
  const results: CheckResult[] = [{ verdict: 'PASS', name: 'configuration', reason: summary(config) }];
  const logger = pino({ level: 'silent' });
  let chains: OpenedChains | undefined;
  try {
    chains = await openChains(config, logger);
  } catch (err) {
    results.push({ verdict: 'FAIL', name: 'chains', reason: `could not be opened: ${messageOf(err)}` });
  }
  try {
    const ports = chains?.ports ?? [];
    const registered = chains ? registeredAssets([...config.assets, ...chains.assets]) : [];
    const [database, redis, nodes, balances, pay, spending, selfChecks] = await Promise.all([
      checkDatabase(config, timeoutMs),
      checkRedis(config, logger, timeoutMs),
      checkNodes(ports, timeoutMs),
      checkBalances(ports, timeoutMs),
      checkPayBaseUrl(config.payBaseUrl, timeoutMs),
      checkFeeSpending(config, timeoutMs),
      checkChainSelfChecks(ports, registered, timeoutMs),
    ]);
    results.push(database, redis, ...nodes.results, ...balances, ...checkFeePolicy(config), ...spending, ...selfChecks);
    if (chains) results.push(...checkAssets([...config.assets, ...chains.assets], nodes.chains));
    results.push(pay, checkMetricsAccess(config));
    return results;
  } finally {
    await chains?.close().catch(() => {});
  }
}
