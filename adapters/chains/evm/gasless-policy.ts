// Which accounts and amounts the relayer pays gas for. It serves every partner from one account,
// so a gasless flow is offered only when paying for it is in proportion and cannot be abused: not
// to an account with code (its code runs in the signature check, at the relayer's expense: an
// EIP-7702 delegation made one transfer cost 10.5M gas), not below the asset's gasless minimum,
// not while the relayer cannot pay, not when the expected gas (L1 data fee included) is above the
// chain's share of the amount, and not when the partner's fee budget is spent. The direct
// transfer, where the buyer pays, stays offered.
import type { OptionRequest } from '../../../server/ports/chains.ts';
import { FLOW_GAS, type RelayerFlowName } from './gas-policy.ts';
import type { ChainReads } from './offer-reads.ts';
import type { RelayerFunds } from './relayer-submit.ts';
import type { RelayerPool } from './relayer-pool.ts';

/** What the policy needs of one chain. */
export interface GaslessChain {
  caip2: string;
  minRelayerBalance: bigint;
  funds: RelayerFunds;
  /** The chain's relayer keys: with more than one, gasless stays offered while any key is in the pool. */
  pool?: RelayerPool;
  /** The native coin's price, micro-USD; absent: the gas budget is not checked. */
  nativeUsdMicros?: bigint;
  /** The share of the amount the expected gas may take, percent (default 10). */
  gasBudgetPercent?: number;
}

/** The asset's gasless minimum, base units: configured, or a hundredth of a whole token (a cent of a dollar stablecoin). */
export function gaslessMinimum(asset: OptionRequest['asset']): bigint {
  if (asset.gaslessMinimum !== undefined) return BigInt(asset.gaslessMinimum);
  return asset.decimals >= 2 ? 10n ** BigInt(asset.decimals - 2) : 1n;
}

/** The expected cost of one relayer transaction of `flow` now, wei: typical gas at the node's price, plus the L1 data fee. */
export async function expectedCost(reads: ChainReads, flow: RelayerFlowName): Promise<bigint> {
  const fees = await reads.feeData();
  const price = fees.gasPrice ?? fees.maxFeePerGas ?? 0n;
  return FLOW_GAS[flow].typical * price + (await reads.l1Fee(flow));
}

/**
 * Why the relayer must not pay for this option (null when it may). What cannot be weighed is
 * refused with the reason (the direct transfer is offered instead), except the buyer's code: an
 * unreadable code read is not a reason to drop the gasless flow, because the relayer's submission
 * reads the code again on a node as fresh as the head (submission-guards.ts) before it spends
 * anything, and fails a payment from an account with code there.
 */
export async function gaslessRefusal(c: GaslessChain, reads: ChainReads, req: OptionRequest, flow: RelayerFlowName): Promise<string | null> {
  if (req.feesRefused) return req.feesRefused;
  const minimum = gaslessMinimum(req.asset);
  if (req.amount < minimum) return `the amount is below ${minimum} base units, the least ${req.asset.symbol} the service pays gas for`;
  const code = await reads.code(req.account.split(':')[2]!).catch(() => null);
  if (code !== null && code !== '0x') return 'the account has code (a contract or an EIP-7702 delegation): it pays its own gas';
  if (c.pool && c.pool.keys.length > 1) {
    if (c.pool.keys.every((k) => k.balance === null)) await c.pool.refresh();
    if (!c.pool.keys.some((k) => c.pool!.inPool(k))) return `every relayer key on ${c.caip2} is short of funds; gasless payments resume once one is topped up`;
  } else
    try {
      const balance = await reads.balance();
      const needed = c.funds.shortOf() ?? 0n;
      if (balance < c.minRelayerBalance || balance < needed) return `the relayer on ${c.caip2} is short of funds; gasless payments resume once it is topped up`;
    } catch {
      return `the service could not read the relayer's balance on ${c.caip2} to weigh a gasless payment; ask again shortly`;
    }
  if (c.nativeUsdMicros === undefined || req.valueUsdMicros === undefined || req.valueUsdMicros === null) return null;
  let costUsdMicros: bigint;
  try {
    costUsdMicros = ((await expectedCost(reads, flow)) * c.nativeUsdMicros) / 10n ** 18n;
  } catch {
    return `the service could not read ${c.caip2}'s fees to weigh a gasless payment's gas against its amount; ask again shortly`;
  }
  const percent = BigInt(c.gasBudgetPercent ?? 10);
  if (costUsdMicros * 100n > req.valueUsdMicros * percent)
    return `its gas (about ${formatUsd(costUsdMicros)} USD) is above ${percent}% of the amount; the buyer pays the gas of a direct transfer`;
  return null;
}

const formatUsd = (micros: bigint) => `${micros / 1_000_000n}.${(micros % 1_000_000n).toString().padStart(6, '0').slice(0, 4)}`;
