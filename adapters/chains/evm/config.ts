// The EVM chains of a production configuration: one JSON-RPC provider and the relayer key per chain.
import { JsonRpcApiProvider, JsonRpcProvider, Wallet, type Provider } from 'ethers';
import type { EvmChainConfig, EvmRelayerTuning } from './gateway-adapter.ts';

/** Production chains from configuration: `EVM_RPC_URLS` JSON of CAIP-2 → URL, one relayer key. */
export function evmChainsFromConfig(
  rpcUrls: Record<string, string>,
  relayerKey: string,
  permit2: string,
  confirmations: number,
  tuning: (caip2: string) => EvmRelayerTuning = () => ({}),
): EvmChainConfig[] {
  return Object.entries(rpcUrls).map(([caip2, url]) => {
    const provider = new JsonRpcProvider(url, Number(caip2.split(':')[1]), { staticNetwork: true, cacheTimeout: -1 });
    return { caip2, provider, relayer: new Wallet(relayerKey, provider), permit2, confirmations, ...tuning(caip2) };
  });
}

/**
 * Asks the node itself (`eth_chainId`): the providers are built with a static network, so
 * `getNetwork()` would answer the configured id without asking, and a URL pointing at another
 * chain would pass.
 */
export const servedChain = async (provider: Provider): Promise<string> =>
  `eip155:${provider instanceof JsonRpcApiProvider ? BigInt((await provider.send('eth_chainId', [])) as string) : (await provider.getNetwork()).chainId}`;
