// The chains an end-to-end suite pays on, reached by one of the two transports: the in-process
// sandbox objects, or the standalone chains server over JSON-RPC (the production path).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@solana/web3.js';
import { JsonRpcProvider, type Provider } from 'ethers';
import type { SolanaRpc } from '../../adapters/chains/solana/rpc.ts';
import { createSandboxChains, type SandboxChains } from '../../server/composition/sandbox/index.ts';
import { startSandboxChainsServer, type SandboxChainsServer } from '../../tools/sandbox-chains/server.ts';
import { startGatewayEnv, type GatewayEnv, type GatewayEnvOptions, type Transport } from './gateway-env.ts';

export interface E2eWorld {
  transport: Transport;
  /** The running chains, reached directly: funding, balances, expiring a blockhash. */
  chains: SandboxChains;
  /** The service on these chains, its adapters wired for this transport. */
  start(opts?: Omit<GatewayEnvOptions, 'chains' | 'rpc'>): Promise<GatewayEnv>;
  /** What a buyer's wallet broadcasts and waits through: the in-process provider, or JSON-RPC over HTTP. */
  evmProvider: Provider;
  /** Likewise for anyone sending a Solana transaction (e.g. replaying one). */
  solanaConnection: SolanaRpc;
  close(): Promise<void>;
}

/** One world per test file: the chains (and, for `rpc`, their server) are started once and shared. */
export async function openE2eWorld(transport: Transport): Promise<E2eWorld> {
  if (transport === 'sandbox') {
    const chains = await createSandboxChains();
    return {
      transport,
      chains,
      start: (opts = {}) => startGatewayEnv({ ...opts, chains }),
      evmProvider: chains.evm.ethersProvider,
      solanaConnection: chains.solana.connection,
      close: () => chains.close(),
    };
  }
  const assetsDir = mkdtempSync(join(tmpdir(), 'e2e-rpc-'));
  let server: SandboxChainsServer;
  try {
    server = await startSandboxChainsServer({ port: 0, assetsDir });
  } catch (err) {
    rmSync(assetsDir, { recursive: true, force: true });
    throw err;
  }
  const [evmUrl] = Object.values(JSON.parse(server.env.EVM_RPC_URLS!) as Record<string, string>);
  // A wallet's own provider: polled often, so waiting for a receipt takes no seconds, and uncached, or a
  // second transaction sent within ethers' 250 ms cache would reuse the first one's nonce.
  const evmProvider = new JsonRpcProvider(evmUrl, Number(server.chains.evm.caip2.split(':')[1]), { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  return {
    transport,
    chains: server.chains,
    start: (opts = {}) => startGatewayEnv({ ...opts, rpc: server }),
    evmProvider,
    solanaConnection: new Connection(server.env.SOLANA_RPC_URL!, 'confirmed'),
    async close() {
      evmProvider.destroy();
      await server.close();
      rmSync(assetsDir, { recursive: true, force: true });
    },
  };
}
