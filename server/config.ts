import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AssetConfig } from './domain/assets.ts';

/**
 * Configuration, read once at start from the environment. Every key is checked here; a bad
 * value stops the process with a message naming the key, rather than failing at the first
 * request that needs it.
 */
export interface AppConfig {
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
}

export const CONFIG_KEYS = ['SERVICE_MODE', 'PORT', 'HOST', 'DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'PAY_BASE_URL', 'LOG_LEVEL', 'ASSETS_FILE', 'LOGO_CHECKS', 'JOB_WORKERS', 'PAYMENT_DEFAULT_TTL_S', 'PAYMENT_MAX_TTL_S'] as const;

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${key} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): AppConfig {
  const mode = env.SERVICE_MODE ?? 'sandbox';
  if (mode !== 'sandbox' && mode !== 'production') throw new ConfigError(`SERVICE_MODE must be sandbox or production, got "${mode}"`);
  const port = int(env, 'PORT', 3000, 0, 65535);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be a pino level, got "${logLevel}"`);
  const assetsFile = env.ASSETS_FILE ?? resolve(import.meta.dirname, '../config/assets.production.json');
  let assets: AssetConfig[];
  try {
    assets = JSON.parse(readFileSync(resolve(cwd, assetsFile), 'utf8')) as AssetConfig[];
  } catch (err) {
    throw new ConfigError(`ASSETS_FILE ${assetsFile} could not be read as JSON: ${(err as Error).message}`);
  }
  const logoChecks = (env.LOGO_CHECKS ?? 'on') !== 'off';
  const jobWorkers = (env.JOB_WORKERS ?? 'on') !== 'off';
  if (!jobWorkers && !env.REDIS_URL) throw new ConfigError('JOB_WORKERS=off needs REDIS_URL: without Redis jobs run in the API process');
  const paymentMaxTtlS = int(env, 'PAYMENT_MAX_TTL_S', 30 * 86_400, 60, 365 * 86_400);
  const paymentDefaultTtlS = int(env, 'PAYMENT_DEFAULT_TTL_S', 300, 30, paymentMaxTtlS);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:']);
  return {
    mode,
    port,
    host: env.HOST ?? '0.0.0.0',
    ...(databaseUrl ? { databaseUrl } : {}),
    dataDir: resolve(cwd, env.DATA_DIR ?? 'data'),
    ...(redisUrl ? { redisUrl } : {}),
    payBaseUrl: url(env, 'PAY_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}/pay`,
    logLevel,
    assets,
    logoChecks,
    jobWorkers,
    paymentDefaultTtlS,
    paymentMaxTtlS,
  };
}
