// `npm run doctor` as an operator runs it: a child process with the service's environment, against
// the standalone sandbox chains (production mode), PostgreSQL and Redis. Healthy: every line PASS,
// exit 0. Broken (a wrong chain id, Redis down, a database never migrated, ...): the FAIL lines
// name each problem, exit 1; and no run prints a key or a password.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { dropSchema, postgresAvailable, postgresUrl, redisAvailable, redisUrl, uniqueSchema } from '../../test/helpers/services.ts';
import { Wallet } from 'ethers';
import { startRpcFaultProxy } from '../chain-faults/index.ts';
import { startSandboxChainsServer, type SandboxChainsServer } from '../sandbox-chains/server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PASSWORD = 'hunter2-doctor';

/** Runs the doctor with `env` over a clean environment; its output and exit code. */
function doctor(env: Record<string, string>): Promise<{ code: number | null; out: string; lines: string[] }> {
  const { DATABASE_URL: _d, REDIS_URL: _r, ...rest } = process.env;
  const child = spawn(process.execPath, ['tools/doctor/cli.ts', '--timeout-ms', '4000'], { cwd: ROOT, env: { ...rest, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, out, lines: out.trim().split('\n') })));
}

const withSchema = (url: string, schema: string) => `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
/** The test server's URL with a password the doctor must never print (trust auth ignores it). */
const withPassword = (url: string) => url.replace('postgres@', `postgres:${PASSWORD}@`);

if ((await postgresAvailable()) && (await redisAvailable())) {
  describe('npm run doctor', () => {
    let chains: SandboxChainsServer;
    let pay: Server;
    const migrated = uniqueSchema('doctor');
    let healthy: Record<string, string>;
    const secrets = () => [
      PASSWORD,
      healthy.EVM_RELAYER_KEY!,
      healthy.EVM_RELAYER_KEY!.slice(2),
      ...healthy.EVM_RELAYER_KEYS!.split(',').flatMap((k) => [k, k.slice(2)]),
      healthy.SOLANA_FEE_PAYER_KEY!,
      'sekrit-api-key',
      'sekrit-metrics-token',
    ];

    beforeAll(async () => {
      chains = await startSandboxChainsServer({ port: 0, assetsDir: mkdtempSync(join(tmpdir(), 'doctor-')) });
      const storage = await createPostgresStorage({ url: postgresUrl, schema: migrated });
      await storage.close();
      // The buyer pages' stand-in: all the doctor asks is that the base URL answers.
      pay = createServer((_req, res) => res.end('pay'));
      await new Promise<void>((r) => pay.listen(0, '127.0.0.1', r));
      healthy = {
        ...chains.env,
        DATABASE_URL: withSchema(withPassword(postgresUrl), migrated),
        REDIS_URL: redisUrl,
        PAY_BASE_URL: `http://127.0.0.1:${(pay.address() as AddressInfo).port}/pay`,
        // A production setup is healthy with its metrics closed to all but the scraper.
        METRICS_TOKEN: 'sekrit-metrics-token',
        // Batching on (the default; said here so the check stays whatever the default), so the doctor also checks Multicall3.
        EVM_RELAYER_BATCH_MAX: '16',
      };
    }, 120_000);
    afterAll(async () => {
      await chains?.close();
      await new Promise<void>((r) => (pay ? pay.close(() => r()) : r()));
      await dropSchema(migrated);
    });

    it('a healthy setup: every check PASS, exit 0', async () => {
      const run = await doctor(healthy);
      console.info(`doctor, healthy:\n${run.out}`);
      expect(run.code, run.out).toBe(0);
      const names = run.lines.slice(0, -1).map((l) => l.slice(6).split('  ')[0]!.trim());
      expect(names).toEqual([
        'configuration',
        'database',
        'redis',
        `rpc ${chains.chains.evm.caip2}`,
        `rpc ${chains.chains.solana.caip2}`,
        // The sandbox chains' relayer pool (EVM_RELAYER_KEYS): one line per key.
        ...chains.chains.evm.relayerPool.map(() => `relayer ${chains.chains.evm.caip2}`),
        `fee-payer ${chains.chains.solana.caip2}`,
        `fees ${chains.chains.evm.caip2}`,
        `fees ${chains.chains.solana.caip2}`,
        'fee spending',
        `token USDC ${chains.chains.evm.caip2}`,
        `token USDT ${chains.chains.evm.caip2}`,
        `token DTUSD ${chains.chains.evm.caip2}`,
        `permit2 ${chains.chains.evm.caip2}`,
        // The sandbox deploys the Permit2 spender contract through the deterministic deployment proxy at start.
        `permit2 spender ${chains.chains.evm.caip2}`,
        `multicall3 ${chains.chains.evm.caip2}`,
        `head ${new URL(chains.baseUrl).origin} ${chains.chains.evm.caip2}`,
        `token USDC ${chains.chains.solana.caip2}`,
        `head ${new URL(chains.baseUrl).origin} ${chains.chains.solana.caip2}`,
        'assets',
        'pay base URL',
        'metrics',
      ]);
      expect(run.lines.slice(0, -1).every((l) => l.startsWith('PASS  '))).toBe(true);
      expect(run.out).toMatch(/all \d+ migrations applied/);
      expect(run.out).toMatch(/fees eip155:31337 +max fee 500 gwei, min tip 0 gwei, .*each partner \d+ wei per 86400 s/);
      expect(run.out).toMatch(/fees solana:sandbox +priority fee at the 75th percentile of recent fees, 1000–1000000 micro-lamports per compute unit;/);
      expect(run.out).toMatch(/token USDC eip155:31337 +decimals\(\) 6 as configured, EIP-712 domain matches its DOMAIN_SEPARATOR\(\)/);
      expect(run.lines.at(-1)).toBe('doctor: 25 passed, 0 warnings, 0 failed');
      for (const secret of secrets()) expect(run.out).not.toContain(secret);
    }, 60_000);

    it('a wrong RPC chain id, Redis unreachable, a database never migrated: each named FAIL, exit 1', async () => {
      const run = await doctor({
        ...healthy,
        // The sandbox's node (chain 31337) configured as Base.
        EVM_RPC_URLS: JSON.stringify({ 'eip155:8453': `${chains.baseUrl}/evm` }),
        REDIS_URL: 'redis://127.0.0.1:1',
        DATABASE_URL: withSchema(withPassword(postgresUrl), uniqueSchema('never_migrated')),
      });
      console.info(`doctor, broken:\n${run.out}`);
      expect(run.code, run.out).toBe(1);
      const fail = (name: string) => run.lines.find((l) => l.startsWith('FAIL  ') && l.slice(6).startsWith(`${name} `));
      expect(fail('rpc eip155:8453')).toMatch(/serves eip155:31337, not eip155:8453/);
      expect(fail('redis')).toMatch(/redis:\/\/127\.0\.0\.1:1 not reachable/);
      expect(fail('database')).toMatch(/migrations not applied/);
      // The sandbox's EVM tokens are on 31337, which no configured node serves now.
      expect(fail('assets')).toMatch(/3 on eip155:31337 \(.*\), which no configured RPC serves/);
      expect(run.lines.find((l) => l.slice(6).startsWith('rpc solana:sandbox'))).toMatch(/^PASS/);
      for (const secret of secrets()) expect(run.out).not.toContain(secret);
    }, 60_000);

    it('a node, database and pay URL nothing answers: FAIL without the URL path (an RPC key) or password', async () => {
      const run = await doctor({
        ...healthy,
        EVM_RPC_URLS: JSON.stringify({ 'eip155:31337': 'http://127.0.0.1:1/v2/sekrit-api-key' }),
        DATABASE_URL: withPassword(postgresUrl).replace(/:\d+\//, ':1/'),
        PAY_BASE_URL: 'http://127.0.0.1:1/pay',
        EVM_RELAYER_MIN_BALANCE_WEI: '1',
      });
      expect(run.code, run.out).toBe(1);
      const line = (name: string) => run.lines.find((l) => l.slice(6).startsWith(`${name} `)) ?? '';
      expect(line('rpc eip155:31337')).toMatch(/^FAIL .*rpc unreachable/);
      expect(line('relayer eip155:31337')).toMatch(/^FAIL .*could not be read/);
      expect(line('database')).toMatch(/^FAIL .*127\.0\.0\.1:1\/test not reachable/);
      expect(line('pay base URL')).toMatch(/^FAIL .*did not answer/);
      for (const secret of secrets()) expect(run.out).not.toContain(secret);
    }, 60_000);

    it('self-checks: a wrong domain version, wrong decimals, a Permit2 address without code, an endpoint lagging behind the other: each FAIL, exit 1', async () => {
      const evm = chains.chains.evm;
      const assetsFile = join(mkdtempSync(join(tmpdir(), 'doctor-assets-')), 'assets.json');
      const wrong = JSON.parse(readFileSync(healthy.ASSETS_FILE!, 'utf8')) as Array<{ symbol: string; decimals: number; eip712?: unknown }>;
      for (const a of wrong) {
        if (a.symbol === 'USDC' && a.decimals === 6 && JSON.stringify(a).includes('eip155')) a.eip712 = { name: 'USD Coin', version: '1' };
        if (a.symbol === 'USDT') a.decimals = 18;
      }
      writeFileSync(assetsFile, JSON.stringify(wrong));
      // Two nodes of the one chain; the second answers 5 blocks behind (the sandbox allows 2).
      const proxy = await startRpcFaultProxy({ evmUpstream: `${chains.baseUrl}/evm`, nodes: 2 });
      try {
        proxy.set('evm:1', { kind: 'lag', by: 5 });
        const run = await doctor({
          ...healthy,
          ASSETS_FILE: assetsFile,
          EVM_RPC_URLS: JSON.stringify({ [evm.caip2]: proxy.evmUrls }),
          PERMIT2_ADDRESS: Wallet.createRandom().address,
        });
        console.info(`doctor, self-checks failing:\n${run.out}`);
        expect(run.code, run.out).toBe(1);
        const line = (name: string) => run.lines.find((l) => l.slice(6).startsWith(`${name} `)) ?? '';
        expect(line(`token USDC ${evm.caip2}`)).toMatch(/^FAIL .*DOMAIN_SEPARATOR\(\) is not the EIP-712 domain \{name "USD Coin", version "1", chainId 31337/);
        expect(line(`token USDT ${evm.caip2}`)).toMatch(/^FAIL .*decimals\(\) is 6, configured 18/);
        expect(line(`permit2 ${evm.caip2}`)).toMatch(/^FAIL .*no contract at PERMIT2_ADDRESS/);
        const origin = new URL(proxy.evmUrls[0]!).origin;
        expect(line(`head ${origin} #1 ${evm.caip2}`)).toMatch(/^PASS /);
        expect(line(`head ${origin} #2 ${evm.caip2}`)).toMatch(/^FAIL .*5 blocks behind another endpoint of the chain \(bound 2\)/);
        expect(line(`token DTUSD ${evm.caip2}`)).toMatch(/^PASS /);
      } finally {
        await proxy.close();
      }
    }, 60_000);

    it('prints the Solana priority-fee policy SOLANA_PRIORITY_FEES sets', async () => {
      const run = await doctor({ ...healthy, SOLANA_PRIORITY_FEES: JSON.stringify({ 'solana:sandbox': { percentile: 90, maxMicroLamports: 50_000 } }) });
      expect(run.lines.find((l) => l.slice(6).startsWith('fees solana:sandbox '))).toMatch(/^PASS .*90th percentile of recent fees, 1000–50000 micro-lamports per compute unit/);
    }, 60_000);

    it('a fee account below its minimum, and a configuration the service would refuse', async () => {
      const low = await doctor({ ...healthy, SOLANA_FEE_PAYER_MIN_LAMPORTS: String(10n ** 15n) });
      expect(low.code).toBe(1);
      expect(low.lines.find((l) => l.includes('fee-payer solana:sandbox'))).toMatch(/^FAIL .*below its minimum/);
      const refused = await doctor({ ...healthy, EVM_RELAYER_KEY: 'not-a-key' });
      expect(refused.code).toBe(1);
      expect(refused.lines[0]).toMatch(/^FAIL {2}configuration {2}EVM_RELAYER_KEY must be/);
      expect(refused.out).not.toContain('not-a-key');
    }, 60_000);
  });
}
