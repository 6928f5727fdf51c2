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

function app(chains: SandboxChains, baseUrl: string): express.Express {
  const server = express();
  const solana = solanaRpcHandler(chains.solana.connection);
  // Solana's handler reads the raw body itself, so it is mounted before any body parser.
  server.post('/solana', (req, res) => solana(req, res));
  const evm: RequestHandler = (req, res, next) => {
    chains.evm.handleJsonRpc(req.body).then((answer) => (answer === undefined ? res.status(204).end() : res.json(answer)), next);
  };
  server.post(['/', '/evm'], express.json({ limit: '1mb' }), rpcParseError, evm);
  server.use(createSandboxRouter(chains, { publicBaseUrl: baseUrl }));
  return server;
}

/** Starts the chains and listens on 127.0.0.1:`port` (0 picks a free one). */
export async function startSandboxChainsServer(opts: { port: number; assetsDir: string }): Promise<SandboxChainsServer> {
  // The same chains, ids included, as the in-process sandbox: the env names the Solana cluster
  // (SOLANA_CHAIN_ID), so nothing here has to pretend to be mainnet.
  const chains = await createSandboxChains();
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
  http.on('request', app(chains, baseUrl));
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
