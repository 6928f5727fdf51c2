// The point of the standalone chains: an API process in production mode, configured only by the
// env file sandbox:chains writes, pays on them. Embedded storage (PGlite in a temp dir), no Redis.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/helpers/free-port.ts';
import { waitFor } from '../../test/helpers/wait-for.ts';
import { createSandboxApi } from '../demo-wallet/sandbox-api.ts';
import { SHORT_RUN_NODE_FLAGS } from '../keys/test-support/run-keys.ts';

const ROOT = resolve(import.meta.dirname, '../..');

const dir = mkdtempSync(join(tmpdir(), 'sandbox-chains-api-'));
const envFile = join(dir, 'chains.env');
const children: ChildProcess[] = [];
let api = '';
let chainsUrl = '';
let env: Record<string, string> = {};
let partnerKey = '';
let walletKey = '';

/** This process's environment without a PostgreSQL or Redis a developer may have set: the API runs embedded. */
function baseEnv(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...rest } = process.env;
  return rest;
}

function start(args: string[], extraEnv: Record<string, string>, log: { text: string }): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...baseEnv(), ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => (log.text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log.text += chunk.toString()));
  children.push(child);
  return child;
}

/** The keys CLI on the API's data directory (run before the API opens it: PGlite is one process's). */
function keys(args: string[]): Record<string, string> {
  const run = spawnSync(process.execPath, [...SHORT_RUN_NODE_FLAGS, 'tools/keys/cli.ts', ...args, '--json'], { cwd: ROOT, env: { ...baseEnv(), ...env }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`keys ${args.join(' ')} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, string>;
}

async function call(method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${api}${path}`, { method, headers: { 'Api-Key': key, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  const chainsLog = { text: '' };
  const chainsPort = await freePort();
  const chains = start(['tools/sandbox-chains/cli.ts', '--', '--port', String(chainsPort), '--env-file', envFile], {}, chainsLog);
  chainsUrl = `http://127.0.0.1:${chainsPort}`;
  await waitFor('the sandbox chains', () => chainsLog.text.includes('sandbox chains ready at') || chains.exitCode !== null, 90_000, 50);
  if (chains.exitCode !== null) throw new Error(`sandbox:chains exited:\n${chainsLog.text}`);
  const lines = readFileSync(envFile, 'utf8').split('\n').filter(Boolean);
  const port = await freePort();
  env = {
    ...Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: join(dir, 'data'),
    LOGO_CHECKS: 'off',
  };
  const partner = keys(['create-partner', '--name', 'Sandbox chains shop']);
  partnerKey = partner.apiKey!;
  walletKey = keys(['create-key', '--partner', partner.partnerId!, '--scope', 'wallet']).apiKey!;
  api = `http://127.0.0.1:${port}`;
  const apiLog = { text: '' };
  const server = start(['server/main.ts'], env, apiLog);
  await waitFor(
    'the production API',
    async () =>
      server.exitCode !== null ||
      (await fetch(`${api}/healthz`).then(
        (r) => r.ok,
        () => false,
      )),
    60_000,
    100,
  );
  if (server.exitCode !== null) throw new Error(`the API exited:\n${apiLog.text}`);
}, 180_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('a production-mode API on the standalone sandbox chains', () => {
  it('is healthy', async () => {
    expect((await fetch(`${api}/healthz`)).status).toBe(200);
  });

  it('offers a sandbox payment on the EVM and on Solana', async () => {
    const assets = (JSON.parse(readFileSync(env.ASSETS_FILE!, 'utf8')) as { id: string }[]).map((a) => a.id);
    const m = await call('POST', '/v1/merchants', partnerKey, { merchantName: 'Chains Shop', merchantEmail: 'shop@chains.test' }, { 'Idempotency-Key': `m-${Math.random()}` });
    expect(m.status).toBe(201);
    const merchantId = m.body.merchant.id as string;
    const evmDestination = Wallet.createRandom().address;
    const solDestination = Keypair.generate().publicKey.toBase58();
    const settlements = assets.map((asset) => ({ asset, destination: `${asset.split('/')[0]}:${asset.startsWith('solana:') ? solDestination : evmDestination}` }));
    // In production a Solana destination is payable once its token account exists: the merchant's wallet holds some already.
    const solAsset = assets.find((asset) => asset.startsWith('solana:'))!;
    await createSandboxApi(chainsUrl).fund(`${solAsset.split('/')[0]}:${solDestination}`, solAsset, 1n);
    const s = await call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, partnerKey, { settlements }, { 'Idempotency-Key': `s-${Math.random()}` });
    expect(s.status).toBe(201);
    const p = await call('POST', '/v1/payments', partnerKey, { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `p-${Math.random()}` }, { 'Merchant-Id': merchantId });
    expect(p.status).toBe(201);
    const evmBuyer = `eip155:31337:${Wallet.createRandom().address}`;
    const solBuyer = `${env.SOLANA_CHAIN_ID!}:${Keypair.generate().publicKey.toBase58()}`;
    const o = await call('POST', `/v1/gateway/payment/${p.body.paymentId as string}/options`, walletKey, { accounts: [evmBuyer, solBuyer] });
    expect(o.status).toBe(200);
    const accounts = new Set((o.body.options as { account: string }[]).map((option) => option.account));
    expect([...accounts].sort()).toEqual([evmBuyer, solBuyer].sort());
  });
});
