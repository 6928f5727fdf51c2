import { createPgDb } from '../../adapters/storage/postgres/sql-db.ts';
import type { AppConfig } from '../../server/config.ts';
import { evmFeePolicy, partnerFeeBudget } from '../../server/config-chain-fees.ts';
import { solanaPriorityFeePolicy } from '../../server/composition/chains.ts';
import { bounded, messageOf } from './bounded.ts';
import type { CheckResult } from './report.ts';

const GWEI = 1_000_000_000n;
const gwei = (wei: bigint) => (wei % GWEI === 0n ? `${wei / GWEI}` : (Number(wei) / 1e9).toString());

/** What the relayer may spend on each configured EVM chain, and the Solana fee payer per compute unit, as the service will apply it (profile defaults and overrides). */
export function checkFeePolicy(config: AppConfig): CheckResult[] {
  const solana = config.solanaRpcUrl ? [solanaFeeLine(config)] : [];
  return [...evmFeeLines(config), ...solana];
}

function solanaFeeLine(config: AppConfig): CheckResult {
  const chain = config.solanaChainId;
  const p = solanaPriorityFeePolicy(config, chain);
  return {
    verdict: 'PASS',
    name: `fees ${chain}`,
    reason:
      `priority fee at the ${p.percentile}th percentile of recent fees, ${p.minMicroLamports}–${p.maxMicroLamports} micro-lamports per compute unit; ` +
      `fee payer low below ${config.solanaFeePayerMinLamports} lamports; each partner ${partnerFeeBudget(config, chain)} lamports per ${config.feeBudgetPeriodS} s`,
  };
}

function evmFeeLines(config: AppConfig): CheckResult[] {
  return Object.keys(config.evmRpcUrls).map((chain): CheckResult => {
    const p = evmFeePolicy(config, chain);
    const usd = `${p.nativeUsdMicros / 1_000_000n}`;
    return {
      verdict: 'PASS',
      name: `fees ${chain}`,
      reason:
        `max fee ${gwei(p.maxFeePerGas)} gwei, min tip ${gwei(p.minPriorityFee)} gwei, relayer low below ${p.minRelayerBalance} wei; ` +
        `gasless while gas ≤ ${p.gasBudgetPercent}% of the amount (native weighed at ${usd} USD)${p.l1DataFee === 'op-stack' ? ', L1 data fee included' : ''}; ` +
        `each partner ${partnerFeeBudget(config, chain)} wei per ${config.feeBudgetPeriodS} s`,
    };
  });
}

/**
 * The partners whose payments spent the most from the shared fee accounts in the current budget
 * period (PostgreSQL only): a WARN for each at or over its budget on a chain (its buyers get no
 * gasless option there), one PASS line otherwise.
 */
export async function checkFeeSpending(config: AppConfig, timeoutMs: number): Promise<CheckResult[]> {
  const name = 'fee spending';
  if (!config.databaseUrl) return [{ verdict: 'WARN', name, reason: 'no DATABASE_URL: the embedded database is not opened here' }];
  const db = createPgDb({ url: config.databaseUrl, max: 1 });
  try {
    const rows = await bounded(
      async () =>
        (
          await db.query<{ partner_id: string; chain: string; total: string; n: string }>(
            `SELECT partner_id, chain, sum(amount)::text AS total, count(*)::text AS n FROM fee_spending
             WHERE at >= now() - make_interval(secs => $1) GROUP BY partner_id, chain ORDER BY sum(amount) DESC LIMIT 50`,
            [config.feeBudgetPeriodS],
          )
        ).rows,
      timeoutMs,
    );
    const over = rows.filter((r) => BigInt(r.total) >= partnerFeeBudget(config, r.chain));
    if (over.length)
      return over.map((r) => ({
        verdict: 'WARN',
        name,
        reason: `partner ${r.partner_id} spent ${r.total} of its ${partnerFeeBudget(config, r.chain)} on ${r.chain} in ${r.n} transactions this period: its buyers get no gasless option there`,
      }));
    if (!rows.length) return [{ verdict: 'PASS', name, reason: `nothing spent in the last ${config.feeBudgetPeriodS} s` }];
    const top = rows[0]!;
    return [{ verdict: 'PASS', name, reason: `${new Set(rows.map((r) => r.partner_id)).size} partners within budget; most: ${top.partner_id} spent ${top.total} on ${top.chain}` }];
  } catch (err) {
    return [{ verdict: 'WARN', name, reason: `could not be read: ${messageOf(err)}` }];
  } finally {
    await db.close().catch(() => {});
  }
}
