import { describe, expect, it } from 'vitest';
import { evmFeePolicy, parseChainFeeConfig, partnerFeeBudget, type ChainFeeConfig } from './config-chain-fees.ts';
import { loadConfig } from './config.ts';

const GWEI = 1_000_000_000n;
const parsed = (env: NodeJS.ProcessEnv): ChainFeeConfig => {
  const c = parseChainFeeConfig(env);
  if ('problem' in c) throw new Error(c.problem);
  return c;
};

describe('fee caps, minimum balances and budgets per chain', () => {
  it('takes each chain’s defaults from its profile: Polygon’s cap and minimum tip are not Ethereum’s', () => {
    const c = parsed({});
    expect(evmFeePolicy(c, 'eip155:1')).toMatchObject({ maxFeePerGas: 300n * GWEI, minPriorityFee: 0n, l1DataFee: 'none' });
    expect(evmFeePolicy(c, 'eip155:137')).toMatchObject({ maxFeePerGas: 3_000n * GWEI, minPriorityFee: 25n * GWEI, minRelayerBalance: 20n * 10n ** 18n });
    expect(evmFeePolicy(c, 'eip155:8453')).toMatchObject({ maxFeePerGas: 10n * GWEI, l1DataFee: 'op-stack' });
    expect(evmFeePolicy(c, 'eip155:424242')).toMatchObject({ maxFeePerGas: 500n * GWEI, minRelayerBalance: 10n ** 16n });
    expect(() => evmFeePolicy(c, 'solana:sandbox')).toThrow(/not an EVM chain/);
  });

  it('reads EVM_MAX_FEE_GWEI and EVM_RELAYER_MIN_BALANCE_WEI as overrides for every EVM chain, and a per-chain entry above both', () => {
    const c = parsed({
      EVM_MAX_FEE_GWEI: '80',
      EVM_RELAYER_MIN_BALANCE_WEI: '7',
      EVM_CHAIN_FEES: JSON.stringify({ 'eip155:137': { maxFeeGwei: 900, minPriorityFeeGwei: 30, nativeUsd: '0.45', gasBudgetPercent: 5 } }),
    });
    expect(evmFeePolicy(c, 'eip155:1')).toMatchObject({ maxFeePerGas: 80n * GWEI, minRelayerBalance: 7n });
    expect(evmFeePolicy(c, 'eip155:137')).toMatchObject({
      maxFeePerGas: 900n * GWEI,
      minPriorityFee: 30n * GWEI,
      minRelayerBalance: 7n,
      nativeUsdMicros: 450_000n,
      gasBudgetPercent: 5,
    });
  });

  it('gives each partner a budget per chain per period, FEE_BUDGETS first', () => {
    const c = parsed({ FEE_BUDGETS: '{"eip155:8453":"123","solana:sandbox":"5000"}', FEE_BUDGET_PERIOD_S: '3600' });
    expect([partnerFeeBudget(c, 'eip155:8453'), partnerFeeBudget(c, 'solana:sandbox'), c.feeBudgetPeriodS]).toEqual([123n, 5000n, 3600]);
    expect(partnerFeeBudget(c, 'eip155:1')).toBe(10n ** 18n / 2n);
    expect(partnerFeeBudget(c, 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).toBe(1_000_000_000n);
    expect(parsed({}).feeBudgetPeriodS).toBe(86_400);
  });

  it('stops the start naming the variable and the entry at fault', () => {
    const bad: Array<[NodeJS.ProcessEnv, RegExp]> = [
      [{ EVM_CHAIN_FEES: '{' }, /^EVM_CHAIN_FEES is not valid JSON/],
      [{ EVM_CHAIN_FEES: '[]' }, /^EVM_CHAIN_FEES must be a JSON object/],
      [{ EVM_CHAIN_FEES: '{"base":{}}' }, /^EVM_CHAIN_FEES: "base" must be an eip155 CAIP-2 chain id/],
      [{ EVM_CHAIN_FEES: '{"eip155:1":{"maxFee":1}}' }, /^EVM_CHAIN_FEES: "eip155:1": unknown key maxFee/],
      [{ EVM_CHAIN_FEES: '{"eip155:1":{"maxFeeGwei":0}}' }, /maxFeeGwei must be at least 1/],
      [{ EVM_CHAIN_FEES: '{"eip155:1":{"maxFeeGwei":1.5}}' }, /maxFeeGwei must be a whole number/],
      [{ EVM_CHAIN_FEES: '{"eip155:1":{"minRelayerBalanceWei":1}}' }, /minRelayerBalanceWei must be a string of whole wei/],
      [{ EVM_CHAIN_FEES: '{"eip155:1":{"nativeUsd":"-3"}}' }, /nativeUsd must be a positive decimal string/],
      [{ EVM_CHAIN_FEES: '{"eip155:1":{"gasBudgetPercent":101}}' }, /gasBudgetPercent must be a whole number from 0 to 100/],
      [{ EVM_CHAIN_FEES: '{"eip155:1":{"maxFeeGwei":10,"minPriorityFeeGwei":11}}' }, /minPriorityFeeGwei cannot exceed maxFeeGwei/],
      [{ FEE_BUDGETS: '{"eip155:1":5}' }, /^FEE_BUDGETS: "eip155:1" must map to a string of whole native base units/],
      [{ FEE_BUDGETS: '{"mainnet":"5"}' }, /^FEE_BUDGETS: "mainnet" must be a CAIP-2 chain id/],
      [{ FEE_BUDGET_PERIOD_S: '10' }, /^FEE_BUDGET_PERIOD_S must be an integer from 60/],
    ];
    for (const [env, message] of bad) expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
  });
});
