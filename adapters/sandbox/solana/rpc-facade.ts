import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PublicKey, SendTransactionError, VersionedTransaction, type Commitment } from '@solana/web3.js';
import type { SolanaRpc } from '../../chains/solana/rpc.ts';

export interface RpcFacade {
  url: string;
  close(): Promise<void>;
}

interface RpcRequest {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: unknown[];
}

class RpcError extends Error {
  code: number;
  data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

const str = (value: unknown, what: string): string => {
  if (typeof value !== 'string') throw new RpcError(-32602, `Invalid params: ${what} must be a string`);
  return value;
};
const key = (value: unknown): PublicKey => {
  try {
    return new PublicKey(str(value, 'address'));
  } catch {
    throw new RpcError(-32602, 'Invalid params: invalid public key');
  }
};
const config = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
const commitmentIn = (value: unknown): Commitment | undefined => {
  const c = config(value).commitment;
  return c === 'processed' || c === 'confirmed' || c === 'finalized' ? c : undefined;
};

/**
 * The sandbox cluster's own controls, served as JSON-RPC methods only when the facade is given
 * them (`npm run sandbox:chains -- --dev-methods`): anyone on the endpoint could otherwise stall
 * every payment.
 */
export interface SolanaDevControls {
  /** `sandbox_expireBlockhash`: every blockhash issued so far can no longer land. */
  expireBlockhash(): void;
  /** `sandbox_advanceBlocks [n]`: n slots and blocks pass. */
  advanceBlocks(n: number): void;
}

async function devMethod(dev: SolanaDevControls | undefined, method: string, params: unknown[]): Promise<unknown> {
  if (!dev) throw new RpcError(-32601, `Method ${method} is not available on this endpoint`);
  if (method === 'sandbox_expireBlockhash') return dev.expireBlockhash();
  if (method === 'sandbox_advanceBlocks') {
    const n = params[0] ?? 1;
    if (!Number.isInteger(n) || (n as number) < 1) throw new RpcError(-32602, 'Invalid params: blocks must be a positive integer');
    return dev.advanceBlocks(n as number);
  }
  throw new RpcError(-32601, `Method not found: ${method}`);
}

/** Position of the config object in each method's params (where `minContextSlot` would be). */
const CONFIG_AT: Record<string, number> = {
  getLatestBlockhash: 0,
  getBlockHeight: 0,
  getSlot: 0,
  getAccountInfo: 1,
  getSignaturesForAddress: 1,
  sendTransaction: 1,
  simulateTransaction: 1,
};

async function dispatch(rpc: SolanaRpc, method: string, params: unknown[], dev?: SolanaDevControls): Promise<unknown> {
  if (method.startsWith('sandbox_')) return devMethod(dev, method, params);
  const slot = (await rpc.getSignatureStatuses([])).context.slot;
  const at = CONFIG_AT[method];
  const options = at === undefined ? {} : config(params[at]);
  // As a node does: a read that must reflect a slot this node has not reached is refused, not answered stale.
  if (typeof options.minContextSlot === 'number' && options.minContextSlot > slot) {
    throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: slot });
  }
  const withContext = (value: unknown) => ({ context: { apiVersion: '2.0.0-sandbox', slot }, value });
  switch (method) {
    case 'getLatestBlockhash':
      return withContext(await rpc.getLatestBlockhash(commitmentIn(params[0])));
    case 'getBlockHeight':
      return rpc.getBlockHeight(commitmentIn(params[0]));
    case 'getSlot':
      return slot;
    case 'getEpochInfo':
      return rpc.getEpochInfo(commitmentIn(params[0]));
    case 'getGenesisHash':
      return rpc.getGenesisHash();
    case 'getSignatureStatuses': {
      const signatures = Array.isArray(params[0]) ? params[0].map((s) => str(s, 'signature')) : [];
      const { value } = await rpc.getSignatureStatuses(signatures);
      return withContext(value.map((s) => (s ? { ...s, status: s.err ? { Err: s.err } : { Ok: null } } : null)));
    }
    case 'getAccountInfo': {
      const info = await rpc.getAccountInfo(key(params[0]));
      if (!info) return withContext(null);
      const { data, owner, lamports, executable } = info;
      return withContext({ data: [data.toString('base64'), 'base64'], owner: owner.toBase58(), lamports, executable, rentEpoch: 0, space: data.length });
    }
    case 'getSignaturesForAddress': {
      const c = commitmentIn(params[1]);
      return rpc.getSignaturesForAddress(key(params[0]), { limit: Number(config(params[1]).limit ?? 1000) }, c === 'confirmed' || c === 'finalized' ? c : undefined);
    }
    case 'sendTransaction': {
      const options = config(params[1]);
      if (options.encoding !== 'base64') throw new RpcError(-32602, 'Invalid params: only base64 encoding is supported');
      try {
        return await rpc.sendRawTransaction(Buffer.from(str(params[0], 'transaction'), 'base64'), { skipPreflight: options.skipPreflight === true });
      } catch (error) {
        if (!(error instanceof SendTransactionError)) throw error;
        throw new RpcError(-32002, error.transactionError.message, { logs: error.logs ?? [] });
      }
    }
    case 'simulateTransaction': {
      const options = config(params[1]);
      if (options.encoding !== 'base64') throw new RpcError(-32602, 'Invalid params: only base64 encoding is supported');
      let tx: VersionedTransaction;
      try {
        tx = VersionedTransaction.deserialize(Buffer.from(str(params[0], 'transaction'), 'base64'));
      } catch {
        throw new RpcError(-32602, 'Invalid params: failed to deserialize transaction');
      }
      const { value } = await rpc.simulateTransaction(tx, { sigVerify: options.sigVerify === true });
      return withContext(value);
    }
    case 'getRecentPrioritizationFees': {
      const accounts = Array.isArray(params[0]) ? params[0].map(key) : [];
      return rpc.getRecentPrioritizationFees({ lockedWritableAccounts: accounts });
    }
    default:
      throw new RpcError(-32601, `Method not found: ${method} is not offered by the sandbox facade`);
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * One JSON-RPC call answered over a `SolanaRpc`, as the HTTP facade answers it: for in-process
 * callers that speak JSON-RPC without a socket (the fault engine in front of the in-process sandbox).
 */
export async function answerSolanaRpc(
  rpc: SolanaRpc,
  method: string,
  params: unknown[],
  dev?: SolanaDevControls,
): Promise<{ result: unknown } | { error: { code: number; message: string; data?: unknown } }> {
  try {
    return { result: await dispatch(rpc, method, params, dev) };
  } catch (error) {
    const e = error instanceof RpcError ? error : new RpcError(-32603, 'Internal error');
    return { error: { code: e.code, message: e.message, ...(e.data === undefined ? {} : { data: e.data }) } };
  }
}

async function answer(rpc: SolanaRpc, request: RpcRequest, dev?: SolanaDevControls): Promise<unknown> {
  const id = request.id ?? null;
  if (typeof request.method !== 'string') return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid request' } };
  return { jsonrpc: '2.0', id, ...(await answerSolanaRpc(rpc, request.method, Array.isArray(request.params) ? request.params : [], dev)) };
}

/**
 * The facade's HTTP request handler, for a server that serves other paths too (the standalone
 * sandbox chains serve EVM, Solana and the faucet on one port): every request is read as a
 * JSON-RPC body (single or batch) and answered with status 200. With `dev`, the sandbox's
 * `sandbox_*` methods are served too; without, they are refused.
 */
export function solanaRpcHandler(rpc: SolanaRpc, options: { dev?: SolanaDevControls } = {}): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void (async () => {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        body = undefined;
      }
      const reply =
        body === undefined
          ? { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }
          : Array.isArray(body)
            ? await Promise.all(body.map((r) => answer(rpc, config(r), options.dev)))
            : await answer(rpc, config(body), options.dev);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    })();
  };
}

/**
 * Serves a `SolanaRpc` (normally the sandbox connection) as Solana JSON-RPC over HTTP on 127.0.0.1.
 *
 * Why: no `solana-test-validator` is available here, yet the production path is `new Connection(url)`.
 * This facade lets that exact client, and external wallets in the embedded mode, talk to the sandbox.
 * Only the methods the chain functions use are offered; anything else answers -32601.
 */
export async function startRpcFacade(rpc: SolanaRpc, options: { port?: number } = {}): Promise<RpcFacade> {
  const server = createServer(solanaRpcHandler(rpc));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
