import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { createChainRegistry, type ChainPort } from '../../ports/chains.ts';
import { createAssetRegistry } from '../assets.ts';
import type { QuoteRecord } from './quote-records.ts';
import { ADVANCE_JOB_TYPE, advanceJob, chainOfAdvanceJob, chainOfQuote, followDelayMs, optionRequestOf } from './settle-attempt.ts';

const USDC = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const quote: QuoteRecord = {
  optionId: 'opt_1',
  paymentId: 'pay_1',
  account: 'eip155:8453:0x0000000000000000000000000000000000000001',
  asset: USDC,
  amount: 1_000_000n,
  destination: 'eip155:8453:0x0000000000000000000000000000000000000002',
  deadline: new Date(2_000_000),
  state: {} as QuoteRecord['state'],
  createdAt: new Date(1_000_000),
};
const assets = createAssetRegistry([{ id: USDC, symbol: 'USDC', name: 'USD Coin', decimals: 6, pegCurrency: 'USD', flows: ['transfer'], networkName: 'Base' }]);
const base = { supportsChain: (caip2: string) => caip2 === 'eip155:8453' } as unknown as ChainPort;

describe('settle attempt: what confirm writes and the advance job reads', () => {
  it('turns a stored quote into the chain request, and refuses an asset no longer registered', () => {
    expect(optionRequestOf({ assets }, quote)).toMatchObject({
      paymentId: 'pay_1',
      optionId: 'opt_1',
      amount: 1_000_000n,
      deadline: quote.deadline,
      quotedAt: quote.createdAt,
      asset: { id: USDC },
    });
    expect(() => optionRequestOf({ assets: createAssetRegistry([]) }, quote)).toThrow(AppError);
  });

  it('finds the quote’s chain, and answers invalid_state when this deployment no longer pays there', () => {
    expect(chainOfQuote({ chains: createChainRegistry([base]) }, quote)).toEqual({ caip2: 'eip155:8453', chain: base });
    expect(() => chainOfQuote({ chains: createChainRegistry([]) }, quote)).toThrow(/Payments on eip155:8453 are not available/);
  });

  it('writes the advance job for this attempt only, due now, naming its chain (its job pool)', () => {
    const job = advanceJob({ paymentId: 'pay_1', optionId: 'opt_1', stateVersion: 3, submission: { kind: 'x' } as never, chain: 'eip155:8453' }, 5_000);
    expect(job).toMatchObject({
      type: ADVANCE_JOB_TYPE,
      payload: { paymentId: 'pay_1', optionId: 'opt_1', stateVersion: 3, submission: { kind: 'x' }, chain: 'eip155:8453' },
      runAt: new Date(5_000),
    });
    expect(job.id).toMatch(/^job_/);
    expect(chainOfAdvanceJob(job.payload)).toBe('eip155:8453');
    expect(chainOfAdvanceJob({ paymentId: 'pay_0' })).toBeUndefined(); // written before jobs named their chain
  });

  it('follows a transfer at a tenth of the time waited, between one and thirty seconds', () => {
    expect([followDelayMs(0), followDelayMs(50_000), followDelayMs(3_600_000)]).toEqual([1000, 5000, 30_000]);
  });
});
