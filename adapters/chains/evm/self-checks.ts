// The configuration of each EVM token and of Permit2 against the chain (issue 29 item 7): what a
// wrong setting would otherwise cost. Wrong decimals price every payment a power of ten off; a
// domain that does not hash to the token's DOMAIN_SEPARATOR() has every EIP-3009 signature refused
// after the buyer signed; a Permit2 address without code takes the buyer's approval for nothing.
// A disagreement refuses what it breaks (the asset, or the one flow); an RPC failure refuses
// nothing and is asked again.
import { Contract, TypedDataEncoder, isError, type Provider } from 'ethers';
import type { AssetInfo, PaymentFlow } from '../../../server/domain/assets.ts';
import type { SelfCheck } from '../../../server/ports/chains.ts';
import { DEFAULT_HEAD_FRESHNESS, bounded, errorText, judgeHeads, type HeadFreshnessBound } from '../head-freshness.ts';
import { evmEndpointHeads } from './endpoint-heads.ts';
import { checksummed } from './address.ts';
import type { TokenDomain } from './eip3009.ts';
import { MULTICALL3_ADDRESS, multicall3Problem } from './multicall.ts';
import { permit2SpenderAddress, permit2SpenderProblem } from './permit2-spender.ts';

/** How long a missing Permit2 spender contract is believed missing before its code is read again. */
const SPENDER_RECHECK_MS = 60_000;

/** What a check refused (nothing: it passed) and why. */
export interface ConfigVerdict {
  refused: PaymentFlow[];
  problems: string[];
}

const CONTRACT_ABI = ['function decimals() view returns (uint8)', 'function DOMAIN_SEPARATOR() view returns (bytes32)'];

/** A revert or an empty answer: the contract lacks the function. Anything else (the RPC failed) is thrown on. */
const lacking = (err: unknown): boolean => isError(err, 'CALL_EXCEPTION') || isError(err, 'BAD_DATA');

async function readOrNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (lacking(err)) return null;
    throw err;
  }
}

/** The token at the asset's address: a contract, `decimals()` as configured, and for EIP-3009 the domain it signs with. */
export async function checkTokenConfig(provider: Provider, chainId: bigint, asset: AssetInfo, domain: () => Promise<TokenDomain>): Promise<ConfigVerdict> {
  const address = checksummed(asset.parsed.assetReference);
  if ((await provider.getCode(address)) === '0x') return { refused: [...asset.flows], problems: [`no contract at ${address} on this chain: ${asset.symbol} is not offered`] };
  const contract = new Contract(address, CONTRACT_ABI, provider);
  const problems: string[] = [];
  const refused = new Set<PaymentFlow>();
  const decimals = await readOrNull(() => contract.getFunction('decimals')() as Promise<bigint>);
  if (decimals === null || Number(decimals) !== asset.decimals) {
    problems.push(
      decimals === null
        ? `${address} has no decimals(): ${asset.symbol} is not offered`
        : `decimals() is ${decimals}, configured ${asset.decimals}: every amount would be off by 10^${Math.abs(Number(decimals) - asset.decimals)}; ${asset.symbol} is not offered`,
    );
    for (const f of asset.flows) refused.add(f);
  }
  if (asset.flows.includes('eip3009')) {
    const onChain = await readOrNull(() => contract.getFunction('DOMAIN_SEPARATOR')() as Promise<string>);
    const d = await readOrNull(domain);
    const expected = d && TypedDataEncoder.hashDomain({ name: d.name, version: d.version, chainId, verifyingContract: address });
    if (onChain === null || d === null || onChain.toLowerCase() !== expected!.toLowerCase()) {
      problems.push(
        onChain === null || d === null
          ? `${address} has no ${onChain === null ? 'DOMAIN_SEPARATOR()' : 'name()'}: its EIP-3009 domain cannot be checked; eip3009 is not offered`
          : `DOMAIN_SEPARATOR() is not the EIP-712 domain {name "${d.name}", version "${d.version}", chainId ${chainId}, verifyingContract ${address}}: ` +
              `buyers' EIP-3009 signatures would be refused; eip3009 is not offered`,
      );
      refused.add('eip3009');
    }
  }
  return { refused: [...refused], problems };
}

/** Permit2 at the configured address: a contract whose DOMAIN_SEPARATOR() is Permit2's on this chain. */
export async function checkPermit2Config(provider: Provider, chainId: bigint, permit2: string): Promise<ConfigVerdict> {
  const address = checksummed(permit2);
  const refuse = (problem: string): ConfigVerdict => ({ refused: ['permit2'], problems: [`${problem}; permit2 is not offered on this chain`] });
  if ((await provider.getCode(address)) === '0x') return refuse(`no contract at PERMIT2_ADDRESS ${address}`);
  const onChain = await readOrNull(() => new Contract(address, CONTRACT_ABI, provider).getFunction('DOMAIN_SEPARATOR')() as Promise<string>);
  const expected = TypedDataEncoder.hashDomain({ name: 'Permit2', chainId, verifyingContract: address });
  if (onChain === null || onChain.toLowerCase() !== expected.toLowerCase())
    return refuse(`the contract at PERMIT2_ADDRESS ${address} is not Permit2 (its DOMAIN_SEPARATOR() is not Permit2's)`);
  return { refused: [], problems: [] };
}

/**
 * The checks of one chain, each run once and kept (a failed read is not kept: asked again next
 * time), so the start's check and the first option of an asset share one answer.
 */
export function createConfigChecks(provider: Provider, caip2: string, permit2: string, domainOf: (asset: AssetInfo) => Promise<TokenDomain>) {
  const chainId = BigInt(caip2.split(':')[1]!);
  const kept = new Map<string, Promise<ConfigVerdict>>();
  const once = (key: string, run: () => Promise<ConfigVerdict>): Promise<ConfigVerdict> => {
    let p = kept.get(key);
    if (!p) {
      kept.set(key, (p = run()));
      p.catch(() => kept.delete(key));
    }
    return p;
  };
  const token = (asset: AssetInfo) => once(`token:${asset.id}:${asset.decimals}:${asset.flows.join()}`, () => checkTokenConfig(provider, chainId, asset, () => domainOf(asset)));
  const permit2Check = () => once('permit2', () => checkPermit2Config(provider, chainId, permit2));
  // Kept once it passed; a spender found missing is looked for again a minute later (an operator
  // may deploy it while the service runs), so a chain without it costs no read per quote.
  let spenderAnswer: { at: number; answer: Promise<string | null> } | null = null;
  const spender = (): Promise<string | null> => {
    const kept = spenderAnswer;
    if (kept && Date.now() - kept.at < SPENDER_RECHECK_MS) return kept.answer;
    const answer = permit2SpenderProblem(provider, permit2);
    const entry = { at: Date.now(), answer };
    spenderAnswer = entry;
    answer.then(
      (problem) => {
        if (problem === null) entry.at = Infinity;
      },
      () => {
        if (spenderAnswer === entry) spenderAnswer = null;
      },
    );
    return answer;
  };
  return {
    token,
    permit2: permit2Check,
    /** Null when the Permit2 spender contract is deployed as expected (buyers then name it), else why not; throws when unread. */
    spender,
    /** Both verdicts that bear on offering `asset`: its token's, and Permit2's when it lists permit2. */
    async of(asset: AssetInfo): Promise<ConfigVerdict> {
      const [t, p] = await Promise.all([token(asset), asset.flows.includes('permit2') ? permit2Check() : { refused: [], problems: [] }]);
      return { refused: [...new Set([...t.refused, ...p.refused])], problems: [...t.problems, ...p.problems] };
    },
  };
}

type ConfigChecks = ReturnType<typeof createConfigChecks>;

/** Every self-check of one chain: its assets' tokens, Permit2 and its spender contract where an asset lists it, Multicall3 where the relayer batches, each endpoint's head. */
export async function selfCheckChain(
  c: { caip2: string; provider: Provider; permit2: string; checks: ConfigChecks; headFreshness?: HeadFreshnessBound; batchMax?: number },
  assets: AssetInfo[],
  timeoutMs: number,
): Promise<SelfCheck[]> {
  const chain = c.caip2;
  const unknown =
    (subject: string) =>
    (err: unknown): SelfCheck => ({ chain, subject, outcome: 'unknown', detail: `could not be read: ${errorText(err)}`, refuses: true });
  const mine = assets.filter((a) => `${a.parsed.chain.namespace}:${a.parsed.chain.reference}` === chain);
  const tokens = mine.map((asset) =>
    bounded(c.checks.token(asset), timeoutMs).then(
      (v): SelfCheck => {
        const subject = `token ${asset.symbol}`;
        if (v.problems.length) return { chain, subject, outcome: 'fail', detail: v.problems.join('; '), refuses: true };
        const domain = asset.flows.includes('eip3009') ? ', EIP-712 domain matches its DOMAIN_SEPARATOR()' : '';
        return { chain, subject, outcome: 'pass', detail: `decimals() ${asset.decimals} as configured${domain}`, refuses: true };
      },
      unknown(`token ${asset.symbol}`),
    ),
  );
  const permit2 = mine.some((a) => a.flows.includes('permit2'))
    ? [
        bounded(c.checks.permit2(), timeoutMs).then(
          (v): SelfCheck =>
            v.problems.length
              ? { chain, subject: 'permit2', outcome: 'fail', detail: v.problems.join('; '), refuses: true }
              : { chain, subject: 'permit2', outcome: 'pass', detail: `deployed at ${checksummed(c.permit2)}`, refuses: true },
          unknown('permit2'),
        ),
      ]
    : [];
  // Batching only: without Multicall3 each payment goes alone (slower, nothing refused).
  const multicall =
    (c.batchMax ?? 1) > 1 && mine.some((a) => a.flows.includes('eip3009'))
      ? [
          bounded(multicall3Problem(c.provider, BigInt(chain.split(':')[1]!)), timeoutMs).then(
            (problem): SelfCheck =>
              problem
                ? { chain, subject: 'multicall3', outcome: 'fail', detail: `${problem}; EIP-3009 payments go one per transaction`, refuses: false }
                : {
                    chain,
                    subject: 'multicall3',
                    outcome: 'pass',
                    detail: `answers aggregate3 at ${MULTICALL3_ADDRESS}: up to ${c.batchMax} EIP-3009 payments per relayer transaction`,
                    refuses: false,
                  },
            (err): SelfCheck => ({ ...unknown('multicall3')(err), refuses: false }),
          ),
        ]
      : [];
  // Without the spender contract buyers name a relayer key as their permit's spender: Permit2 still pays, one transaction each, and the key chooses `to`.
  const spender = mine.some((a) => a.flows.includes('permit2'))
    ? [
        bounded(c.checks.spender(), timeoutMs).then(
          (problem): SelfCheck =>
            problem
              ? {
                  chain,
                  subject: 'permit2 spender',
                  outcome: 'fail',
                  detail: `${problem}; Permit2 permits name a relayer key as spender, one transaction per payment`,
                  refuses: false,
                }
              : {
                  chain,
                  subject: 'permit2 spender',
                  outcome: 'pass',
                  detail: `deployed at ${permit2SpenderAddress(c.permit2)} with the expected code: permits name it, pay only their signed destination and are batched`,
                  refuses: false,
                },
          (err): SelfCheck => ({ ...unknown('permit2 spender')(err), refuses: false }),
        ),
      ]
    : [];
  const heads = evmEndpointHeads(c.provider, timeoutMs).then((h) => judgeHeads(chain, h, c.headFreshness ?? DEFAULT_HEAD_FRESHNESS, Date.now()));
  const [checked, judged] = await Promise.all([Promise.all([...tokens, ...permit2, ...spender, ...multicall]), heads]);
  return [...checked, ...judged];
}
