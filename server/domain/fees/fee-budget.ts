// The relayer and the Solana fee payer serve every partner from one account each: without a bound,
// one partner's payments (dust, a buyer burning gas) could empty them for all the others. Each
// transaction's cost is charged to the partner whose payment it served, and a partner whose
// payments spent their budget on a chain within the period gets no option there that the
// service pays fees for; options where the buyer pays stay offered.
import type { FeeSpent } from '../../ports/chains.ts';
import type { Logger } from '../../ports/logger.ts';
import { METRICS } from '../../ports/metric-catalog.ts';
import type { MetricsPort } from '../../ports/metrics.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import type { AssetInfo } from '../assets.ts';
import type { PricePort } from '../prices.ts';

/** The budgets in force: per chain, per partner, over a rolling period. */
export interface FeeBudgetPolicy {
  /** What one partner may spend on `chain` per period, native base units. */
  budget(chain: string): bigint;
  periodS: number;
}

/** The start of the period ending `now`. */
export const periodStart = (policy: FeeBudgetPolicy, now: number) => new Date(now - policy.periodS * 1000);

/**
 * Why the service may not pay fees for this partner's payments on `chain` now (its budget is
 * spent), or undefined. An unreadable store refuses too: fees are paid on evidence, not on hope.
 */
export async function feesRefusedFor(deps: { storage: StoragePort; feeBudget?: FeeBudgetPolicy }, partnerId: string, chain: string, now: number): Promise<string | undefined> {
  if (!deps.feeBudget) return undefined;
  const budget = deps.feeBudget.budget(chain);
  try {
    const spent = await deps.storage.feeSpending.spentSince(partnerId, chain, periodStart(deps.feeBudget, now));
    if (spent < budget) return undefined;
  } catch {
    return 'the service could not read this partner’s fee spending';
  }
  return `this partner’s payments spent their fee budget on ${chain} for the period; the buyer pays the fees`;
}

/** Charges one transaction's spend to the payment's partner, once; counted in the metric when new. */
export async function recordFeeSpent(
  deps: { storage: StoragePort; metrics?: MetricsPort; logger: Logger },
  spend: FeeSpent & { partnerId: string; paymentId: string; chain: string; at: Date },
): Promise<void> {
  try {
    const fresh = await deps.storage.feeSpending.record({ ...spend });
    if (fresh) deps.metrics?.count(METRICS.feeSpent, { chain: spend.chain }, Number(spend.amount));
  } catch (err) {
    // The payment's outcome does not wait on the meter; a lost entry only under-counts one transaction.
    deps.logger.warn({ err, paymentId: spend.paymentId, txId: spend.txId }, 'could not record what a fee account spent');
  }
}

/** One million US dollars, in cents: the probe that turns a price table's fiat → token rate around. */
const PROBE_USD_CENTS = 100_000_000n;
const PROBE_USD_MICROS = 1_000_000_000_000n;

/**
 * An amount of `asset` in micro-USD, for weighing a fee against it: at par for a USD stablecoin,
 * through the price table for another peg; null when no rate says (the fee is then not weighed).
 */
export function valueUsdMicros(asset: AssetInfo, amount: bigint, prices: PricePort): bigint | null {
  if (!asset.pegCurrency) return null;
  if (asset.pegCurrency === 'USD') return (amount * 1_000_000n) / 10n ** BigInt(asset.decimals);
  const perProbe = prices.tokenAmount('USD', PROBE_USD_CENTS, asset);
  return perProbe ? (amount * PROBE_USD_MICROS) / perProbe : null;
}
