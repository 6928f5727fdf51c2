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

/**
 * Whether some endpoint is ahead of the freshest head `provider` has seen: its guarded reads then
 * compare with that head from now on. A refusal read before (an estimate that reverted) may have
 * come from a node behind the block that funded or approved the payment; a provider of one node
 * has no other endpoint to be behind.
 */
export async function endpointAheadOfSeen(provider: Provider, timeoutMs: number): Promise<boolean> {
  if (!(provider instanceof MultiEndpointProvider)) return false;
  const seen = provider.head.value;
  const heads = (await evmEndpointHeads(provider, timeoutMs)).map((h) => h.head ?? -1);
  const freshest = Math.max(-1, ...heads);
  if (freshest <= seen) return false;
  provider.head.admit(freshest);
  return true;
}
