// The standalone sandbox chains as a user runs them: a child process on a free port writing its
// production environment to a file, reached only over HTTP, stopped with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { freePort } from '../../test/helpers/free-port.ts';
import { waitFor } from '../../test/helpers/wait-for.ts';

const CLI = resolve(import.meta.dirname, 'cli.ts');

const dir = mkdtempSync(join(tmpdir(), 'sandbox-chains-test-'));
const envFile = join(dir, 'chains.env');
let child: ChildProcess;
let output = '';
let base = '';

async function rpc(path: string, method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: unknown }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }) });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { id: unknown; result?: unknown; error?: unknown };
  expect(body.id).toBe(7);
  return body;
}

function readEnvFile(): Record<string, string> {
  const lines = readFileSync(envFile, 'utf8').split('\n').filter(Boolean);
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [CLI, '--', '--port', String(port), '--env-file', envFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor('the sandbox chains to be ready', () => output.includes(`sandbox chains ready at ${base}`) || child.exitCode !== null, 90_000, 50);
  if (child.exitCode !== null) throw new Error(`sandbox:chains exited ${child.exitCode}:\n${output}`);
}, 120_000);

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('npm run sandbox:chains', () => {
  it('prints a progress line per chain', () => {
    expect(output).toContain(`EVM chain eip155:31337 ready at ${base}/evm`);
    expect(output).toMatch(new RegExp(`Solana chain solana:\\S+ ready at ${base}/solana`));
  });

  it('serves EVM JSON-RPC on / and on /evm', async () => {
    expect((await rpc('/', 'eth_chainId')).result).toBe('0x7a69');
    expect((await rpc('/evm', 'eth_chainId')).result).toBe('0x7a69');
    expect((await rpc('/evm', 'eth_blockNumber')).result).toMatch(/^0x[0-9a-f]+$/);
    // The HTTP endpoint refuses dev methods, as the in-process one does: minting goes through the faucet.
    expect((await rpc('/evm', 'hardhat_setBalance', ['0x1111111111111111111111111111111111111111', '0x1'])).error).toMatchObject({ code: -32601 });
  });

  it('serves Solana JSON-RPC on /solana', async () => {
    const { result } = (await rpc('/solana', 'getLatestBlockhash')) as { result: { value: { blockhash: string; lastValidBlockHeight: number } } };
    expect(result.value.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(result.value.lastValidBlockHeight).toBeGreaterThan(0);
    expect(typeof (await rpc('/solana', 'getSlot')).result).toBe('number');
    // Without --dev-methods the sandbox's own controls are refused too.
    expect((await rpc('/solana', 'sandbox_expireBlockhash')).error).toMatchObject({ code: -32601 });
  });

  it('serves GET /sandbox, the faucet and balances as the in-process sandbox does', async () => {
    const described = (await (await fetch(`${base}/sandbox`)).json()) as { chains: { caip2: string; rpcUrl: string | null }[]; assets: { caip19: string; chain: string }[] };
    expect(described.chains.map((c) => c.caip2)).toEqual(['eip155:31337', expect.stringMatching(/^solana:/)]);
    expect(described.chains[0]!.rpcUrl).toBe(`${base}/sandbox/rpc/eip155:31337`);
    for (const chain of described.chains) {
      const asset = described.assets.find((a) => a.chain === chain.caip2)!.caip19;
      const account = chain.caip2.startsWith('eip155')
        ? `${chain.caip2}:0x2222222222222222222222222222222222222222`
        : `${chain.caip2}:9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM`;
      const faucet = await fetch(`${base}/sandbox/faucet`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account, asset, value: '2500000' }),
      });
      expect(faucet.status).toBe(200);
      const balance = await fetch(`${base}/sandbox/balance?${new URLSearchParams({ account, asset })}`);
      expect(await balance.json()).toEqual({ account, asset, value: '2500000' });
    }
  });

  it('writes an env file that loadConfig accepts as production configuration on these chains', async () => {
    const env = readEnvFile();
    const described = (await (await fetch(`${base}/sandbox`)).json()) as { chains: { caip2: string }[]; assets: { caip19: string }[] };
    const config = loadConfig(env, dir);
    expect(config.mode).toBe('production');
    expect(config.evmRpcUrls).toEqual({ 'eip155:31337': `${base}/evm` });
    expect(config.evmRelayerKey).toMatch(/^0x[0-9a-f]{64}$/);
    expect(config.evmConfirmations).toBe(1);
    expect(config.solanaRpcUrl).toBe(`${base}/solana`);
    expect(config.solanaFeePayerKey).toBeDefined();
    expect(config.assets.map((a) => a.id)).toEqual(described.assets.map((a) => a.caip19));
    // The env names the sandbox Solana's own id (not mainnet's), the one its assets carry.
    expect(described.chains[1]!.caip2).toBe('solana:sandbox');
    expect(config.solanaChainId).toBe(described.chains[1]!.caip2);
    // The relayer the env names holds native coin to pay gas with.
    const relayerBalance = await rpc('/evm', 'eth_getBalance', [new (await import('ethers')).Wallet(config.evmRelayerKey!).address, 'latest']);
    expect(BigInt(relayerBalance.result as string)).toBeGreaterThan(0n);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
