import type { AssetConfig } from '../../server/domain/assets.ts';
import { createAssetRegistry } from '../../server/domain/assets.ts';
import { nodeServesChain, type ChainPort, type NodeHealth, type ServiceAccount } from '../../server/ports/chains.ts';
import { bounded, messageOf } from './bounded.ts';
import type { CheckResult } from './report.ts';

/** Flows each namespace's adapter can pay: an asset listing another is never offered. */
const FLOWS_OF: Record<string, string[]> = { eip155: ['eip3009', 'permit2', 'transfer'], solana: ['spl'] };

/** Each chain's node: reachable, and serving the chain it is configured as. */
export async function checkNodes(ports: ChainPort[], timeoutMs: number): Promise<{ results: CheckResult[]; chains: string[] }> {
  const answers = await Promise.all(
    ports.map((p) =>
      bounded(() => p.health?.({ timeoutMs }) ?? Promise.resolve([]), timeoutMs + 500).catch((err): NodeHealth[] => [
        { chain: p.namespace, served: null, comparable: true, error: messageOf(err) },
      ]),
    ),
  );
  const nodes = answers.flat();
  if (!nodes.length) return { results: [{ verdict: 'WARN', name: 'chains', reason: 'no chain configured (EVM_RPC_URLS, SOLANA_RPC_URL): no payment can be paid' }], chains: [] };
  const results = nodes.map((n): CheckResult => {
    const name = `rpc ${n.chain}`;
    if (n.served === null) return { verdict: 'FAIL', name, reason: n.error ?? 'rpc unreachable' };
    if (!nodeServesChain(n)) return { verdict: 'FAIL', name, reason: `the node serves ${n.served}, not ${n.chain}: its RPC URL points at another chain` };
    if (!n.comparable) return { verdict: 'PASS', name, reason: 'node answers (a cluster named, not identified by its genesis hash: not compared)' };
    return { verdict: 'PASS', name, reason: `node serves ${n.served}` };
  });
  return { results, chains: nodes.map((n) => n.chain) };
}

const unit = (a: ServiceAccount) => (a.role === 'relayer' ? 'wei' : 'lamports');

/** The relayers' and fee payers' native balances against the minimums they are configured with. */
export async function checkBalances(ports: ChainPort[], timeoutMs: number): Promise<CheckResult[]> {
  const lists = await Promise.all(
    ports.map((p) =>
      p.accounts
        ? bounded(() => p.accounts!(), timeoutMs).catch((err): CheckResult => ({
            verdict: 'FAIL',
            name: `accounts ${p.namespace}`,
            reason: `could not be read: ${messageOf(err)}`,
          }))
        : Promise.resolve([]),
    ),
  );
  return lists.flatMap((list) =>
    'verdict' in list
      ? [list]
      : list.map((a): CheckResult => {
          const name = `${a.role} ${a.chain}`;
          const minimum = `minimum ${a.minimum} ${unit(a)}`;
          if (a.balance === null) return { verdict: 'FAIL', name, reason: `${a.account}: balance could not be read (${minimum})` };
          if (a.balance < a.minimum) return { verdict: 'FAIL', name, reason: `${a.account} holds ${a.balance} ${unit(a)}, below its ${minimum}: top it up or its payments stall` };
          return { verdict: 'PASS', name, reason: `${a.account} holds ${a.balance} ${unit(a)} (${minimum})` };
        }),
  );
}

/**
 * The assets (ASSETS_FILE, plus the sandbox's) against the chains: each one valid, on a chain a
 * configured node serves, with flows that chain's adapter pays; each chain with an asset to pay in.
 */
export function checkAssets(assets: AssetConfig[], chains: string[]): CheckResult[] {
  const name = 'assets';
  let all;
  try {
    all = createAssetRegistry(assets).all();
  } catch (err) {
    return [{ verdict: 'FAIL', name, reason: messageOf(err) }];
  }
  const results: CheckResult[] = [];
  const chainOf = (a: (typeof all)[number]) => `${a.parsed.chain.namespace}:${a.parsed.chain.reference}`;
  for (const chain of new Set(all.map(chainOf).filter((c) => !chains.includes(c)))) {
    const on = all.filter((a) => chainOf(a) === chain).map((a) => a.symbol);
    results.push({
      verdict: 'FAIL',
      name,
      reason: `${on.length} on ${chain} (${on.join(', ')}), which no configured RPC serves: merchants could settle in them, buyers never pay them`,
    });
  }
  for (const a of all) {
    const unpayable = a.flows.filter((f) => !(FLOWS_OF[a.parsed.chain.namespace] ?? []).includes(f));
    if (unpayable.length) results.push({ verdict: 'FAIL', name, reason: `${a.id} lists flows ${unpayable.join(', ')}, which no ${a.parsed.chain.namespace} adapter pays` });
  }
  for (const chain of chains.filter((c) => !all.some((a) => a.id.startsWith(`${c}/`))))
    results.push({ verdict: 'WARN', name, reason: `no asset on ${chain}: its node is configured but nothing is paid on it` });
  if (!results.length) results.push({ verdict: 'PASS', name, reason: `${all.length} assets, each on a configured chain with flows its adapter pays` });
  return results;
}
