// Long because: every setting is read and checked here, so a bad value stops the start naming its key (parts split out: config-values, config-webhooks, config-metrics, config-explorers, config-wallet-chains, config-chain-fees, config-solana-fees, config-jobs).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AssetConfig } from './domain/assets.ts';
import type { RateLimit } from './ports/rate-limiter.ts';
import { SOLANA_MAINNET_CHAIN_ID, baseUnits, parseAssets, parseFxRates, parseSolanaChainId } from './config-values.ts';
import { parseWebhookConfig, type WebhookConfig } from './config-webhooks.ts';
import { parseMetricsConfig, type MetricsConfig } from './config-metrics.ts';
import { parseExplorerConfig, type ExplorerConfig } from './config-explorers.ts';
import { parseWalletRpcConfig, type WalletRpcConfig } from './config-wallet-chains.ts';
import { parseChainFeeConfig, type ChainFeeConfig } from './config-chain-fees.ts';
import { parseSolanaFeeConfig, type SolanaFeeConfig } from './config-solana-fees.ts';
import { parseChainFinality, type ChainFinality } from './chain-profiles.ts';
import { parseJobsConfig, type JobsConfig } from './config-jobs.ts';
import { parseRpcConfig, type RpcConfig } from './config-rpc.ts';
import { DEFAULT_LIVE_QUOTES_PER_PAYMENT } from './domain/gateway/options.ts';

/**
 * Configuration, read once at start from the environment. Every key is checked here; a bad
 * value stops the process with a message naming the key, rather than failing at the first
 * request that needs it.
 */
export interface AppConfig extends WebhookConfig, MetricsConfig, ExplorerConfig, WalletRpcConfig, ChainFeeConfig, SolanaFeeConfig, JobsConfig, RpcConfig {
  mode: 'sandbox' | 'production';
  port: number;
  host: string;
  /** PostgreSQL server; absent → embedded PGlite under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  redisUrl?: string;
  /** Base of buyer payment links: `gatewayUrl` is `{payBaseUrl}/<paymentId>`. */
  payBaseUrl: string;
  logLevel: string;
  assets: AssetConfig[];
  /** Check merchant logos by fetching them (HTTPS, public addresses only). */
  logoChecks: boolean;
  /** Run job workers in the API process (off when `npm run worker` processes do it). */
  jobWorkers: boolean;
  /** Payment expiry: default and maximum, seconds. */
  paymentDefaultTtlS: number;
  paymentMaxTtlS: number;
  /** Where this service is reached (links to itself, e.g. the sandbox JSON-RPC URL). */
  publicBaseUrl: string;
  quoteTtlS: number;
  /** Live unchosen quotes one payment keeps; the oldest beyond it are evicted (LIVE_QUOTES_PER_PAYMENT). */
  liveQuotesPerPayment: number;
  /** "FROM/TO" → rate, e.g. {"EUR/USD": "1.08"}. */
  fxRates: Record<string, string>;
  /** Production EVM chains: CAIP-2 → its first JSON-RPC URL (all of them: evmRpcEndpoints), and the relayer paying gas for gasless flows. */
  evmRpcUrls: Record<string, string>;
  /** The first relayer key (EVM_RELAYER_KEYS' first, or EVM_RELAYER_KEY). */
  evmRelayerKey?: string;
  /** Every relayer key of the pool, in order (EVM_RELAYER_KEYS; EVM_RELAYER_KEY is a pool of one). */
  evmRelayerKeys: string[];
  /** Most payments in one relayer transaction (EVM_RELAYER_BATCH_MAX, default 16; 1: no batching). */
  evmRelayerBatchMax: number;
  /** How long a first submission waits for others to share its transaction, ms (EVM_RELAYER_BATCH_WINDOW_MS). */
  evmRelayerBatchWindowMs: number;
  /** Blocks (the inclusion block counting 1) before a payment counts as succeeded; finality is followed after (chainFinality). */
  evmConfirmations: number;
  /** CHAIN_FINALITY, as parsed: CAIP-2 → the finality policy that replaces its kind's default (server/chain-profiles.ts). */
  chainFinality: Record<string, ChainFinality>;
  /** A relayer transaction the node holds unmined this long is replaced with higher fees. */
  evmReplaceAfterS: number;
  permit2Address: string;
  /** Production Solana: JSON-RPC URL and the fee payer key (base58 or a JSON byte array). */
  solanaRpcUrl?: string;
  solanaFeePayerKey?: string;
  /** Below this balance (lamports) the fee payer shows in /readyz and the logs. */
  solanaFeePayerMinLamports: bigint;
  /** The CAIP-2 id of the cluster SOLANA_RPC_URL serves (default mainnet): its assets' ids start with it. */
  solanaChainId: string;
  /** HMAC key of the data-collection page tokens; absent: a random key per process. */
  collectDataSecret?: string;
  /** Requests per API key (per key and address for App-Id wallets); null: no limit. */
  rateLimit: RateLimit | null;
  /** Requests without a proven key (none, unknown, revoked) per client address; null: no limit. */
  unauthenticatedRateLimit: RateLimit | null;
  /** Proxies in front of the service (X-Forwarded-For hops to believe); 0: clients connect directly. */
  trustProxyHops: number;
  /** SIGTERM: how long an API process lets requests in flight finish before it cuts them and exits. */
  shutdownTimeoutS: number;
  /** SIGTERM: how long a worker waits for its running jobs before it exits non-zero (they are then run again elsewhere). */
  workerShutdownTimeoutS: number;
  /**
   * BullMQ's job lock and stalled-job check interval: a job whose worker died runs again elsewhere
   * within two to three times this. A running job's lock is renewed every half of it, so a job on a
   * slow RPC keeps it; shorter recovers sooner, but a worker that cannot renew in time (event loop
   * blocked, Redis unreachable) has its job judged stalled and run again elsewhere.
   */
  queueLockS: number;
  /** Serve the partner dashboard at /dashboard (DASHBOARD=off: 404 there). */
  dashboard: boolean;
  /** How long a temporary dashboard password (an invitation's, the key tool's) lasts before it must have been replaced. */
  temporaryPasswordHours: number;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${key} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

function units(env: NodeJS.ProcessEnv, key: string, fallback: bigint): bigint {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const n = baseUnits(raw);
  if (n === null) throw new ConfigError(`${key} must be a whole number of base units (e.g. ${fallback}), got "${raw}"`);
  return n;
}

/** An on/off switch; anything else is refused rather than read as "on". */
function flag(env: NodeJS.ProcessEnv, key: string, fallback: boolean): boolean {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on' || raw === 'off') return raw === 'on';
  throw new ConfigError(`${key} must be on or off, got "${raw}"`);
}

/** A JSON value from a variable, or a message naming it. */
function json(env: NodeJS.ProcessEnv, key: string): unknown {
  const raw = env[key];
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch (err) {
    throw new ConfigError(`${key} is not valid JSON: ${(err as Error).message}`);
  }
}

/** The assets of ASSETS_FILE, every entry checked, with the file named in each message. */
function readAssetsFile(file: string, cwd: string): AssetConfig[] {
  const path = resolve(cwd, file);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (err) {
    throw new ConfigError(`ASSETS_FILE (${path}) could not be read as JSON: ${(err as Error).message}`);
  }
  const parsed = parseAssets(value);
  if ('problem' in parsed) throw new ConfigError(`ASSETS_FILE (${path}): ${parsed.problem}`);
  return parsed.assets;
}

function url(env: NodeJS.ProcessEnv, key: string, protocols: string[]): string | undefined {
  const raw = env[key];
  if (raw === undefined || raw === '') return undefined;
  try {
    const u = new URL(raw);
    if (!protocols.includes(u.protocol)) throw new Error();
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`${key} must be a URL starting with ${protocols.join(' or ')}`);
  }
}

/** FX_RATES: "FROM/TO" → a positive decimal rate between two supported currencies. */
function fxRates(env: NodeJS.ProcessEnv): Record<string, string> {
  const value = json(env, 'FX_RATES');
  if (value === undefined) return {};
  const parsed = parseFxRates(value);
  if ('problem' in parsed) throw new ConfigError(`FX_RATES: ${parsed.problem}`);
  return parsed.rates;
}

function solanaChainId(env: NodeJS.ProcessEnv): string {
  const parsed = parseSolanaChainId(env.SOLANA_CHAIN_ID || SOLANA_MAINNET_CHAIN_ID);
  if ('problem' in parsed) throw new ConfigError(`SOLANA_CHAIN_ID ${parsed.problem}`);
  return parsed.chainId;
}

function permit2Address(env: NodeJS.ProcessEnv): string {
  const raw = env.PERMIT2_ADDRESS || '0x000000000022D473030F116dDEE9F6B43aC78BA3';
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) throw new ConfigError(`PERMIT2_ADDRESS must be a 0x-prefixed 20-byte hex address, got "${raw}"`);
  return raw;
}

/** The buyer pages' base; /v1/ belongs to the API, so pages cannot live under it. */
function payBaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const base = url(env, 'PAY_BASE_URL', ['http:', 'https:']);
  if (base && /^\/v1(\/|$)/.test(new URL(base).pathname)) throw new ConfigError('PAY_BASE_URL must not put the payment pages under /v1/, which is the API');
  return base;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): AppConfig {
  const mode = env.SERVICE_MODE ?? 'sandbox';
  if (mode !== 'sandbox' && mode !== 'production') throw new ConfigError(`SERVICE_MODE must be sandbox or production, got "${mode}"`);
  const port = int(env, 'PORT', 3000, 0, 65535);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be a pino level, got "${logLevel}"`);
  // Sandbox mode without ASSETS_FILE settles in the sandbox chains' assets (added at start).
  const assetsFile = env.ASSETS_FILE || (mode === 'production' ? resolve(import.meta.dirname, '../config/assets.production.json') : undefined);
  const assets = assetsFile ? readAssetsFile(assetsFile, cwd) : [];
  const logoChecks = flag(env, 'LOGO_CHECKS', true);
  const jobWorkers = flag(env, 'JOB_WORKERS', true);
  if (!jobWorkers && !env.REDIS_URL) throw new ConfigError('JOB_WORKERS=off needs REDIS_URL: without Redis jobs run in the API process');
  const paymentMaxTtlS = int(env, 'PAYMENT_MAX_TTL_S', 30 * 86_400, 60, 365 * 86_400);
  const paymentDefaultTtlS = int(env, 'PAYMENT_DEFAULT_TTL_S', 300, 30, paymentMaxTtlS);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const evmRelayerKeys = relayerKeys(env);
  const evmRelayerKey = evmRelayerKeys[0];
  const rpc = parseRpcConfig(env);
  if ('problem' in rpc) throw new ConfigError(rpc.problem);
  // The first endpoint of each chain: what code that names one URL per chain reads.
  const evmRpcUrls = Object.fromEntries(Object.entries(rpc.evmRpcEndpoints).map(([chain, urls]) => [chain, urls[0]!]));
  if (mode === 'production' && Object.keys(evmRpcUrls).length && !evmRelayerKey)
    throw new ConfigError('EVM_RPC_URLS needs EVM_RELAYER_KEYS or EVM_RELAYER_KEY (the relayer pays gas for gasless flows)');
  const solanaRpcUrl = url(env, 'SOLANA_RPC_URL', ['http:', 'https:']) ?? rpc.solanaRpcUrls[0];
  const solanaFeePayerKey = env.SOLANA_FEE_PAYER_KEY || undefined;
  if (solanaFeePayerKey !== undefined && !/^[1-9A-HJ-NP-Za-km-z]{80,90}$/.test(solanaFeePayerKey) && !/^\[\s*\d{1,3}(\s*,\s*\d{1,3}){63}\s*\]$/.test(solanaFeePayerKey)) {
    throw new ConfigError('SOLANA_FEE_PAYER_KEY must be a 64-byte secret key: base58, or a JSON array of 64 numbers (solana-keygen)');
  }
  const collectDataSecret = env.COLLECT_DATA_SECRET || undefined;
  if (collectDataSecret !== undefined && collectDataSecret.length < 32) throw new ConfigError('COLLECT_DATA_SECRET must be at least 32 characters (e.g. openssl rand -base64 32)');
  if (mode === 'production' && solanaRpcUrl && !solanaFeePayerKey)
    throw new ConfigError('SOLANA_RPC_URL needs SOLANA_FEE_PAYER_KEY (the service pays the fee of every Solana payment)');
  const solanaChain = solanaChainId(env);
  // The service pays on one Solana cluster: an asset on another would be accepted for settlement
  // and then never offered to a buyer, with nothing saying why.
  const elsewhere = mode === 'production' && solanaRpcUrl ? assets.find((a) => a.id.startsWith('solana:') && !a.id.startsWith(`${solanaChain}/`)) : undefined;
  if (elsewhere) throw new ConfigError(`ASSETS_FILE lists ${elsewhere.id}, not on SOLANA_CHAIN_ID (${solanaChain}), the Solana cluster SOLANA_RPC_URL serves`);
  const ratePerS = int(env, 'RATE_LIMIT_PER_S', 100, 0, 1_000_000);
  const rateBurst = int(env, 'RATE_LIMIT_BURST', Math.max(1, 2 * ratePerS), 1, 10_000_000);
  // Guessing keys: a client with a valid key spends this only on its first request per process
  // (and when its key was revoked); 5/s with 30 at once leaves room for a mistyped key and retries.
  const unauthPerS = int(env, 'UNAUTHENTICATED_RATE_PER_S', 5, 0, 1_000_000);
  const unauthBurst = int(env, 'UNAUTHENTICATED_BURST', 30, 1, 10_000_000);
  const webhooks = parseWebhookConfig(env, mode);
  if ('problem' in webhooks) throw new ConfigError(webhooks.problem);
  const metrics = parseMetricsConfig(env);
  if ('problem' in metrics) throw new ConfigError(metrics.problem);
  const explorers = parseExplorerConfig(env);
  if ('problem' in explorers) throw new ConfigError(explorers.problem);
  const walletRpc = parseWalletRpcConfig(env, rpc.evmRpcEndpoints);
  if ('problem' in walletRpc) throw new ConfigError(walletRpc.problem);
  const fees = parseChainFeeConfig(env);
  if ('problem' in fees) throw new ConfigError(fees.problem);
  const solanaFees = parseSolanaFeeConfig(env);
  if ('problem' in solanaFees) throw new ConfigError(solanaFees.problem);
  // Production pays on one cluster: an entry for another would be silently unused.
  const otherCluster = mode === 'production' ? Object.keys(solanaFees.solanaPriorityFees).find((c) => c !== solanaChain) : undefined;
  if (otherCluster) throw new ConfigError(`SOLANA_PRIORITY_FEES names ${otherCluster}, not SOLANA_CHAIN_ID (${solanaChain}), the only cluster the service pays on`);
  const finality = parseChainFinality(env.CHAIN_FINALITY?.trim() || '{}');
  if (!finality.ok) throw new ConfigError(`CHAIN_FINALITY ${finality.problem}`);
  const jobs = parseJobsConfig(env);
  if ('problem' in jobs) throw new ConfigError(jobs.problem);
  return {
    ...fees,
    ...solanaFees,
    ...jobs,
    ...rpc,
    ...webhooks,
    ...metrics,
    ...explorers,
    ...walletRpc,
    rateLimit: ratePerS === 0 ? null : { perSecond: ratePerS, burst: rateBurst },
    unauthenticatedRateLimit: unauthPerS === 0 ? null : { perSecond: unauthPerS, burst: unauthBurst },
    trustProxyHops: int(env, 'TRUST_PROXY', 0, 0, 10),
    // Below a balancer's usual drain time (and Kubernetes' 30 s grace period), so the process,
    // not the platform's SIGKILL, decides what is cut.
    shutdownTimeoutS: int(env, 'SHUTDOWN_TIMEOUT_S', 10, 1, 300),
    workerShutdownTimeoutS: int(env, 'WORKER_SHUTDOWN_TIMEOUT_S', 30, 1, 3600),
    queueLockS: int(env, 'QUEUE_LOCK_S', 30, 2, 600),
    dashboard: flag(env, 'DASHBOARD', true),
    temporaryPasswordHours: int(env, 'TEMPORARY_PASSWORD_HOURS', 72, 1, 720),
    ...(collectDataSecret ? { collectDataSecret } : {}),
    ...(solanaRpcUrl ? { solanaRpcUrl } : {}),
    ...(solanaFeePayerKey ? { solanaFeePayerKey } : {}),
    solanaChainId: solanaChain,
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`,
    quoteTtlS: int(env, 'QUOTE_TTL_S', 300, 30, 3600),
    liveQuotesPerPayment: int(env, 'LIVE_QUOTES_PER_PAYMENT', DEFAULT_LIVE_QUOTES_PER_PAYMENT, 50, 10_000),
    fxRates: fxRates(env),
    evmRpcUrls,
    ...(evmRelayerKey ? { evmRelayerKey } : {}),
    evmRelayerKeys,
    // On by default: every payment of a batch records the shared transaction (migration 025), each
    // judged by its own authorization. 16 calls stay far under a block's gas (~1.5M) and the flow's
    // per-payment ceiling; the 50 ms window is a small share of any chain's block time.
    evmRelayerBatchMax: int(env, 'EVM_RELAYER_BATCH_MAX', 16, 1, 64),
    evmRelayerBatchWindowMs: int(env, 'EVM_RELAYER_BATCH_WINDOW_MS', 50, 0, 2000),
    evmConfirmations: int(env, 'EVM_CONFIRMATIONS', 1, 1, 1000),
    chainFinality: finality.value,
    evmReplaceAfterS: int(env, 'EVM_REPLACE_AFTER_S', 45, 5, 3600),
    solanaFeePayerMinLamports: units(env, 'SOLANA_FEE_PAYER_MIN_LAMPORTS', 50_000_000n),
    permit2Address: permit2Address(env),
    mode,
    port,
    // The sandbox (test keys, a faucet, loopback webhooks) is a developer's tool: reachable from
    // this machine only unless HOST says otherwise. Production serves behind its balancer.
    host: env.HOST || (mode === 'production' ? '0.0.0.0' : '127.0.0.1'),
    ...(databaseUrl ? { databaseUrl } : {}),
    dataDir: resolve(cwd, env.DATA_DIR ?? 'data'),
    ...(redisUrl ? { redisUrl } : {}),
    payBaseUrl: payBaseUrl(env) ?? `http://localhost:${port}/pay`,
    logLevel,
    assets,
    logoChecks,
    jobWorkers,
    paymentDefaultTtlS,
    paymentMaxTtlS,
  };
}

/**
 * What `npm run worker` needs beyond a valid configuration: production chains (the sandbox's live
 * inside the API process), a durable queue shared with the API processes (Redis: with the inline
 * queue, jobs live in one process's memory and a separate worker would never see them), and a
 * PostgreSQL server (an embedded PGlite directory cannot be opened by two processes at once).
 */
export function assertWorkerConfig(config: AppConfig): void {
  if (config.mode === 'sandbox') {
    throw new ConfigError(
      'SERVICE_MODE: the sandbox chains live inside the API process, so in sandbox mode jobs run there (JOB_WORKERS=on); run separate workers with SERVICE_MODE=production and real chain RPC URLs.',
    );
  }
  if (!config.redisUrl || !config.databaseUrl) {
    const missing = [config.redisUrl ? null : 'REDIS_URL', config.databaseUrl ? null : 'DATABASE_URL'].filter(Boolean).join(' and ');
    throw new ConfigError(
      `${missing} must be set for a worker. A separate worker process needs a durable queue (Redis, shared with the API processes) ` +
        'and a PostgreSQL server; in the embedded mode (no REDIS_URL) the API process runs jobs itself with the inline queue.',
    );
  }
}

const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

/**
 * The relayer's keys: EVM_RELAYER_KEYS (comma-separated), else EVM_RELAYER_KEY as a pool of one;
 * both set must agree on the first key, so an operator adding keys cannot silently drop the old one.
 */
export function relayerKeys(env: NodeJS.ProcessEnv): string[] {
  const one = env.EVM_RELAYER_KEY;
  if (one !== undefined && !PRIVATE_KEY.test(one)) throw new ConfigError('EVM_RELAYER_KEY must be a 0x-prefixed 32-byte hex private key');
  const list = env.EVM_RELAYER_KEYS?.trim();
  if (!list) return one === undefined ? [] : [one];
  const keys = list.split(',').map((k) => k.trim());
  const bad = keys.findIndex((k) => !PRIVATE_KEY.test(k));
  if (bad >= 0) throw new ConfigError(`EVM_RELAYER_KEYS entry ${bad + 1} must be a 0x-prefixed 32-byte hex private key`);
  if (new Set(keys.map((k) => k.toLowerCase())).size !== keys.length) throw new ConfigError('EVM_RELAYER_KEYS lists a key twice');
  if (one !== undefined && one.toLowerCase() !== keys[0]!.toLowerCase())
    throw new ConfigError('EVM_RELAYER_KEY and EVM_RELAYER_KEYS are both set and EVM_RELAYER_KEY is not the first of EVM_RELAYER_KEYS; set one of them');
  return keys;
}
