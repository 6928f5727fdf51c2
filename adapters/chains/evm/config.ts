// The EVM chains of a production configuration: the endpoints of each chain behind one provider
// (failover, broadcast to all, bounded timeouts, Retry-After, breakers, reads that never go
// backwards: multi-provider.ts) and the relayer key.
import { Wallet } from 'ethers';
import type { EvmChainConfig, EvmRelayerTuning } from './gateway-adapter.ts';
import { MultiEndpointProvider, type MultiProviderOptions } from './multi-provider.ts';

/** Production chains from configuration: `EVM_RPC_URLS` JSON of CAIP-2 → URL or URLs, the relayer's key or keys (a pool per chain). */
export function evmChainsFromConfig(
  rpcUrls: Record<string, string | readonly string[]>,
  relayerKey: string | readonly string[],
  permit2: string,
  confirmations: number,
  tuning: (caip2: string) => EvmRelayerTuning = () => ({}),
  rpc: MultiProviderOptions = {},
): EvmChainConfig[] {
  return Object.entries(rpcUrls).map(([caip2, urls]) => {
    const provider = new MultiEndpointProvider(typeof urls === 'string' ? [urls] : urls, Number(caip2.split(':')[1]), rpc);
    const relayers = (typeof relayerKey === 'string' ? [relayerKey] : relayerKey).map((k) => new Wallet(k, provider));
    return { caip2, provider, offerProvider: provider.offerReads(), relayer: relayers[0]!, relayers, permit2, confirmations, ...tuning(caip2) };
  });
}
