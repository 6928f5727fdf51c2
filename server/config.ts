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
}

export const CONFIG_KEYS = ['SERVICE_MODE', 'PORT', 'HOST', 'DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'PAY_BASE_URL', 'LOG_LEVEL', 'ASSETS_FILE', 'LOGO_CHECKS'] as const;

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
  };
}
