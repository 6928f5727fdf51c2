import { describe, expect, it } from 'vitest';
import { parseRpcConfig } from './config-rpc.ts';
import { retryAfterMs } from '../adapters/chains/retry-after.ts';

const problem = (env: NodeJS.ProcessEnv) => {
  const c = parseRpcConfig(env);
  return 'problem' in c ? c.problem : null;
};

describe('RPC configuration', () => {
  it('EVM_RPC_URLS takes one URL or several per chain; the single-URL form still works', () => {
    const c = parseRpcConfig({ EVM_RPC_URLS: '{"eip155:8453":["https://a.example","https://b.example"],"eip155:1":"https://c.example"}' });
    expect('problem' in c ? c : c.evmRpcEndpoints).toEqual({ 'eip155:8453': ['https://a.example', 'https://b.example'], 'eip155:1': ['https://c.example'] });
    expect(problem({ EVM_RPC_URLS: '{"eip155:8453":[]}' })).toMatch(/array of 1 to 10 distinct/);
    expect(problem({ EVM_RPC_URLS: '{"eip155:8453":["ftp://x"]}' })).toMatch(/EVM_RPC_URLS: "eip155:8453"/);
    expect(problem({ EVM_RPC_URLS: '{"base":"https://x"}' })).toMatch(/CAIP-2/);
  });

  it('SOLANA_RPC_URLS, else SOLANA_RPC_URL; the two disagreeing is refused', () => {
    const both = parseRpcConfig({ SOLANA_RPC_URLS: '["https://a.example/","https://b.example"]' });
    expect('problem' in both ? both : both.solanaRpcUrls).toEqual(['https://a.example', 'https://b.example']);
    const one = parseRpcConfig({ SOLANA_RPC_URL: 'https://a.example' });
    expect('problem' in one ? one : one.solanaRpcUrls).toEqual(['https://a.example']);
    expect(problem({ SOLANA_RPC_URL: 'https://z.example', SOLANA_RPC_URLS: '["https://a.example"]' })).toMatch(/disagree/);
  });

  it('timeouts in seconds by default, bounded', () => {
    const c = parseRpcConfig({});
    expect('problem' in c ? c : [c.rpcTimeoutMs, c.rpcRetryAfterCapMs, c.optionsChainBoundMs]).toEqual([8_000, 10_000, 4_000]);
    expect(problem({ RPC_TIMEOUT_MS: '300000' })).toMatch(/RPC_TIMEOUT_MS must be an integer from 200 to 120000/);
  });
});

describe('Retry-After', () => {
  it('is seconds (not milliseconds) or an HTTP date, capped', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('2', 10_000, now)).toBe(2_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', 10_000, now)).toBe(5_000);
    expect(retryAfterMs('3600', 10_000, now)).toBe(10_000);
    expect(retryAfterMs('garbage', 10_000, now)).toBe(1_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', 10_000, now)).toBe(0);
  });
});
