// `npm run sandbox:chains -- --block-time <ms> --dev-methods`, as a user runs it: blocks and
// slots come on a clock (a transaction waits in the mempool for the next block), and the dev
// methods a fault needs are served; a bad block time stops the start naming the flag.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/helpers/free-port.ts';
import { waitFor } from '../../test/helpers/wait-for.ts';

const CLI = resolve(import.meta.dirname, 'cli.ts');
const BLOCK_MS = 400;

let child: ChildProcess;
let output = '';
let base = '';

async function rpc(path: string, method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
}
const head = async () => Number((await rpc('/evm', 'eth_blockNumber')).result);

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [CLI, '--', '--port', String(port), '--block-time', String(BLOCK_MS), '--dev-methods'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor('the sandbox chains to be ready', () => output.includes(`sandbox chains ready at ${base}`) || child.exitCode !== null, 90_000, 50);
  if (child.exitCode !== null) throw new Error(`sandbox:chains exited ${child.exitCode}:\n${output}`);
}, 120_000);

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('npm run sandbox:chains -- --block-time --dev-methods', () => {
  it('says how it mines and that dev methods are on', () => {
    expect(output).toContain(`Blocks: one every ${BLOCK_MS} ms (interval mining, automine off; a Solana slot too)`);
    expect(output).toContain('Dev methods ON');
  });

  it('mines on its clock: empty blocks come, and a sent transaction waits for the next one', async () => {
    const start = await head();
    await waitFor('two blocks on the clock', async () => (await head()) >= start + 2, 20_000, 50);
    const relayer = new Wallet(output.match(/EVM_RELAYER_KEY=(0x[0-9a-f]{64})/)![1]!);
    const nonce = Number((await rpc('/evm', 'eth_getTransactionCount', [relayer.address, 'pending'])).result);
    const raw = await relayer.signTransaction({
      to: relayer.address,
      value: 1n,
      nonce,
      gasLimit: 21_000n,
      maxFeePerGas: 10n ** 11n,
      maxPriorityFeePerGas: 10n ** 9n,
      chainId: 31337,
    });
    const hash = (await rpc('/evm', 'eth_sendRawTransaction', [raw])).result as string;
    const sentAt = await head();
    // Pending first (unless a block came in between), then mined within a few block times.
    const first = (await rpc('/evm', 'eth_getTransactionReceipt', [hash])).result as { blockNumber: string } | null;
    if (first) expect(Number(first.blockNumber)).toBeGreaterThan(sentAt - 1);
    await waitFor('the transaction to be mined', async () => (await rpc('/evm', 'eth_getTransactionReceipt', [hash])).result !== null, 20_000, 50);
  });

  it('serves the EVM dev methods a fault needs', async () => {
    expect((await rpc('/evm', 'evm_snapshot')).result).toMatch(/^0x/);
    expect((await rpc('/evm', 'hardhat_setNextBlockBaseFeePerGas', ['0x174876e800'])).result).toBe(true);
    expect((await rpc('/evm', 'evm_mine')).error).toBeUndefined();
    const block = (await rpc('/evm', 'eth_getBlockByNumber', ['latest', false])).result as { baseFeePerGas: string };
    expect(BigInt(block.baseFeePerGas)).toBeLessThanOrEqual(100_000_000_000n);
    expect((await rpc('/evm', 'evm_setAutomine', [false])).result).toBe(true);
  });

  it('moves Solana slots on the clock and serves its dev methods', async () => {
    const slot = (await rpc('/solana', 'getSlot', [{ commitment: 'processed' }])).result as number;
    await waitFor('Solana slots on the clock', async () => ((await rpc('/solana', 'getSlot', [{ commitment: 'processed' }])).result as number) >= slot + 2, 20_000, 50);
    const before = (await rpc('/solana', 'getLatestBlockhash', [{ commitment: 'processed' }])).result as { value: { lastValidBlockHeight: number } };
    expect((await rpc('/solana', 'sandbox_expireBlockhash')).error).toBeUndefined();
    expect((await rpc('/solana', 'getBlockHeight', [{ commitment: 'processed' }])).result).toBeGreaterThan(before.value.lastValidBlockHeight);
    expect((await rpc('/solana', 'sandbox_advanceBlocks', [0])).error).toMatchObject({ code: -32602 });
  });

  it('refuses a block time that is not a positive integer of ms, naming the flag', () => {
    const run = spawnSync(process.execPath, [CLI, '--', '--port', '0', '--block-time', '1.5s'], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('--block-time must be an integer of milliseconds');
  });
});
