import { createAssetRegistry, type AssetConfig, type AssetInfo } from '../../server/domain/assets.ts';
import type { ChainPort, SelfCheck } from '../../server/ports/chains.ts';
import { bounded, messageOf } from './bounded.ts';
import type { CheckResult, Verdict } from './report.ts';

/** A self-check that could not be read is a FAIL here: the doctor is run to know, and it could not tell. */
const VERDICT: Record<SelfCheck['outcome'], Verdict> = { pass: 'PASS', fail: 'FAIL', unknown: 'FAIL' };

/**
 * The chains' own self-checks (the ones each process runs at start, server/composition/self-checks.ts):
 * each token's decimals and EIP-712 domain, Permit2's code, each endpoint's head freshness.
 */
export async function checkChainSelfChecks(ports: ChainPort[], assets: AssetInfo[], timeoutMs: number): Promise<CheckResult[]> {
  const lists = await Promise.all(
    ports.map((p) =>
      p.selfCheck
        ? bounded(() => p.selfCheck!(assets, { timeoutMs }), timeoutMs + 1_000).catch((err): CheckResult[] => [
            { verdict: 'FAIL', name: `self-checks ${p.namespace}`, reason: `did not finish: ${messageOf(err)}` },
          ])
        : Promise.resolve([]),
    ),
  );
  return lists.flat().map((c) => ('verdict' in c ? c : { verdict: VERDICT[c.outcome], name: `${c.subject} ${c.chain}`, reason: c.detail }));
}

/** The assets as the service registers them; none when the list is malformed (checkAssets says why). */
export function registeredAssets(configs: AssetConfig[]): AssetInfo[] {
  try {
    return createAssetRegistry(configs).all();
  } catch {
    return [];
  }
}
