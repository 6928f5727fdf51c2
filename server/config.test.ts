import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertWorkerConfig, ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to the sandbox with pages under /pay on the chosen port', () => {
    const c = loadConfig({ PORT: '4100' }, '/srv');
    expect(c.mode).toBe('sandbox');
    expect(c.payBaseUrl).toBe('http://localhost:4100/pay');
    expect(c.dataDir).toBe('/srv/data');
  });

  it('takes PAY_BASE_URL without its trailing slash', () => {
    expect(loadConfig({ PAY_BASE_URL: 'https://pay.example.com/p/' }).payBaseUrl).toBe('https://pay.example.com/p');
  });

  it('refuses pages under /v1/, where the API lives, and other bad values with the key named', () => {
    expect(() => loadConfig({ PAY_BASE_URL: 'https://example.com/v1/pay' })).toThrow(/PAY_BASE_URL/);
    expect(() => loadConfig({ PAY_BASE_URL: 'ftp://example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ SERVICE_MODE: 'staging' })).toThrow(/SERVICE_MODE/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('limits each key to 100 requests/s with a burst of twice that, unless told otherwise; 0 turns it off', () => {
    expect(loadConfig({}).rateLimit).toEqual({ perSecond: 100, burst: 200 });
    expect(loadConfig({ RATE_LIMIT_PER_S: '5' }).rateLimit).toEqual({ perSecond: 5, burst: 10 });
    expect(loadConfig({ RATE_LIMIT_PER_S: '5', RATE_LIMIT_BURST: '1' }).rateLimit).toEqual({ perSecond: 5, burst: 1 });
    expect(loadConfig({ RATE_LIMIT_PER_S: '0' }).rateLimit).toBeNull();
    expect(() => loadConfig({ RATE_LIMIT_PER_S: '-1' })).toThrow(/RATE_LIMIT_PER_S/);
    expect(() => loadConfig({ RATE_LIMIT_BURST: '0' })).toThrow(/RATE_LIMIT_BURST/);
  });

  it('counts requests without a proven key per address: 5/s with a burst of 30 unless told otherwise; 0 turns it off', () => {
    expect(loadConfig({}).unauthenticatedRateLimit).toEqual({ perSecond: 5, burst: 30 });
    expect(loadConfig({ UNAUTHENTICATED_RATE_PER_S: '2', UNAUTHENTICATED_BURST: '4' }).unauthenticatedRateLimit).toEqual({ perSecond: 2, burst: 4 });
    expect(loadConfig({ UNAUTHENTICATED_RATE_PER_S: '0' }).unauthenticatedRateLimit).toBeNull();
    expect(() => loadConfig({ UNAUTHENTICATED_BURST: '0' })).toThrow(/UNAUTHENTICATED_BURST/);
  });

  it('listens on loopback in the sandbox and on every interface in production, unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ SERVICE_MODE: 'production' }).host).toBe('0.0.0.0');
    expect(loadConfig({ SERVICE_MODE: 'production', HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });

  it('bounds shutdown: 10 s for an API process and 30 s for a worker unless told otherwise, named when out of range', () => {
    expect(loadConfig({})).toMatchObject({ shutdownTimeoutS: 10, workerShutdownTimeoutS: 30 });
    expect(loadConfig({ SHUTDOWN_TIMEOUT_S: '3', WORKER_SHUTDOWN_TIMEOUT_S: '120' })).toMatchObject({ shutdownTimeoutS: 3, workerShutdownTimeoutS: 120 });
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_S: '0' })).toThrow(/^SHUTDOWN_TIMEOUT_S must be an integer from 1 to 300, got "0"$/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_S: '2.5' })).toThrow(/^SHUTDOWN_TIMEOUT_S must be an integer/);
    expect(() => loadConfig({ WORKER_SHUTDOWN_TIMEOUT_S: 'soon' })).toThrow(/^WORKER_SHUTDOWN_TIMEOUT_S must be an integer from 1 to 3600/);
  });

  it('locks a queued job for 30 s (BullMQ’s default) unless QUEUE_LOCK_S says otherwise, from 2 s to 10 min', () => {
    expect(loadConfig({}).queueLockS).toBe(30);
    expect(loadConfig({ QUEUE_LOCK_S: '5' }).queueLockS).toBe(5);
    expect(() => loadConfig({ QUEUE_LOCK_S: '1' })).toThrow(/^QUEUE_LOCK_S must be an integer from 2 to 600, got "1"$/);
    expect(() => loadConfig({ QUEUE_LOCK_S: '601' })).toThrow(/^QUEUE_LOCK_S must be an integer from 2 to 600/);
    expect(() => loadConfig({ QUEUE_LOCK_S: '2.5' })).toThrow(/^QUEUE_LOCK_S must be an integer/);
  });

  it('refuses switches other than on and off, naming the variable', () => {
    expect(loadConfig({ JOB_WORKERS: 'off', REDIS_URL: 'redis://127.0.0.1:6379' }).jobWorkers).toBe(false);
    expect(loadConfig({ LOGO_CHECKS: 'off' }).logoChecks).toBe(false);
    expect(() => loadConfig({ LOGO_CHECKS: 'false' })).toThrow(/^LOGO_CHECKS must be on or off, got "false"$/);
    expect(() => loadConfig({ JOB_WORKERS: 'no' })).toThrow(/^JOB_WORKERS must be on or off/);
  });

  it('reads the relayer pool from EVM_RELAYER_KEYS (EVM_RELAYER_KEY a pool of one), and batching from EVM_RELAYER_BATCH_MAX', () => {
    const [a, b] = [`0x${'1'.repeat(64)}`, `0x${'2'.repeat(64)}`];
    expect(loadConfig({ EVM_RELAYER_KEY: a }).evmRelayerKeys).toEqual([a]);
    expect(loadConfig({ EVM_RELAYER_KEYS: ` ${a}, ${b} ` })).toMatchObject({ evmRelayerKeys: [a, b], evmRelayerKey: a });
    expect(loadConfig({ EVM_RELAYER_KEY: a, EVM_RELAYER_KEYS: `${a},${b}` }).evmRelayerKeys).toEqual([a, b]);
    expect(() => loadConfig({ EVM_RELAYER_KEY: b, EVM_RELAYER_KEYS: `${a},${b}` })).toThrow(/EVM_RELAYER_KEY is not the first of EVM_RELAYER_KEYS/);
    expect(() => loadConfig({ EVM_RELAYER_KEYS: `${a},0x12` })).toThrow(/^EVM_RELAYER_KEYS entry 2 must be a 0x-prefixed 32-byte hex private key/);
    expect(() => loadConfig({ EVM_RELAYER_KEYS: `${a},${a.toUpperCase().replace('0X', '0x')}` })).toThrow(/lists a key twice/);
    expect(loadConfig({})).toMatchObject({ evmRelayerKeys: [], evmRelayerBatchMax: 16, evmRelayerBatchWindowMs: 50 });
    expect(loadConfig({ EVM_RELAYER_BATCH_MAX: '1', EVM_RELAYER_BATCH_WINDOW_MS: '0' })).toMatchObject({ evmRelayerBatchMax: 1, evmRelayerBatchWindowMs: 0 });
    expect(() => loadConfig({ EVM_RELAYER_BATCH_MAX: '0' })).toThrow(/^EVM_RELAYER_BATCH_MAX must be an integer from 1 to 64/);
  });

  it('checks EVM_RPC_URLS chain ids and URLs, and PERMIT2_ADDRESS', () => {
    const key = { EVM_RELAYER_KEY: `0x${'1'.repeat(64)}` };
    expect(loadConfig({ ...key, EVM_RPC_URLS: '{"eip155:8453":"https://rpc.example"}' }).evmRpcUrls).toEqual({ 'eip155:8453': 'https://rpc.example' });
    expect(() => loadConfig({ ...key, EVM_RPC_URLS: '{"base":"https://rpc.example"}' })).toThrow(/^EVM_RPC_URLS: "base" must be an eip155 CAIP-2 chain id/);
    expect(() => loadConfig({ ...key, EVM_RPC_URLS: '{"eip155:8453":"rpc.example"}' })).toThrow(/^EVM_RPC_URLS: "eip155:8453" must map to an http/);
    expect(() => loadConfig({ EVM_RPC_URLS: '[1]' })).toThrow(/^EVM_RPC_URLS must be a JSON object of CAIP-2 → URL or \[URLs\]/);
    expect(() => loadConfig({ PERMIT2_ADDRESS: '0x1234' })).toThrow(/^PERMIT2_ADDRESS must be a 0x-prefixed 20-byte hex address/);
  });

  it('replaces a stuck relayer transaction after 45 s, leaves fee caps and minimum balances to each chain unless one is given for all, and calls 0.05 SOL low', () => {
    const d = loadConfig({});
    expect([d.evmReplaceAfterS, d.evmMaxFeeGwei, d.evmRelayerMinBalanceWei, d.solanaFeePayerMinLamports]).toEqual([45, undefined, undefined, 50_000_000n]);
    const c = loadConfig({ EVM_REPLACE_AFTER_S: '120', EVM_MAX_FEE_GWEI: '80', EVM_RELAYER_MIN_BALANCE_WEI: ' 200000000000000000 ', SOLANA_FEE_PAYER_MIN_LAMPORTS: '0' });
    expect([c.evmReplaceAfterS, c.evmMaxFeeGwei, c.evmRelayerMinBalanceWei, c.solanaFeePayerMinLamports]).toEqual([120, 80, 200_000_000_000_000_000n, 0n]);
    expect(() => loadConfig({ EVM_REPLACE_AFTER_S: '1' })).toThrow(/^EVM_REPLACE_AFTER_S must be an integer from 5 to 3600, got "1"/);
    expect(() => loadConfig({ EVM_MAX_FEE_GWEI: '0' })).toThrow(/^EVM_MAX_FEE_GWEI must be an integer from 1/);
    for (const bad of ['0.01', '1e16', '-5', 'lots', '1'.repeat(41)])
      expect(() => loadConfig({ EVM_RELAYER_MIN_BALANCE_WEI: bad })).toThrow(/^EVM_RELAYER_MIN_BALANCE_WEI must be a whole number of base units/);
    expect(() => loadConfig({ SOLANA_FEE_PAYER_MIN_LAMPORTS: '0.05' })).toThrow(/^SOLANA_FEE_PAYER_MIN_LAMPORTS must be a whole number of base units/);
  });

  it('pays Solana on mainnet unless SOLANA_CHAIN_ID names another cluster (or the sandbox) by its CAIP-2 id', () => {
    expect(loadConfig({}).solanaChainId).toBe('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp');
    expect(loadConfig({ SOLANA_CHAIN_ID: '' }).solanaChainId).toBe('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp');
    expect(loadConfig({ SOLANA_CHAIN_ID: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' }).solanaChainId).toBe('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1');
    expect(loadConfig({ SERVICE_MODE: 'production', SOLANA_CHAIN_ID: 'solana:sandbox' }).solanaChainId).toBe('solana:sandbox');
    for (const bad of [
      'solana:devnet',
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa', // 31 characters
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1x', // 33
      'solana:0tWTRABZaYq6iMfeYKouRu166VU2xqa1', // 0 is not base58
      'solana:OtWTRABZaYq6iMfeYKouRu166VU2xqa1', // nor O, I and l
      'eip155:1',
      '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      'solana:sandbox-2',
    ]) {
      expect(() => loadConfig({ SOLANA_CHAIN_ID: bad }), bad).toThrow(new RegExp(`^SOLANA_CHAIN_ID must be solana:<the first 32 base58 characters .*; got "${bad}"$`));
    }
  });

  it('refuses, in production with a Solana RPC, Solana assets on another cluster than SOLANA_CHAIN_ID: they could never be paid', () => {
    const solana = { SERVICE_MODE: 'production', SOLANA_RPC_URL: 'https://solana.example', SOLANA_FEE_PAYER_KEY: JSON.stringify(Array(64).fill(1)) };
    // The default assets file lists mainnet USDC.
    expect(loadConfig(solana).solanaChainId).toBe('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp');
    expect(() => loadConfig({ ...solana, SOLANA_CHAIN_ID: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' })).toThrow(
      /^ASSETS_FILE lists solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp\/token:\w+, not on SOLANA_CHAIN_ID \(solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1\)/,
    );
    // Without a Solana RPC nothing is paid on Solana at all, so the file's Solana entries are not checked.
    expect(loadConfig({ SERVICE_MODE: 'production', SOLANA_CHAIN_ID: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' }).solanaChainId).toBe('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1');
  });
});

describe('ASSETS_FILE contents', () => {
  const dir = mkdtempSync(join(tmpdir(), 'assets-'));
  const usdc = {
    id: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    pegCurrency: 'USD',
    flows: ['eip3009', 'permit2', 'transfer'],
    networkName: 'Base',
  };
  const spl = {
    id: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp/token:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    flows: ['spl'],
    networkName: 'Solana',
  };
  let n = 0;
  /** Loads a config whose ASSETS_FILE holds `content` (JSON unless a string). */
  const load = (content: unknown) => {
    const file = join(dir, `assets-${n++}.json`);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return { file, run: () => loadConfig({ ASSETS_FILE: file }) };
  };
  /** The message for a file holding `content`, with the path replaced by FILE. */
  const problem = (content: unknown) => {
    const { file, run } = load(content);
    try {
      run();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message.replace(file, 'FILE');
    }
    throw new Error('the file was accepted');
  };

  it('reads a valid file, and the production default', () => {
    expect(load([usdc, spl]).run().assets).toEqual([usdc, spl]);
    expect(loadConfig({ SERVICE_MODE: 'production' }).assets.length).toBeGreaterThan(0);
  });

  it('names the variable and the file when it is missing or not JSON', () => {
    expect(() => loadConfig({ ASSETS_FILE: join(dir, 'absent.json') })).toThrow(/^ASSETS_FILE \(.*absent\.json\) could not be read as JSON/);
    expect(problem('[{')).toMatch(/^ASSETS_FILE \(FILE\) could not be read as JSON/);
    expect(problem({ assets: [] })).toBe('ASSETS_FILE (FILE): must hold a JSON array of assets');
  });

  it('names the asset and the rule it breaks', () => {
    expect(problem([usdc, 'USDC'])).toBe('ASSETS_FILE (FILE): asset 2: must be an object');
    expect(problem([usdc, { ...spl, id: 'USDC on Solana' }])).toBe('ASSETS_FILE (FILE): asset 2 (USDC on Solana): id must be a CAIP-19 asset id, e.g. eip155:8453/erc20:0x…');
    expect(problem([{ ...usdc, symbol: '' }])).toMatch(/^ASSETS_FILE \(FILE\): asset 1 \(eip155:8453\/erc20:0x8335.*\): symbol must be a non-empty string/);
    expect(problem([{ ...usdc, name: 7 }])).toMatch(/: asset 1 \(.*\): name must be a non-empty string/);
    expect(problem([usdc, spl, { ...spl, id: spl.id.replace('EPj', 'XPj'), decimals: 37 }])).toMatch(
      /^ASSETS_FILE \(FILE\): asset 3 \(solana:.*\): decimals must be an integer 0\.\.36$/,
    );
    expect(problem([{ ...usdc, decimals: 1.5 }])).toMatch(/: decimals must be an integer 0\.\.36$/);
    expect(problem([{ ...usdc, pegCurrency: 'XYZ' }])).toMatch(/: pegCurrency must be a supported ISO 4217 currency code/);
    expect(problem([{ ...usdc, flows: [] }])).toMatch(/: flows must be a non-empty array of eip3009, permit2, transfer$/);
    expect(problem([{ ...usdc, flows: ['spl'] }])).toMatch(/: flows: "spl" is not a flow on eip155 \(eip3009, permit2, transfer\)$/);
    expect(problem([{ ...usdc, flows: ['permit2', 'permit2'] }])).toMatch(/: flows lists a flow twice$/);
    expect(problem([{ ...usdc, id: 'cosmos:hub/slip44:118' }])).toMatch(/: id is on cosmos, a chain namespace this service does not pay on/);
    expect(problem([{ ...usdc, networkName: '' }])).toMatch(/: networkName must be a non-empty string/);
    expect(problem([{ ...usdc, iconUrl: 'http://icons.example/usdc.png' }])).toMatch(/: iconUrl must be an https:\/\/ URL$/);
    expect(problem([{ ...usdc, color: 'blue' }])).toMatch(/: asset 1 \(.*\): unknown key color \(known: id, symbol/);
  });

  it('refuses the same asset twice, in any letter case of an EVM address', () => {
    expect(problem([usdc, spl, usdc])).toBe(`ASSETS_FILE (FILE): asset 3 (${usdc.id}): the same asset as asset 1`);
    expect(problem([usdc, { ...usdc, id: usdc.id.toLowerCase() }])).toBe(`ASSETS_FILE (FILE): asset 2 (${usdc.id.toLowerCase()}): the same asset as asset 1`);
  });
});

describe('FX_RATES', () => {
  it('reads pairs of supported currencies with positive decimal rates', () => {
    expect(loadConfig({}).fxRates).toEqual({});
    expect(loadConfig({ FX_RATES: '{"EUR/USD":"1.08","GBP/USD":"1.27"}' }).fxRates).toEqual({ 'EUR/USD': '1.08', 'GBP/USD': '1.27' });
  });

  it('names the variable and the pair that breaks a rule', () => {
    const message = (value: string) => {
      try {
        loadConfig({ FX_RATES: value });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(message('{EUR')).toMatch(/^FX_RATES is not valid JSON/);
    expect(message('["EUR/USD"]')).toBe('FX_RATES: must be a JSON object of "FROM/TO": "rate", e.g. {"EUR/USD":"1.08"}');
    expect(message('{"EURUSD":"1.08"}')).toBe('FX_RATES: "EURUSD": a pair must be two ISO 4217 codes as FROM/TO, e.g. "EUR/USD"');
    expect(message('{"eur/usd":"1.08"}')).toMatch(/^FX_RATES: "eur\/usd": a pair must be two ISO 4217 codes/);
    expect(message('{"EUR/XYZ":"1.08"}')).toBe('FX_RATES: "EUR/XYZ": XYZ is not a supported currency');
    expect(message('{"USD/USD":"1"}')).toBe('FX_RATES: "USD/USD": a currency\'s rate to itself is always 1');
    expect(message('{"EUR/USD":1.08}')).toBe('FX_RATES: "EUR/USD": the rate must be a decimal string such as "1.08", got 1.08');
    expect(message('{"EUR/USD":"-1.08"}')).toMatch(/^FX_RATES: "EUR\/USD": the rate must be a decimal string/);
    expect(message('{"EUR/USD":"1e3"}')).toMatch(/^FX_RATES: "EUR\/USD": the rate must be a decimal string/);
    expect(message('{"EUR/USD":"0.000"}')).toBe('FX_RATES: "EUR/USD": the rate must be greater than zero');
  });
});

describe('assertWorkerConfig', () => {
  it('refuses the sandbox and a worker without Redis or PostgreSQL, naming the variables', () => {
    expect(() => assertWorkerConfig(loadConfig({}))).toThrow(/^SERVICE_MODE: the sandbox chains live inside the API process/);
    expect(() => assertWorkerConfig(loadConfig({ SERVICE_MODE: 'production' }))).toThrow(/^REDIS_URL and DATABASE_URL must be set for a worker/);
    expect(() => assertWorkerConfig(loadConfig({ SERVICE_MODE: 'production', DATABASE_URL: 'postgres://db/x' }))).toThrow(/^REDIS_URL must be set for a worker/);
    expect(() => assertWorkerConfig(loadConfig({ SERVICE_MODE: 'production', DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://r:6379' }))).not.toThrow();
  });
});

describe('METRICS_PORT and METRICS_TOKEN', () => {
  it('are absent unless set: no worker metrics server, /metrics open to anyone', () => {
    const c = loadConfig({ METRICS_PORT: '', METRICS_TOKEN: '' });
    expect(c.metricsPort).toBeUndefined();
    expect(c.metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: 'a'.repeat(16) })).toMatchObject({ metricsPort: 9464, metricsToken: 'a'.repeat(16) });
  });

  it('refuse a port out of range or not a number, and a short or header-breaking token, naming the variable', () => {
    for (const port of ['0', '65536', '-1', '94.64', 'ninety', '0x10', ' 9464']) expect(() => loadConfig({ METRICS_PORT: port })).toThrow(/METRICS_PORT/);
    for (const token of ['short', 'a'.repeat(257), `${'a'.repeat(16)} b`, `${'a'.repeat(16)}\r\nX-Injected: 1`, `${'é'.repeat(16)}`])
      expect(() => loadConfig({ METRICS_TOKEN: token })).toThrow(/METRICS_TOKEN/);
  });
});
