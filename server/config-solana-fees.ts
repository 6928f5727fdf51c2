// SOLANA_PRIORITY_FEES: how the Solana fee payer prices compute units on each cluster, as overrides
// of the adapter's defaults (adapters/chains/solana/fees.ts, where the figures are explained).

/** One cluster's overrides: any subset; what is left out keeps the adapter's default. */
export interface SolanaPriorityFeeOverride {
  /** Percentile (1–100) of recent per-slot prioritization fees paid for the transfer's accounts. */
  percentile?: number;
  /** Cap, micro-lamports per compute unit: a fee spike cannot empty the fee payer. */
  maxMicroLamports?: number;
  /** Floor, micro-lamports per compute unit: a transaction with no priority lands less often. */
  minMicroLamports?: number;
}

export interface SolanaFeeConfig {
  /** SOLANA_PRIORITY_FEES, as parsed: Solana CAIP-2 → its overrides. */
  solanaPriorityFees: Readonly<Record<string, SolanaPriorityFeeOverride>>;
}

const KEYS = ['percentile', 'maxMicroLamports', 'minMicroLamports'] as const;
/** 100 lamports per compute unit: ~3 million lamports (0.003 SOL) for a 30k-unit transfer, already far past any fee a payment should pay. */
const MAX_MICRO_LAMPORTS = 100_000_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const whole = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

function entryOf(chain: string, v: unknown): SolanaPriorityFeeOverride | string {
  if (!isObject(v)) return `"${chain}" must map to an object of ${KEYS.join(', ')}`;
  const unknown = Object.keys(v).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (unknown.length) return `"${chain}": unknown key ${unknown.join(', ')} (known: ${KEYS.join(', ')})`;
  const out: SolanaPriorityFeeOverride = {};
  if (v.percentile !== undefined) {
    if (!whole(v.percentile, 1, 100)) return `"${chain}": percentile must be a whole number from 1 to 100`;
    out.percentile = v.percentile;
  }
  for (const key of ['maxMicroLamports', 'minMicroLamports'] as const) {
    if (v[key] === undefined) continue;
    if (!whole(v[key], 0, MAX_MICRO_LAMPORTS)) return `"${chain}": ${key} must be a whole number of micro-lamports per compute unit from 0 to ${MAX_MICRO_LAMPORTS}`;
    out[key] = v[key];
  }
  if (out.minMicroLamports !== undefined && out.maxMicroLamports !== undefined && out.minMicroLamports > out.maxMicroLamports)
    return `"${chain}": minMicroLamports cannot exceed maxMicroLamports`;
  return out;
}

/** SOLANA_PRIORITY_FEES from the environment, or its first problem (naming the variable). */
export function parseSolanaFeeConfig(env: NodeJS.ProcessEnv): SolanaFeeConfig | { problem: string } {
  const raw = env.SOLANA_PRIORITY_FEES?.trim();
  if (!raw) return { solanaPriorityFees: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return { problem: `SOLANA_PRIORITY_FEES is not valid JSON: ${(err as Error).message}` };
  }
  if (!isObject(value)) return { problem: `SOLANA_PRIORITY_FEES must be a JSON object of Solana CAIP-2 chain id → {${KEYS.join(', ')}}` };
  const solanaPriorityFees: Record<string, SolanaPriorityFeeOverride> = {};
  for (const [chain, entry] of Object.entries(value)) {
    if (!/^solana:[-_a-zA-Z0-9]{1,32}$/.test(chain))
      return { problem: `SOLANA_PRIORITY_FEES: "${chain}" must be a Solana CAIP-2 chain id, e.g. solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp` };
    const parsed = entryOf(chain, entry);
    if (typeof parsed === 'string') return { problem: `SOLANA_PRIORITY_FEES: ${parsed}` };
    solanaPriorityFees[chain] = parsed;
  }
  return { solanaPriorityFees };
}

/**
 * One cluster's policy: `defaults` (the adapter's) with its overrides. A floor above the default
 * cap (or a cap below the default floor) moves the other bound with it, so the policy stays ordered.
 */
export function solanaFeePolicy<P extends Required<SolanaPriorityFeeOverride>>(config: SolanaFeeConfig, caip2: string, defaults: P): P {
  const o = config.solanaPriorityFees[caip2] ?? {};
  const policy = { ...defaults, ...o };
  if (policy.minMicroLamports > policy.maxMicroLamports) {
    if (o.minMicroLamports !== undefined) policy.maxMicroLamports = policy.minMicroLamports;
    else policy.minMicroLamports = policy.maxMicroLamports;
  }
  return policy;
}
