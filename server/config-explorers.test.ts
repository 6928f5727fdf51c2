import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';

describe('explorer links configuration', () => {
  it('has no links unless EXPLORER_TX_URLS names chains and their https URL templates', () => {
    expect(loadConfig({}).explorerTxUrls).toEqual({});
    expect(loadConfig({ EXPLORER_TX_URLS: '' }).explorerTxUrls).toEqual({});
    expect(loadConfig({ EXPLORER_TX_URLS: `eip155:8453=https://basescan.org/tx/{txId}, ${SOLANA}=https://solscan.io/tx/{txId}?cluster=mainnet` }).explorerTxUrls).toEqual({
      'eip155:8453': 'https://basescan.org/tx/{txId}',
      [SOLANA]: 'https://solscan.io/tx/{txId}?cluster=mainnet',
    });
  });

  it('refuses a bad entry, naming the variable and what is wrong', () => {
    const cases: [string, RegExp][] = [
      ['https://basescan.org/tx/{txId}', /<CAIP-2 chain id>=<URL>/],
      ['base=https://basescan.org/tx/{txId}', /<CAIP-2 chain id>=<URL>/],
      ['eip155:8453/erc20:0xabc=https://basescan.org/tx/{txId}', /<CAIP-2 chain id>=<URL>/],
      ['eip155:8453=https://basescan.org/tx/', /\{txId\} exactly once/],
      ['eip155:8453=https://basescan.org/tx/{txId}/{txId}', /\{txId\} exactly once/],
      ['eip155:8453=http://basescan.org/tx/{txId}', /https:\/\/ URL/],
      ['eip155:8453=javascript:alert(1)//{txId}', /https:\/\/ URL/],
      ['eip155:8453=https://user:pw@basescan.org/tx/{txId}', /https:\/\/ URL/],
      ['eip155:8453={txId}', /https:\/\/ URL/],
      ['eip155:8453=https://a.example/{txId},eip155:8453=https://b.example/{txId}', /twice/],
      ['eip155:8453=https://a.example/{txId},', /<CAIP-2 chain id>=<URL>/],
    ];
    for (const [bad, why] of cases) {
      expect(() => loadConfig({ EXPLORER_TX_URLS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ EXPLORER_TX_URLS: bad }), bad).toThrow(/EXPLORER_TX_URLS/);
      expect(() => loadConfig({ EXPLORER_TX_URLS: bad }), bad).toThrow(why);
    }
  });
});
