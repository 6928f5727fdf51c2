// Standalone sandbox chains shared by the test files of one test worker: the first file in a
// worker starts them (a child process, dev methods on), the next files of that worker find them
// again, so a suite on the JSON-RPC transport pays the start once per worker, not per file. Vitest
// runs one file at a time per worker (VITEST_POOL_ID), so files never share them concurrently; a
// file still resets what it changes (automine, interval mining). They stop when the test runner does.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface StandaloneChains {
  /** `http://127.0.0.1:<port>`: also serves GET /sandbox, the faucet and balances. */
  baseUrl: string;
  evmUrl: string;
  solanaUrl: string;
  /** The production environment pointing at them (EVM_RELAYER_KEY, PERMIT2_ADDRESS, SOLANA_FEE_PAYER_KEY, ...). */
  env: Record<string, string>;
}

const CHILD = resolve(import.meta.dirname, 'shared-chains-child.ts');
const START_BOUND_MS = 120_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function answers(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/evm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(5000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

function describe(baseUrl: string, env: Record<string, string>): StandaloneChains {
  return { baseUrl, evmUrl: `${baseUrl}/evm`, solanaUrl: `${baseUrl}/solana`, env };
}

let mine: Promise<StandaloneChains> | undefined;

/** The chains of this test worker (started on first use). Outside vitest, of this process. */
export function sharedSandboxChains(): Promise<StandaloneChains> {
  mine ??= start();
  return mine;
}

async function start(): Promise<StandaloneChains> {
  const underVitest = process.env.VITEST_POOL_ID !== undefined;
  // The runner outlives its workers; the chains outlive a file but not the run.
  const owner = underVitest ? process.ppid : process.pid;
  const dir = join(tmpdir(), `sandbox-chains-shared-${owner}-${process.env.VITEST_POOL_ID ?? 'solo'}`);
  const info = join(dir, 'chains.json');
  if (existsSync(info)) {
    const found = JSON.parse(readFileSync(info, 'utf8')) as { pid: number; baseUrl: string; env: Record<string, string> };
    if (alive(found.pid) && (await answers(found.baseUrl))) return describe(found.baseUrl, found.env);
    rmSync(info);
  }
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'chains.log');
  const out = openSync(log, 'a');
  const child = spawn(process.execPath, [CHILD, dir, String(owner)], { detached: true, stdio: ['ignore', out, out] });
  closeSync(out);
  child.unref();
  const deadline = Date.now() + START_BOUND_MS;
  while (!existsSync(info)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the shared sandbox chains did not start (${child.exitCode === null ? 'timed out' : `exit ${child.exitCode}`}):\n${readFileSync(log, 'utf8').slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const found = JSON.parse(readFileSync(info, 'utf8')) as { baseUrl: string; env: Record<string, string> };
  return describe(found.baseUrl, found.env);
}
