import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { chainFinality, healWindowMs, parseChainFinality } from './chain-profiles.ts';

describe('finality per chain: defaults by kind, CHAIN_FINALITY overrides, the heal window', () => {
  it('defaults each production chain from its history, an unknown EVM chain to a deep depth', () => {
    expect(chainFinality('eip155:1')).toEqual({ kind: 'tag', tag: 'finalized' });
    expect(chainFinality('eip155:137')).toEqual({ kind: 'tag', tag: 'finalized' });
    expect(chainFinality('eip155:8453')).toEqual({ kind: 'tag', tag: 'finalized' });
    expect(chainFinality('eip155:999999')).toEqual({ kind: 'depth', blocks: 64 });
    expect(chainFinality('eip155:31337')).toEqual({ kind: 'depth', blocks: 2 });
    expect(chainFinality('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).toEqual({ kind: 'commitment', commitment: 'finalized' });
    expect([healWindowMs('eip155:1'), healWindowMs('eip155:137'), healWindowMs('eip155:999999'), healWindowMs('eip155:31337')]).toEqual([900_000, 60_000, 768_000, 2_000]);
  });

  it('parses overrides and refuses what is not a policy, naming the chain', () => {
    const ok = parseChainFinality('{"eip155:137": 200, "eip155:1": "safe", "solana:x": "confirmed"}');
    expect(ok).toEqual({
      ok: true,
      value: { 'eip155:137': { kind: 'depth', blocks: 200 }, 'eip155:1': { kind: 'tag', tag: 'safe' }, 'solana:x': { kind: 'commitment', commitment: 'confirmed' } },
    });
    if (ok.ok) expect(healWindowMs('eip155:137', ok.value)).toBe(400_000);
    expect(parseChainFinality('{"eip155:1": 0}')).toMatchObject({ ok: false, problem: expect.stringContaining('eip155:1') });
    expect(parseChainFinality('{"eip155:1": "confirmed"}')).toMatchObject({ ok: false });
    expect(parseChainFinality('{"solana:x": 32}')).toMatchObject({ ok: false });
    expect(parseChainFinality('[1]')).toMatchObject({ ok: false });
    expect(() => loadConfig({ CHAIN_FINALITY: '{"eip155:1": "latest"}' })).toThrow(/CHAIN_FINALITY/);
    expect(loadConfig({ CHAIN_FINALITY: '{"eip155:1": 12}' }).chainFinality).toEqual({ 'eip155:1': { kind: 'depth', blocks: 12 } });
  });
});
