// The EVM chains of a production configuration: one JSON-RPC provider and the relayer key per chain.
import { JsonRpcProvider, Wallet } from 'ethers';
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
