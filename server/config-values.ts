import type { AssetConfig, PaymentFlow } from './domain/assets.ts';
import { parseAssetId } from './domain/caip.ts';
import { currencyExponent } from './domain/currencies.ts';

/**
 * Checks of configuration values too large for one line of config.ts: the contents of ASSETS_FILE
 * and FX_RATES. Each problem is a message that names where it is (`asset 3: …`, `"EUR/USD": …`);
 * config.ts prefixes the variable. Every rule the asset registry and price table enforce at start
 * is checked here first, so a bad file fails with its variable named, not as a stack trace.
 */

/** Which flows exist on which CAIP-2 namespace (design.md §3 "How EVM is paid", "How Solana is paid"). */
const FLOWS_BY_NAMESPACE: Record<string, readonly PaymentFlow[]> = {
  eip155: ['eip3009', 'permit2', 'transfer'],
  solana: ['spl'],
};
const ASSET_KEYS = new Set(['id', 'symbol', 'name', 'decimals', 'pegCurrency', 'flows', 'gaslessMinimum', 'approveFromZero', 'eip712', 'networkName', 'iconUrl', 'networkIconUrl']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown, max: number): v is string => typeof v === 'string' && v.trim() !== '' && v.length <= max;

function httpsUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    return new URL(v).protocol === 'https:';
  } catch {
    return false;
  }
}

/** One entry's problem (the first found), or null. */
function assetProblem(entry: unknown): string | null {
  if (!isObject(entry)) return 'must be an object';
  const unknown = Object.keys(entry).filter((k) => !ASSET_KEYS.has(k));
  if (unknown.length) return `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${[...ASSET_KEYS].join(', ')})`;
  const parsed = typeof entry.id === 'string' ? parseAssetId(entry.id) : null;
  if (!parsed) return 'id must be a CAIP-19 asset id, e.g. eip155:8453/erc20:0x…';
  if (!nonEmpty(entry.symbol, 16)) return 'symbol must be a non-empty string of at most 16 characters';
  if (!nonEmpty(entry.name, 64)) return 'name must be a non-empty string of at most 64 characters';
  if (typeof entry.decimals !== 'number' || !Number.isInteger(entry.decimals) || entry.decimals < 0 || entry.decimals > 36) return 'decimals must be an integer 0..36';
  if (entry.pegCurrency !== undefined && (typeof entry.pegCurrency !== 'string' || currencyExponent(entry.pegCurrency) === undefined))
    return 'pegCurrency must be a supported ISO 4217 currency code (e.g. USD)';
  const allowed = FLOWS_BY_NAMESPACE[parsed.chain.namespace];
  if (!allowed) return `id is on ${parsed.chain.namespace}, a chain namespace this service does not pay on (${Object.keys(FLOWS_BY_NAMESPACE).join(', ')})`;
  if (!Array.isArray(entry.flows) || entry.flows.length === 0) return `flows must be a non-empty array of ${allowed.join(', ')}`;
  const flows: unknown[] = entry.flows;
  const bad = flows.find((f) => !allowed.includes(f as PaymentFlow));
  if (bad !== undefined) return `flows: ${JSON.stringify(bad)} is not a flow on ${parsed.chain.namespace} (${allowed.join(', ')})`;
  if (new Set(flows).size !== flows.length) return 'flows lists a flow twice';
  if (entry.gaslessMinimum !== undefined && (typeof entry.gaslessMinimum !== 'string' || !/^\d{1,78}$/.test(entry.gaslessMinimum)))
    return 'gaslessMinimum must be a string of whole base units, e.g. "10000"';
  if (entry.approveFromZero !== undefined && typeof entry.approveFromZero !== 'boolean') return 'approveFromZero must be true or false';
  if (entry.eip712 !== undefined) {
    const d = entry.eip712;
    if (!isObject(d) || Object.keys(d).some((k) => k !== 'name' && k !== 'version') || !nonEmpty(d.name, 64) || !nonEmpty(d.version, 16))
      return 'eip712 must be {"name": "…", "version": "…"}: the token’s EIP-712 domain name and version';
    if (!flows.includes('eip3009')) return 'eip712 is only used by the eip3009 flow, which this asset does not list';
  }
  if (!nonEmpty(entry.networkName, 64)) return 'networkName must be a non-empty string of at most 64 characters';
  for (const key of ['iconUrl', 'networkIconUrl'] as const) if (entry[key] !== undefined && !httpsUrl(entry[key])) return `${key} must be an https:// URL`;
  return null;
}

/** The identity two entries must not share: EVM addresses name one token in any letter case. */
function assetKey(id: string): string {
  const p = parseAssetId(id)!;
  return p.chain.namespace === 'eip155' ? id.toLowerCase() : id;
}

/** The assets of a parsed ASSETS_FILE, or the first problem (`asset 3: …`, counted from 1 as a reader of the file counts). */
export function parseAssets(value: unknown): { assets: AssetConfig[] } | { problem: string } {
  if (!Array.isArray(value)) return { problem: 'must hold a JSON array of assets' };
  const seen = new Map<string, number>();
  for (const [i, entry] of value.entries()) {
    const n = i + 1;
    const problem = assetProblem(entry);
    if (problem) return { problem: `asset ${n}${isObject(entry) && typeof entry.id === 'string' ? ` (${entry.id})` : ''}: ${problem}` };
    const id = (entry as AssetConfig).id;
    const first = seen.get(assetKey(id));
    if (first !== undefined) return { problem: `asset ${n} (${id}): the same asset as asset ${first}` };
    seen.set(assetKey(id), n);
  }
  return { assets: value as AssetConfig[] };
}

/** A positive decimal, as the price table reads it (no sign, no exponent). */
const RATE = /^\d+(\.\d+)?$/;

/** FX_RATES's pairs, or the first problem (`"EUR/USD": …`). */
export function parseFxRates(value: unknown): { rates: Record<string, string> } | { problem: string } {
  if (!isObject(value)) return { problem: 'must be a JSON object of "FROM/TO": "rate", e.g. {"EUR/USD":"1.08"}' };
  for (const [pair, rate] of Object.entries(value)) {
    const m = /^([A-Z]{3})\/([A-Z]{3})$/.exec(pair);
    if (!m) return { problem: `"${pair}": a pair must be two ISO 4217 codes as FROM/TO, e.g. "EUR/USD"` };
    for (const code of [m[1]!, m[2]!]) if (currencyExponent(code) === undefined) return { problem: `"${pair}": ${code} is not a supported currency` };
    if (m[1] === m[2]) return { problem: `"${pair}": a currency's rate to itself is always 1` };
    if (typeof rate !== 'string' || !RATE.test(rate)) return { problem: `"${pair}": the rate must be a decimal string such as "1.08", got ${JSON.stringify(rate)}` };
    if (!/[1-9]/.test(rate)) return { problem: `"${pair}": the rate must be greater than zero` };
  }
  return { rates: value as Record<string, string> };
}

/**
 * A native amount in base units (wei, lamports) written as a whole decimal number: no sign, no
 * exponent, no decimals (a mistyped `0.01` must not read as 0), at most 40 digits. Null otherwise.
 */
export function baseUnits(raw: string): bigint | null {
  return /^\d{1,40}$/.test(raw.trim()) ? BigInt(raw.trim()) : null;
}

/** Solana mainnet-beta's CAIP-2 id: the default of SOLANA_CHAIN_ID. */
export const SOLANA_MAINNET_CHAIN_ID = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';

/**
 * The sandbox Solana's id (adapters/sandbox/solana's default reference). It is no cluster's genesis
 * hash, yet the standalone sandbox chains serve it to production-mode processes, so it is accepted.
 */
const SOLANA_SANDBOX_CHAIN_ID = 'solana:sandbox';

/** A cluster's CAIP-2 reference: the first 32 base58 characters of its genesis hash. */
const SOLANA_CLUSTER_ID = /^solana:[1-9A-HJ-NP-Za-km-z]{32}$/;

/** SOLANA_CHAIN_ID's value, or its problem. */
export function parseSolanaChainId(value: string): { chainId: string } | { problem: string } {
  if (SOLANA_CLUSTER_ID.test(value) || value === SOLANA_SANDBOX_CHAIN_ID) return { chainId: value };
  return {
    problem: `must be solana:<the first 32 base58 characters of the cluster's genesis hash>, e.g. ${SOLANA_MAINNET_CHAIN_ID} (mainnet), or ${SOLANA_SANDBOX_CHAIN_ID}; got "${value}"`,
  };
}
