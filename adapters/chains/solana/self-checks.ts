// The Solana cluster's self-checks (issue 29 item 7): each configured mint as configured (an SPL
// mint, its decimals), each endpoint's head (confirmed slot) against the others and its age.
import type { AssetInfo } from '../../../server/domain/assets.ts';
import type { SelfCheck } from '../../../server/ports/chains.ts';
import { DEFAULT_HEAD_FRESHNESS, bounded, endpointLabel, errorText, judgeHeads, rpcCall, type EndpointHead, type HeadFreshnessBound } from '../head-freshness.ts';
import type { SolanaRpc } from './rpc.ts';

export interface SolanaSelfCheckChain {
  caip2: string;
  connection: SolanaRpc;
  /** The cluster's RPC URLs, each asked on its own; absent: the one node behind `connection`. */
  endpoints?: readonly string[];
  headFreshness?: HeadFreshnessBound;
}

/** Each endpoint's confirmed slot, and that slot's time when the bound checks an age. */
async function endpointHeads(c: SolanaSelfCheckChain, timeoutMs: number, withAge: boolean): Promise<EndpointHead[]> {
  if (!c.endpoints?.length) {
    try {
      return [{ endpoint: 'node', head: (await bounded(c.connection.getEpochInfo('confirmed'), timeoutMs)).absoluteSlot }];
    } catch (err) {
      return [{ endpoint: 'node', head: null, error: errorText(err) }];
    }
  }
  const urls = c.endpoints;
  return Promise.all(
    urls.map(async (url, i): Promise<EndpointHead> => {
      const endpoint = endpointLabel(url, i, urls.length);
      try {
        const slot = Number(await rpcCall(url, 'getSlot', [{ commitment: 'confirmed' }], timeoutMs));
        // A slot without a recorded time (skipped, or a node keeping no history) checks its lag only.
        const time = withAge ? await rpcCall(url, 'getBlockTime', [slot], timeoutMs).catch(() => null) : null;
        return typeof time === 'number' ? { endpoint, head: slot, timeMs: time * 1000 } : { endpoint, head: slot };
      } catch (err) {
        return { endpoint, head: null, error: errorText(err) };
      }
    }),
  );
}

/** Every self-check of one cluster; `mintProblem` is the adapter's kept check of a mint (null: as configured). */
export async function selfCheckSolanaChain(
  c: SolanaSelfCheckChain,
  assets: AssetInfo[],
  mintProblem: (asset: AssetInfo) => Promise<string | null>,
  timeoutMs: number,
): Promise<SelfCheck[]> {
  const chain = c.caip2;
  const mine = assets.filter((a) => `${a.parsed.chain.namespace}:${a.parsed.chain.reference}` === chain);
  const mints = mine.map((asset) => {
    const subject = `token ${asset.symbol}`;
    return bounded(mintProblem(asset), timeoutMs).then(
      (problem): SelfCheck =>
        problem
          ? { chain, subject, outcome: 'fail', detail: `${problem}; ${asset.symbol} is not offered`, refuses: true }
          : { chain, subject, outcome: 'pass', detail: `an SPL mint with ${asset.decimals} decimals as configured`, refuses: true },
      (err): SelfCheck => ({ chain, subject, outcome: 'unknown', detail: `could not be read: ${errorText(err)}`, refuses: true }),
    );
  });
  const bound = c.headFreshness ?? DEFAULT_HEAD_FRESHNESS;
  const heads = endpointHeads(c, timeoutMs, bound.maxAgeMs !== null).then((h) => judgeHeads(chain, h, bound, Date.now(), 'slots'));
  const [checked, judged] = await Promise.all([Promise.all(mints), heads]);
  return [...checked, ...judged];
}
