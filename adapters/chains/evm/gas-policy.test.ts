import { describe, expect, it } from 'vitest';
import { FLOW_GAS, freshFees, gasLimitFor, mayStillMine } from './gas-policy.ts';

const GWEI = 1_000_000_000n;

describe('gas limits: headroom over the estimate, never above the flow’s ceiling', () => {
  it('adds at least a fresh storage slot (a destination swept to zero) and a quarter for large estimates', () => {
    expect(gasLimitFor(73_689n, 'eip3009')).toEqual({ ok: true, gasLimit: 73_689n + 22_100n });
    expect(gasLimitFor(100_000n, 'permit2')).toEqual({ ok: true, gasLimit: 125_000n });
  });

  it('holds the limit to the ceiling, and refuses an estimate above it (a buyer whose code loops)', () => {
    expect(gasLimitFor(140_000n, 'eip3009')).toEqual({ ok: true, gasLimit: FLOW_GAS.eip3009.ceiling });
    expect(gasLimitFor(10_474_444n, 'eip3009')).toMatchObject({ ok: false, reason: expect.stringMatching(/10474444 gas, above this flow's ceiling of 150000/) });
    expect(gasLimitFor(5_287_823n, 'permit2')).toMatchObject({ ok: false });
  });
});

describe('fees: the node’s suggestion, the chain’s minimum tip and a refusal’s named minimum, under the cap', () => {
  const node = { maxFeePerGas: 30n * GWEI, maxPriorityFeePerGas: GWEI, gasPrice: 15n * GWEI };
  it('takes the node’s fees when they are within the limits', () => {
    expect(freshFees(node, { maxFeePerGas: 500n * GWEI, minPriorityFee: 0n })).toEqual({ maxFeePerGas: 30n * GWEI, maxPriorityFeePerGas: GWEI, capped: false });
  });
  it('raises the tip to Polygon’s minimum, or to what a refusing node named, the max fee with it', () => {
    expect(freshFees(node, { maxFeePerGas: 3_000n * GWEI, minPriorityFee: 25n * GWEI })).toEqual({ maxFeePerGas: 54n * GWEI, maxPriorityFeePerGas: 25n * GWEI, capped: false });
    expect(freshFees(node, { maxFeePerGas: 3_000n * GWEI, minPriorityFee: 25n * GWEI }, { field: 'tip', wei: 30n * GWEI })).toMatchObject({ maxPriorityFeePerGas: 30n * GWEI });
    expect(freshFees(node, { maxFeePerGas: 500n * GWEI, minPriorityFee: 0n }, { field: 'fee', wei: 40n * GWEI })).toMatchObject({ maxFeePerGas: 40n * GWEI });
  });
  it('caps both fees, and says so', () => {
    expect(freshFees({ ...node, maxFeePerGas: 900n * GWEI }, { maxFeePerGas: 500n * GWEI, minPriorityFee: 0n })).toEqual({
      maxFeePerGas: 500n * GWEI,
      maxPriorityFeePerGas: GWEI,
      capped: true,
    });
    expect(freshFees({ maxFeePerGas: null, maxPriorityFeePerGas: null, gasPrice: 600n * GWEI }, { maxFeePerGas: 500n * GWEI, minPriorityFee: 0n })).toEqual({
      gasPrice: 500n * GWEI,
      capped: true,
    });
  });
});

describe('mayStillMine: nothing is sent within a few blocks of the authorization’s deadline', () => {
  const deadlineS = 1_000_000n;
  it('keeps a margin of three blocks, and at least five seconds', () => {
    expect(mayStillMine(deadlineS, (1_000_000 - 40) * 1000, 12_000)).toBe(true);
    expect(mayStillMine(deadlineS, (1_000_000 - 36) * 1000, 12_000)).toBe(false);
    expect(mayStillMine(deadlineS, (1_000_000 - 6) * 1000, 250)).toBe(true);
    expect(mayStillMine(deadlineS, (1_000_000 - 5) * 1000, 250)).toBe(false);
  });
});
