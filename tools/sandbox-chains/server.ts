// The standalone sandbox chains as a function, so the CLI, tests and the fault suite start the
// same server: one loopback HTTP server serving both chains' JSON-RPC and the sandbox routes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { solanaRpcHandler } from '../../adapters/sandbox/solana/index.ts';
import { createSandboxChains, createSandboxRouter, type SandboxChains } from '../../server/composition/sandbox/index.ts';
import { productionEnv, writeAssetsFile } from './production-env.ts';

export interface SandboxChainsServer {
  chains: SandboxChains;
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** The production environment pointing at this server (ASSETS_FILE written in `assetsDir`). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** JSON-RPC clients expect a JSON-RPC parse error for a malformed body, not an HTML page. */
const rpcParseError: ErrorRequestHandler = (err: unknown, _req, res, next) => {
  if ((err as { type?: string }).type !== 'entity.parse.failed') return next(err);
  res.status(200).json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
};

function app(chains: SandboxChains, baseUrl: string, devMethods: boolean): express.Express {
  const server = express();
  const solana = solanaRpcHandler(chains.solana.connection, devMethods ? { dev: chains.solana } : {});
  // Solana's handler reads the raw body itself, so it is mounted before any body parser.
  server.post('/solana', (req, res) => solana(req, res));
  const evm: RequestHandler = (req, res, next) => {
    chains.evm.handleJsonRpc(req.body, { allowDevMethods: devMethods }).then((answer) => (answer === undefined ? res.status(204).end() : res.json(answer)), next);
  };
  server.post(['/', '/evm'], express.json({ limit: '1mb' }), rpcParseError, evm);
  server.use(createSandboxRouter(chains, { publicBaseUrl: baseUrl }));
  return server;
}

export interface SandboxChainsServerOptions {
  /** 0 picks a free one. */
  port: number;
  /** Where ASSETS_FILE is written. */
  assetsDir: string;
  /** A block (EVM, automine off) and a slot (Solana) every this many ms; default: a block per transaction. */
  blockTimeMs?: number;
  /**
   * Serve the dev methods (EVM `evm_*`, `hardhat_*`; Solana `sandbox_*`) on the JSON-RPC endpoints,
   * so tests and the chain fault suite can reorg, mine, stall and expire. Off by default: anyone on
   * the endpoint could mint, rewrite history or stall every payment.
   */
  devMethods?: boolean;
}

/** Starts the chains and listens on 127.0.0.1:`port`. */
export async function startSandboxChainsServer(opts: SandboxChainsServerOptions): Promise<SandboxChainsServer> {
  // The same chains, ids included, as the in-process sandbox: the env names the Solana cluster
  // (SOLANA_CHAIN_ID), so nothing here has to pretend to be mainnet.
  const blockTime = opts.blockTimeMs === undefined ? {} : { blockTimeMs: opts.blockTimeMs };
  const chains = await createSandboxChains({ evm: blockTime, solana: blockTime });
  const http: Server = createServer();
  try {
    await new Promise<void>((ready, fail) => {
      http.once('error', fail);
      http.listen(opts.port, '127.0.0.1', ready);
    });
  } catch (err) {
    await chains.close();
    throw err;
  }
  const baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  http.on('request', app(chains, baseUrl, opts.devMethods === true));
  const env = productionEnv(chains, baseUrl, writeAssetsFile(chains, opts.assetsDir));
  return {
    chains,
    baseUrl,
    env,
    close: async () => {
      http.closeAllConnections();
      await Promise.all([new Promise<void>((done) => http.close(() => done())), chains.close()]);
    },
  };
}
