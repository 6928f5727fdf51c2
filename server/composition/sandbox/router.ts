// The sandbox's HTTP surface (sandbox mode only, no key): what chains and assets exist, a faucet,
// balances, and the EVM JSON-RPC endpoint on which wallets broadcast their own transactions.
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { AppError, validationError, type ValidationIssue } from '../../errors.ts';
import { errorHandler } from '../../http/error-handler.ts';
import type { SandboxChains } from './chains.ts';
import { readHolding, readValue, type Holding } from './inputs.ts';
import { createSandboxLedger } from './ledger.ts';

export interface SandboxRouterOptions {
  /** Where clients reach this service, e.g. `http://localhost:3000`; prefixes the listed RPC URL. */
  publicBaseUrl: string;
}

// The same parser settings as the app's, applied per route: mounted at the root, a router-wide
// parser would parse every other endpoint's body too.
const json = express.json({ limit: '1mb', type: ['application/json', 'application/*+json'] });

/** JSON-RPC clients expect a JSON-RPC parse error, not the service's error body. */
const rpcJson: RequestHandler = (req, res, next) => {
  json(req, res, (err?: unknown) => {
    if ((err as { type?: string } | undefined)?.type === 'entity.parse.failed') {
      res.status(200).json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    next(err);
  });
};

const accountOf = (chains: SandboxChains, h: Holding): string => `${chains[h.chain].caip2}:${h.address}`;

/** Wraps an async handler so a rejection reaches the error handler (Express 5 does too; explicit is clearer). */
const handle =
  (fn: (req: Request, res: Response) => Promise<void> | void): RequestHandler =>
  (req, res, next) => {
    Promise.resolve()
      .then(() => fn(req, res))
      .catch(next);
  };

function describe(chains: SandboxChains, rpcUrl: string): unknown {
  const { evm, solana } = chains;
  return {
    chains: [
      { caip2: evm.caip2, namespace: 'eip155', name: chains.names.evm, rpcUrl, nativeCoin: chains.native.evm, permit2Address: evm.permit2Address },
      { caip2: solana.caip2, namespace: 'solana', name: chains.names.solana, rpcUrl: null, nativeCoin: chains.native.solana },
    ],
    assets: [
      ...evm.assets.map((a) => ({ caip19: a.caip19, chain: evm.caip2, symbol: a.symbol, name: a.name, decimals: a.decimals, flows: a.flows })),
      ...solana.assets.map((a) => ({ caip19: a.caip19, chain: solana.caip2, symbol: a.symbol, name: a.name, decimals: a.decimals, flows: a.flows })),
    ],
  };
}

/**
 * The sandbox endpoints: `GET /sandbox`, `POST /sandbox/faucet`, `GET /sandbox/balance` and
 * `POST /sandbox/rpc/<evm caip2>`. Mount it only in sandbox mode, before the API's route matching.
 *
 * Why it validates by hand: these endpoints are not in the API contract (they must not exist in
 * production), so the OpenAPI validator never sees them; every client mistake still answers 400
 * `params_validation` with issues, and nothing here can answer a stack trace. Dev JSON-RPC methods
 * (`hardhat_*`, `evm_*`) stay refused: the faucet is the only way to mint over HTTP.
 */
export function createSandboxRouter(chains: SandboxChains, options: SandboxRouterOptions): Router {
  const base = options.publicBaseUrl.replace(/\/+$/, '');
  const rpcPath = `/sandbox/rpc/${chains.evm.caip2}`;
  const ledger = createSandboxLedger(chains);
  const router = Router();

  router.get('/sandbox', (_req, res) => {
    res.json(describe(chains, `${base}${rpcPath}`));
  });

  router.post(
    '/sandbox/faucet',
    json,
    handle(async (req, res) => {
      const body: unknown = req.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw validationError([{ field: 'body', message: 'must be a JSON object {account, asset, value}' }]);
      }
      const input = body as Record<string, unknown>;
      const issues: ValidationIssue[] = [];
      const holding = readHolding(chains, { account: input.account, asset: input.asset }, { account: 'account', asset: 'asset' }, issues);
      const value = readValue(input.value, 'value', issues);
      if (!holding || value === null) throw validationError(issues);
      await ledger.fund(holding, value);
      const balance = await ledger.balance(holding);
      res.json({ account: accountOf(chains, holding), asset: holding.asset, value: value.toString(), balance: balance.toString() });
    }),
  );

  router.get(
    '/sandbox/balance',
    handle(async (req, res) => {
      const query = req.query as Record<string, unknown>;
      const issues: ValidationIssue[] = [];
      const asset = query.asset === '' ? undefined : query.asset;
      const holding = readHolding(chains, { account: query.account, asset }, { account: 'query.account', asset: 'query.asset' }, issues);
      if (!holding) throw validationError(issues);
      const value = await ledger.balance(holding);
      res.json({ account: accountOf(chains, holding), asset: holding.asset, value: value.toString() });
    }),
  );

  router.post(
    '/sandbox/rpc/:chain',
    rpcJson,
    handle(async (req, res) => {
      const chain = String(req.params.chain);
      if (chain !== chains.evm.caip2) throw new AppError('not_found', `No JSON-RPC endpoint for ${chain}; the sandbox EVM is ${chains.evm.caip2}`);
      const answer = await chains.evm.handleJsonRpc(req.body);
      if (answer === undefined) res.status(204).end();
      else res.json(answer);
    }),
  );

  router.all('/sandbox/rpc/:chain', () => {
    throw new AppError('method_not_allowed', 'The JSON-RPC endpoint accepts POST only');
  });
  router.all(['/sandbox', '/sandbox/faucet', '/sandbox/balance'], () => {
    throw new AppError('method_not_allowed', 'This path does not accept this method');
  });

  // Only errors raised inside this router arrive here (a router is not an error handler for others).
  router.use('/sandbox', errorHandler());
  return router;
}
