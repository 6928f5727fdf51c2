/**
 * Standalone sandbox chains: the sandbox EVM (EDR, the same contracts at the same addresses) and
 * the sandbox Solana (LiteSVM) in one process, so production-mode API and worker processes can
 * pay on them through their real RPC clients.
 *
 *   npm run sandbox:chains -- [--port <n>] [--env-file <path>] [--block-time <ms>] [--dev-methods]
 *
 * One HTTP server on 127.0.0.1:<port> (SANDBOX_PORT, default 8545): EVM JSON-RPC on POST / and
 * POST /evm, Solana JSON-RPC on POST /solana, and the in-process sandbox's GET /sandbox,
 * POST /sandbox/faucet and GET /sandbox/balance. Prints the production environment pointing at
 * it; --env-file also writes it as KEY=VALUE lines (and the assets file beside it).
 *
 * --block-time <ms>: interval mining, automine off (transactions wait in the mempool for the next
 * block, as on a real chain), and a Solana slot with a new blockhash every <ms>, commitment by depth.
 * --dev-methods: serve `evm_snapshot`, `evm_revert`, `evm_mine`, `evm_setAutomine`,
 * `evm_setIntervalMining`, `hardhat_setNextBlockBaseFeePerGas` (every `evm_*`/`hardhat_*`) and
 * Solana's `sandbox_expireBlockhash`, `sandbox_advanceBlocks` on the JSON-RPC endpoints, so a fault
 * (a reorg, a base-fee spike, an expired blockhash) can be reproduced by hand. Off by default.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { envLines } from './production-env.ts';
import { startSandboxChainsServer } from './server.ts';

const USAGE = 'usage: npm run sandbox:chains -- [--port <n>] [--env-file <path>] [--block-time <ms>] [--dev-methods]   (port also from SANDBOX_PORT, default 8545)';

function readPort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8545;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`port must be an integer 0..65535, got "${raw}"`);
  return port;
}

/** Milliseconds between blocks: a positive integer, at most a minute (longer stalls every payment's quote). */
function readBlockTime(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = Number(raw);
  if (!/^\d+$/.test(raw) || ms < 1 || ms > 60_000) throw new Error(`--block-time must be an integer of milliseconds 1..60000, got "${raw}"`);
  return ms;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'env-file': { type: 'string' },
      'block-time': { type: 'string' },
      'dev-methods': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = readPort(values.port ?? process.env.SANDBOX_PORT);
  const envFile = values['env-file'] ? resolve(values['env-file']) : undefined;
  const blockTimeMs = readBlockTime(values['block-time']);
  const devMethods = values['dev-methods'] === true;

  const server = await startSandboxChainsServer({
    port,
    assetsDir: envFile ? dirname(envFile) : mkdtempSync(join(tmpdir(), 'sandbox-chains-')),
    ...(blockTimeMs === undefined ? {} : { blockTimeMs }),
    devMethods,
  });
  const { chains, baseUrl } = server;
  console.log(`EVM chain ${chains.evm.caip2} ready at ${baseUrl}/evm (also ${baseUrl}/)`);
  console.log(`Solana chain ${chains.solana.caip2} ready at ${baseUrl}/solana`);
  console.log(blockTimeMs === undefined ? 'Blocks: one per transaction (automine)' : `Blocks: one every ${blockTimeMs} ms (interval mining, automine off; a Solana slot too)`);
  if (devMethods) console.log('Dev methods ON: evm_*, hardhat_* and sandbox_* are served on the JSON-RPC endpoints (never expose this port)');
  console.log(`Sandbox faucet and balances at ${baseUrl}/sandbox`);

  const env = envLines(server.env);
  if (envFile) {
    writeFileSync(envFile, `${env}\n`);
    console.log(`Production environment written to ${envFile}:`);
  } else {
    console.log('Production environment:');
  }
  console.log(env);
  console.log(`sandbox chains ready at ${baseUrl}`);

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

// Node reads `--env-file <path>` as its own flag even after the script name (and fails when the
// file does not exist yet), unless a `--` comes first; the npm script passes one, dropped here.
const args = process.argv.slice(2);
main(args[0] === '--' ? args.slice(1) : args).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  console.error(USAGE);
  process.exit(1);
});
