import { describe, expect, it } from 'vitest';
import { CHAIN_PROFILES, chainProfile } from './chain-profiles.ts';

describe('chain profiles', () => {
  it('names each chain once', () => {
    const ids = CHAIN_PROFILES.map((p) => p.caip2);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers a known chain from the table and an unknown one with the cautious kind of its namespace', () => {
    expect(chainProfile('eip155:8453')).toMatchObject({ name: 'Base', kind: 'op-stack' });
    expect(chainProfile('eip155:999999')).toMatchObject({ kind: 'evm', name: 'eip155:999999' });
    expect(chainProfile('solana:someOtherCluster')).toMatchObject({ kind: 'solana' });
  });
});
