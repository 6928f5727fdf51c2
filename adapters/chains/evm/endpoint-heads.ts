import type { Provider } from 'ethers';
import { endpointLabel, errorText, rpcCall, type EndpointHead } from '../head-freshness.ts';
import { MultiEndpointProvider } from './multi-provider.ts';

type Block = { number?: string; timestamp?: string } | null;

/**
 * The latest block of each endpoint behind `provider`, each asked on its own (the pool would hand
 * the read to whichever is freshest and hide the one behind); a provider of one node (the
 * in-process sandbox) is that node.
 */
export async function evmEndpointHeads(provider: Provider, timeoutMs: number): Promise<EndpointHead[]> {
  if (provider instanceof MultiEndpointProvider) {
    const urls = provider.pool.urls;
    return Promise.all(
      urls.map(async (url, i): Promise<EndpointHead> => {
        const endpoint = endpointLabel(url, i, urls.length);
        try {
          const block = (await rpcCall(url, 'eth_getBlockByNumber', ['latest', false], timeoutMs)) as Block;
          if (!block?.number || !block.timestamp) return { endpoint, head: null, error: 'no latest block' };
          return { endpoint, head: Number(BigInt(block.number)), timeMs: Number(BigInt(block.timestamp)) * 1000 };
        } catch (err) {
          return { endpoint, head: null, error: errorText(err) };
        }
      }),
    );
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no answer in time')), timeoutMs)));
  try {
    const block = await Promise.race([provider.getBlock('latest'), late]);
    if (!block) return [{ endpoint: 'node', head: null, error: 'no latest block' }];
    return [{ endpoint: 'node', head: block.number, timeMs: block.timestamp * 1000 }];
  } catch (err) {
    return [{ endpoint: 'node', head: null, error: errorText(err) }];
  } finally {
    clearTimeout(timer);
  }
}
