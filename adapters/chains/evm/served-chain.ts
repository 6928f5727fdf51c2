// Which chain the node behind a provider serves, asked of the node itself (the health check).
import { JsonRpcApiProvider, type Provider } from 'ethers';

/**
 * Asks the node itself (`eth_chainId`): the providers are built with a static network, so
 * `getNetwork()` would answer the configured id without asking, and a URL pointing at another
 * chain would pass.
 */
export const servedChain = async (provider: Provider): Promise<string> =>
  `eip155:${provider instanceof JsonRpcApiProvider ? BigInt((await provider.send('eth_chainId', [])) as string) : (await provider.getNetwork()).chainId}`;
