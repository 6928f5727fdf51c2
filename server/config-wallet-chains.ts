import { isHttpsUrl } from './config-explorers.ts';

/** How a buyer's browser wallet adds an EVM chain it does not know: CAIP-2 chain id → a public JSON-RPC URL. */
export interface WalletRpcConfig {
  walletRpcUrls: Readonly<Record<string, string>>;
}

const EIP155 = /^eip155:[1-9][0-9]{0,15}$/;

/**
 * WALLET_RPC_URLS ("eip155:8453=https://mainnet.base.org,eip155:137=https://polygon-rpc.com"):
 * the RPC URL the payment page hands a buyer's wallet (`wallet_addEthereumChain`) for a chain it
 * does not know. It is published to anyone holding a payment link, so it must be a public
 * endpoint: https, no credentials, and never on a host of `evmRpcEndpoints` (the service's own
 * nodes, whose URLs often carry a provider key in their path). Absent: no chain is offered to be
 * added; a wallet missing the chain is told to add it itself.
 */
export function parseWalletRpcConfig(env: NodeJS.ProcessEnv, evmRpcEndpoints: Record<string, string[]>): WalletRpcConfig | { problem: string } {
  const raw = env.WALLET_RPC_URLS?.trim();
  const walletRpcUrls: Record<string, string> = {};
  if (!raw) return { walletRpcUrls };
  const privateHosts = new Set(Object.values(evmRpcEndpoints).flatMap((urls) => urls.map(hostOf).filter((h): h is string => h !== null)));
  for (const entry of raw.split(',')) {
    const at = entry.indexOf('=');
    const chain = entry.slice(0, at).trim();
    const url = entry.slice(at + 1).trim();
    if (at < 0 || !EIP155.test(chain)) return { problem: `WALLET_RPC_URLS: "${entry.trim()}" must be <eip155 chain id>=<URL>, e.g. eip155:8453=https://mainnet.base.org` };
    if (chain in walletRpcUrls) return { problem: `WALLET_RPC_URLS names ${chain} twice` };
    if (!isHttpsUrl(url)) return { problem: `WALLET_RPC_URLS: the URL of ${chain} must be an https:// URL with no user or password` };
    if (privateHosts.has(hostOf(url)!)) {
      return { problem: `WALLET_RPC_URLS: the URL of ${chain} is on a host of EVM_RPC_URLS, the service's own node, which buyers' wallets must never be given; name a public RPC` };
    }
    walletRpcUrls[chain] = url;
  }
  return { walletRpcUrls };
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}
