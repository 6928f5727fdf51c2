import { describe, expect, it } from 'vitest';
import { openChains } from './composition/chains.ts';
import { ConfigError, loadConfig } from './config.ts';
import { renderBrowserWalletSection } from './pages/browser-wallet-section.ts';
import type { PaymentPageData } from './pages/payment-data.ts';

/** A production node URL as providers hand them out: the account's key in the path. */
const PRIVATE = { EVM_RPC_URLS: JSON.stringify({ 'eip155:8453': ['https://base-mainnet.node.example/v2/PRIVATEKEY123', 'http://10.0.0.7:8545'] }) };

describe('WALLET_RPC_URLS: how a buyer’s wallet adds a production chain', () => {
  it('is empty unless set; reads <eip155 chain>=<public https URL> entries', () => {
    expect(loadConfig({}).walletRpcUrls).toEqual({});
    expect(loadConfig({ ...PRIVATE, WALLET_RPC_URLS: 'eip155:8453=https://mainnet.base.org, eip155:137=https://polygon-rpc.com/' }).walletRpcUrls).toEqual({
      'eip155:8453': 'https://mainnet.base.org',
      'eip155:137': 'https://polygon-rpc.com/',
    });
  });

  it('refuses a URL of the service’s own node (same host, any path) and anything not a public https URL', () => {
    const cases: [string, RegExp][] = [
      ['eip155:8453=https://base-mainnet.node.example/public', /host of EVM_RPC_URLS, the service's own node/],
      ['eip155:8453=https://BASE-MAINNET.node.example/v2/PRIVATEKEY123', /host of EVM_RPC_URLS/],
      ['eip155:8453=http://mainnet.base.org', /must be an https:\/\/ URL/],
      ['eip155:8453=https://user:pw@mainnet.base.org', /no user or password/],
      ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp=https://api.mainnet-beta.solana.com', /<eip155 chain id>=<URL>/],
      ['https://mainnet.base.org', /<eip155 chain id>=<URL>/],
      ['eip155:8453=https://a.example,eip155:8453=https://b.example', /names eip155:8453 twice/],
    ];
    for (const [value, why] of cases) {
      expect(() => loadConfig({ ...PRIVATE, WALLET_RPC_URLS: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ ...PRIVATE, WALLET_RPC_URLS: value }), value).toThrow(why);
    }
  });

  it('production hands the page the public RPC, the chain’s name, coin and explorer, and never the private node URL', async () => {
    const config = loadConfig({
      ...PRIVATE,
      SERVICE_MODE: 'production',
      EVM_RELAYER_KEYS: `0x${'11'.repeat(32)}`,
      WALLET_RPC_URLS: 'eip155:8453=https://mainnet.base.org',
      EXPLORER_TX_URLS: 'eip155:8453=https://basescan.org/tx/{txId}',
    });
    const opened = await openChains(config);
    try {
      expect(opened.walletChains).toEqual({
        'eip155:8453': {
          chainName: 'Base',
          nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
          rpcUrls: ['https://mainnet.base.org'],
          blockExplorerUrls: ['https://basescan.org'],
        },
      });
      const page: PaymentPageData = {
        paymentId: 'pay_1',
        link: 'https://pay.example/pay_1',
        merchant: { name: 'Shop', iconUrl: null },
        amountText: '$1.00',
        accepted: [{ symbol: 'USDC', network: 'Base', chain: 'eip155:8453' }],
        unpayable: false,
        expiresAt: 0,
        state: { status: 'requires_action', isFinal: false, pollInMs: 1000, expiresAt: 0, now: 0 },
      };
      const html = renderBrowserWalletSection(page, { apiBase: '/_wallet', chains: opened.walletChains ?? {} });
      expect(html).toContain('https://mainnet.base.org');
      expect(html).not.toMatch(/PRIVATEKEY123|node\.example|10\.0\.0\.7/);
    } finally {
      await opened.close();
    }
  });
});
