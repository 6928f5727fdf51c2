import { chainFeeDefaults, defaultPartnerBudget, type ChainFeeDefaults } from './chain-profiles.ts';
import { baseUnits } from './config-values.ts';

/**
 * What the service's fee accounts may spend, per chain: the defaults of server/chain-profiles.ts,
 * overridden by EVM_CHAIN_FEES per chain, with EVM_MAX_FEE_GWEI and EVM_RELAYER_MIN_BALANCE_WEI
 * still read as overrides for every EVM chain (a per-chain entry wins over them); and the budget
 * each partner's payments may spend from each chain's fee account per FEE_BUDGET_PERIOD_S.
 */
export interface ChainFeeConfig {
  /** EVM_CHAIN_FEES, as parsed: CAIP-2 → the fields it overrides. */
  evmChainFees: Readonly<Record<string, Partial<ChainFeeDefaults>>>;
  /** EVM_MAX_FEE_GWEI, when set: every EVM chain's cap not named in EVM_CHAIN_FEES. */
  evmMaxFeeGwei?: number;
  /** EVM_RELAYER_MIN_BALANCE_WEI, when set: every EVM chain's minimum not named in EVM_CHAIN_FEES. */
  evmRelayerMinBalanceWei?: bigint;
  /** FEE_BUDGETS: CAIP-2 → what one partner may spend there per period, native base units. */
  feeBudgets: Readonly<Record<string, bigint>>;
  /** FEE_BUDGET_PERIOD_S: the window a partner's spending is summed over (rolling). */
  feeBudgetPeriodS: number;
}

const GWEI = 1_000_000_000n;
const CAIP2 = /^(eip155:[1-9]\d{0,31}|solana:[-_a-zA-Z0-9]{1,32})$/;
const FEE_KEYS = ['maxFeeGwei', 'minPriorityFeeGwei', 'minRelayerBalanceWei', 'nativeUsd', 'gasBudgetPercent'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A decimal of up to 6 places as micro-units ("2500.5" USD → 2_500_500_000), or null. */
function micros(v: unknown): bigint | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const m = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(String(v));
  if (!m) return null;
  return BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'));
}

/** One chain's EVM_CHAIN_FEES entry, or its problem. */
function feeEntry(chain: string, v: unknown): Partial<ChainFeeDefaults> | string {
  if (!isObject(v)) return `"${chain}" must map to an object of ${FEE_KEYS.join(', ')}`;
  const unknown = Object.keys(v).filter((k) => !(FEE_KEYS as readonly string[]).includes(k));
  if (unknown.length) return `"${chain}": unknown key ${unknown.join(', ')} (known: ${FEE_KEYS.join(', ')})`;
  const out: Partial<ChainFeeDefaults> = {};
  const whole = (key: string, max: number): number | string | undefined => {
    const x = v[key];
    if (x === undefined) return undefined;
    return typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= max ? x : `"${chain}": ${key} must be a whole number from 0 to ${max}`;
  };
  const maxFee = whole('maxFeeGwei', 1_000_000);
  if (typeof maxFee === 'string') return maxFee;
  if (maxFee !== undefined) {
    if (maxFee === 0) return `"${chain}": maxFeeGwei must be at least 1`;
    out.maxFeePerGas = BigInt(maxFee) * GWEI;
  }
  const tip = whole('minPriorityFeeGwei', 100_000);
  if (typeof tip === 'string') return tip;
  if (tip !== undefined) out.minPriorityFee = BigInt(tip) * GWEI;
  if (v.minRelayerBalanceWei !== undefined) {
    const n = typeof v.minRelayerBalanceWei === 'string' ? baseUnits(v.minRelayerBalanceWei) : null;
    if (n === null) return `"${chain}": minRelayerBalanceWei must be a string of whole wei, e.g. "10000000000000000"`;
    out.minRelayerBalance = n;
  }
  if (v.nativeUsd !== undefined) {
    const n = micros(v.nativeUsd);
    if (n === null || n === 0n) return `"${chain}": nativeUsd must be a positive decimal string (USD per native coin, up to 6 decimals), e.g. "3500"`;
    out.nativeUsdMicros = n;
  }
  const budget = whole('gasBudgetPercent', 100);
  if (typeof budget === 'string') return budget;
  if (budget !== undefined) out.gasBudgetPercent = budget;
  if (out.minPriorityFee !== undefined && out.maxFeePerGas !== undefined && out.minPriorityFee > out.maxFeePerGas) return `"${chain}": minPriorityFeeGwei cannot exceed maxFeeGwei`;
  return out;
}

/** The fee settings from the environment, or the first problem (naming the variable). */
export function parseChainFeeConfig(env: NodeJS.ProcessEnv): ChainFeeConfig | { problem: string } {
  const evmChainFees: Record<string, Partial<ChainFeeDefaults>> = {};
  const rawFees = env.EVM_CHAIN_FEES?.trim();
  if (rawFees) {
    let value: unknown;
    try {
      value = JSON.parse(rawFees);
    } catch (err) {
      return { problem: `EVM_CHAIN_FEES is not valid JSON: ${(err as Error).message}` };
    }
    if (!isObject(value))
      return { problem: 'EVM_CHAIN_FEES must be a JSON object of CAIP-2 chain id → {maxFeeGwei, minPriorityFeeGwei, minRelayerBalanceWei, nativeUsd, gasBudgetPercent}' };
    for (const [chain, entry] of Object.entries(value)) {
      if (!/^eip155:[1-9]\d{0,31}$/.test(chain)) return { problem: `EVM_CHAIN_FEES: "${chain}" must be an eip155 CAIP-2 chain id, e.g. eip155:8453` };
      const parsed = feeEntry(chain, entry);
      if (typeof parsed === 'string') return { problem: `EVM_CHAIN_FEES: ${parsed}` };
      evmChainFees[chain] = parsed;
    }
  }
  const feeBudgets: Record<string, bigint> = {};
  const rawBudgets = env.FEE_BUDGETS?.trim();
  if (rawBudgets) {
    let value: unknown;
    try {
      value = JSON.parse(rawBudgets);
    } catch (err) {
      return { problem: `FEE_BUDGETS is not valid JSON: ${(err as Error).message}` };
    }
    if (!isObject(value))
      return { problem: 'FEE_BUDGETS must be a JSON object of CAIP-2 chain id → native base units per period as a string, e.g. {"eip155:8453":"50000000000000000"}' };
    for (const [chain, amount] of Object.entries(value)) {
      if (!CAIP2.test(chain)) return { problem: `FEE_BUDGETS: "${chain}" must be a CAIP-2 chain id (eip155:… or solana:…)` };
      const n = typeof amount === 'string' ? baseUnits(amount) : null;
      if (n === null) return { problem: `FEE_BUDGETS: "${chain}" must map to a string of whole native base units (wei, lamports), e.g. "50000000000000000"` };
      feeBudgets[chain] = n;
    }
  }
  const out: ChainFeeConfig = { evmChainFees, feeBudgets, feeBudgetPeriodS: 86_400 };
  const maxFee = env.EVM_MAX_FEE_GWEI;
  if (maxFee !== undefined && maxFee !== '') {
    const n = Number(maxFee);
    if (!Number.isInteger(n) || n < 1 || n > 1_000_000) return { problem: `EVM_MAX_FEE_GWEI must be an integer from 1 to 1000000, got "${maxFee}"` };
    out.evmMaxFeeGwei = n;
  }
  const minBalance = env.EVM_RELAYER_MIN_BALANCE_WEI;
  if (minBalance !== undefined && minBalance !== '') {
    const n = baseUnits(minBalance);
    if (n === null) return { problem: `EVM_RELAYER_MIN_BALANCE_WEI must be a whole number of base units (e.g. 10000000000000000), got "${minBalance}"` };
    out.evmRelayerMinBalanceWei = n;
  }
  const period = env.FEE_BUDGET_PERIOD_S;
  if (period !== undefined && period !== '') {
    const n = Number(period);
    if (!Number.isInteger(n) || n < 60 || n > 31 * 86_400) return { problem: `FEE_BUDGET_PERIOD_S must be an integer from 60 to 2678400, got "${period}"` };
    out.feeBudgetPeriodS = n;
  }
  return out;
}

/** The fee policy of one EVM chain: its profile's defaults, the global overrides, then its own entry. */
export function evmFeePolicy(config: ChainFeeConfig, caip2: string): ChainFeeDefaults {
  const defaults = chainFeeDefaults(caip2);
  if (!defaults) throw new Error(`${caip2} is not an EVM chain`);
  return {
    ...defaults,
    ...(config.evmMaxFeeGwei === undefined ? {} : { maxFeePerGas: BigInt(config.evmMaxFeeGwei) * GWEI }),
    ...(config.evmRelayerMinBalanceWei === undefined ? {} : { minRelayerBalance: config.evmRelayerMinBalanceWei }),
    ...config.evmChainFees[caip2],
  };
}

/** What one partner may spend from `caip2`'s fee account per period: FEE_BUDGETS, else the chain's default. */
export function partnerFeeBudget(config: Pick<ChainFeeConfig, 'feeBudgets'>, caip2: string): bigint {
  return config.feeBudgets[caip2] ?? defaultPartnerBudget(caip2);
}
