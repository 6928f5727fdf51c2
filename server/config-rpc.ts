// The RPC endpoints of each chain and how they are called: several URLs per chain (reads fail
// over, broadcasts go to all), bounded timeouts, Retry-After cap, circuit breaker, how long every
// endpoint may agree on a lower head before it is the chain's, and the bound on one chain's share
// of a gateway options call. adapters/rpc-endpoints/endpoint-pool.ts applies them.

export interface RpcConfig {
  /** EVM_RPC_URLS: eip155 CAIP-2 → its endpoints, in order of preference (a string is one endpoint). */
  evmRpcEndpoints: Record<string, string[]>;
  /** SOLANA_RPC_URLS (JSON array), else SOLANA_RPC_URL alone; empty: no Solana. */
  solanaRpcUrls: string[];
  /** RPC_TIMEOUT_MS: one HTTP attempt to one endpoint, answer included. */
  rpcTimeoutMs: number;
  /** RPC_RETRY_AFTER_CAP_MS: the longest 429 Retry-After honoured. */
  rpcRetryAfterCapMs: number;
  /** RPC_BREAKER_FAILURES: consecutive failures that take an endpoint out. */
  rpcBreakerFailures: number;
  /** RPC_BREAKER_COOLDOWN_MS: how long it stays out before one trial request. */
  rpcBreakerCooldownMs: number;
  /** RPC_HEAD_REGRESS_MS: every endpoint below the highest head seen this long: the chain got shorter (reorg). */
  rpcHeadRegressMs: number;
  /** OPTIONS_CHAIN_BOUND_MS: one chain's share of a gateway options call; a slower chain is left out. */
  optionsChainBoundMs: number;
}

const httpUrl = (v: unknown): v is string => {
  if (typeof v !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

function parseJson(env: NodeJS.ProcessEnv, key: string): { value: unknown } | { problem: string } {
  const raw = env[key];
  if (!raw) return { value: undefined };
  try {
    return { value: JSON.parse(raw) as unknown };
  } catch (err) {
    return { problem: `${key} is not valid JSON: ${(err as Error).message}` };
  }
}

function evmEndpoints(env: NodeJS.ProcessEnv): Record<string, string[]> | string {
  const parsed = parseJson(env, 'EVM_RPC_URLS');
  if ('problem' in parsed) return parsed.problem;
  if (parsed.value === undefined) return {};
  const v = parsed.value;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'EVM_RPC_URLS must be a JSON object of CAIP-2 → URL or [URLs], e.g. {"eip155:8453":["https://…","https://…"]}';
  const out: Record<string, string[]> = {};
  for (const [chain, urls] of Object.entries(v as Record<string, unknown>)) {
    if (!/^eip155:[1-9]\d{0,31}$/.test(chain)) return `EVM_RPC_URLS: "${chain}" must be an eip155 CAIP-2 chain id, e.g. eip155:8453`;
    const list = typeof urls === 'string' ? [urls] : urls;
    if (!Array.isArray(list) || !list.length || list.length > 10 || !list.every(httpUrl) || new Set(list).size !== list.length)
      return `EVM_RPC_URLS: "${chain}" must map to an http:// or https:// JSON-RPC URL, or an array of 1 to 10 distinct ones`;
    out[chain] = list;
  }
  return out;
}

function solanaUrls(env: NodeJS.ProcessEnv): string[] | string {
  const parsed = parseJson(env, 'SOLANA_RPC_URLS');
  if ('problem' in parsed) return parsed.problem;
  if (parsed.value === undefined) return env.SOLANA_RPC_URL ? [env.SOLANA_RPC_URL.replace(/\/+$/, '')] : [];
  const v = parsed.value;
  if (!Array.isArray(v) || !v.length || v.length > 10 || !v.every(httpUrl) || new Set(v).size !== v.length)
    return 'SOLANA_RPC_URLS must be a JSON array of 1 to 10 distinct http:// or https:// URLs';
  if (env.SOLANA_RPC_URL && env.SOLANA_RPC_URL.replace(/\/+$/, '') !== (v[0] as string).replace(/\/+$/, ''))
    return 'SOLANA_RPC_URL and SOLANA_RPC_URLS are both set and disagree: set SOLANA_RPC_URLS only';
  return v.map((u) => u.replace(/\/+$/, ''));
}

function integer(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number, max: number): number | string {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min && n <= max ? n : `${key} must be an integer from ${min} to ${max}, got "${raw}"`;
}

/** The RPC settings, or the problem naming the variable at fault. */
export function parseRpcConfig(env: NodeJS.ProcessEnv): RpcConfig | { problem: string } {
  const evmRpcEndpoints = evmEndpoints(env);
  if (typeof evmRpcEndpoints === 'string') return { problem: evmRpcEndpoints };
  const solanaRpcUrls = solanaUrls(env);
  if (typeof solanaRpcUrls === 'string') return { problem: solanaRpcUrls };
  // Seconds, not the libraries' minutes: a payment step waits at most a few of these.
  const numbers = {
    rpcTimeoutMs: integer(env, 'RPC_TIMEOUT_MS', 8_000, 200, 120_000),
    rpcRetryAfterCapMs: integer(env, 'RPC_RETRY_AFTER_CAP_MS', 10_000, 0, 300_000),
    rpcBreakerFailures: integer(env, 'RPC_BREAKER_FAILURES', 3, 1, 100),
    rpcBreakerCooldownMs: integer(env, 'RPC_BREAKER_COOLDOWN_MS', 30_000, 100, 3_600_000),
    rpcHeadRegressMs: integer(env, 'RPC_HEAD_REGRESS_MS', 60_000, 1_000, 3_600_000),
    optionsChainBoundMs: integer(env, 'OPTIONS_CHAIN_BOUND_MS', 4_000, 100, 60_000),
  };
  for (const v of Object.values(numbers)) if (typeof v === 'string') return { problem: v };
  return { evmRpcEndpoints, solanaRpcUrls, ...(numbers as { [K in keyof typeof numbers]: number }) };
}

/** The endpoint pool's options of a configuration (the same for every chain). */
export const poolOptionsOf = (c: RpcConfig) => ({
  timeoutMs: c.rpcTimeoutMs,
  retryAfterCapMs: c.rpcRetryAfterCapMs,
  breakerFailures: c.rpcBreakerFailures,
  breakerCooldownMs: c.rpcBreakerCooldownMs,
});
