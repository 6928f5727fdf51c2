import { chainProfile } from '../chain-profiles.ts';
import type { WalletChains } from '../pages/browser-wallet-section.ts';

/**
 * Production's EIP-3085 description of each EVM chain a buyer's wallet may have to add: the
 * chain's name from its profile, its native coin (POL on Polygon, ETH on the others the service
 * knows; 18 decimals on every EVM chain), the public RPC of WALLET_RPC_URLS (never the service's
 * own node, which config-wallet-chains.ts refuses), and the block explorer of EXPLORER_TX_URLS
 * when it names the chain. Chains not in WALLET_RPC_URLS are not offered to be added.
 */
export function walletChainsFromConfig(config: { walletRpcUrls: Readonly<Record<string, string>>; explorerTxUrls: Readonly<Record<string, string>> }): WalletChains {
  const chains: WalletChains = {};
  for (const [caip2, rpcUrl] of Object.entries(config.walletRpcUrls)) {
    const profile = chainProfile(caip2);
    const symbol = profile.kind === 'polygon-pos' ? 'POL' : 'ETH';
    const explorer = config.explorerTxUrls[caip2];
    chains[caip2] = {
      chainName: profile.name,
      nativeCurrency: { name: symbol, symbol, decimals: 18 },
      rpcUrls: [rpcUrl],
      ...(explorer ? { blockExplorerUrls: [new URL(explorer.replace('{txId}', 'tx')).origin] } : {}),
    };
  }
  return chains;
}
