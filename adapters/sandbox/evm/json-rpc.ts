// JSON-RPC faces of the sandbox node: an EIP-1193 provider for in-process code, and a request
// handler for the HTTP endpoint on which wallets broadcast their own transactions.
import type { EvmNode, RpcErrorObject } from './edr-node.ts';

/** EIP-1193 `request` shape, as ethers' BrowserProvider expects it. */
export type Eip1193Provider = {
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>;
};

/** Error thrown by the EIP-1193 provider; carries the JSON-RPC code and data like a wallet would. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(error: RpcErrorObject) {
    super(error.message);
    this.name = 'RpcError';
    this.code = error.code;
    this.data = error.data;
  }
}

/** Wraps the node as EIP-1193; node errors become thrown `RpcError`s with their code. */
export function eip1193(node: EvmNode): Eip1193Provider {
  return {
    async request({ method, params }) {
      const outcome = await node.call(method, Array.isArray(params) ? params : params === undefined ? [] : [params]);
      if ('error' in outcome) throw new RpcError(outcome.error);
      return outcome.result;
    },
  };
}

type JsonRpcId = string | number | null;
type JsonRpcResponse = { jsonrpc: '2.0'; id: JsonRpcId; result?: unknown; error?: RpcErrorObject };

/**
 * Methods a remote caller may not use: they rewrite chain state (balances, code, time,
 * impersonation) and would let anyone mint sandbox funds or forge payments over HTTP.
 */
const DEV_METHOD_PREFIXES = ['hardhat_', 'evm_', 'anvil_'];

export type JsonRpcHandlerOptions = {
  /** Allow `hardhat_*`/`evm_*` methods (tests, local tools). Off by default. */
  allowDevMethods?: boolean;
  /** Largest batch accepted. Default 100. */
  maxBatch?: number;
};

/**
 * Answers a parsed JSON-RPC body (single request or batch, JSON-RPC 2.0 semantics): notifications
 * get no entry, an all-notification batch answers `undefined` (the HTTP layer sends 204), an
 * empty or malformed body answers an `Invalid Request` error object.
 */
export async function handleJsonRpcBody(node: EvmNode, body: unknown, options: JsonRpcHandlerOptions = {}): Promise<unknown> {
  if (Array.isArray(body)) {
    const maxBatch = options.maxBatch ?? 100;
    if (body.length === 0) return errorResponse(null, -32600, 'Invalid Request: empty batch');
    if (body.length > maxBatch) return errorResponse(null, -32600, `Invalid Request: batch larger than ${maxBatch}`);
    const answers = await Promise.all(body.map((entry) => handleOne(node, entry, options)));
    const present = answers.filter((answer): answer is JsonRpcResponse => answer !== undefined);
    return present.length === 0 ? undefined : present;
  }
  return handleOne(node, body, options);
}

async function handleOne(node: EvmNode, entry: unknown, options: JsonRpcHandlerOptions): Promise<JsonRpcResponse | undefined> {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return errorResponse(null, -32600, 'Invalid Request');
  }
  const request = entry as Record<string, unknown>;
  const hasId = 'id' in request;
  const id = request.id;
  if (hasId && !(typeof id === 'string' || typeof id === 'number' || id === null)) {
    return errorResponse(null, -32600, 'Invalid Request: bad id');
  }
  const replyId: JsonRpcId = hasId ? (id as JsonRpcId) : null;
  if (request.jsonrpc !== '2.0' || typeof request.method !== 'string') {
    return errorResponse(replyId, -32600, 'Invalid Request');
  }
  const params = request.params;
  if (params !== undefined && !Array.isArray(params)) {
    return errorResponse(replyId, -32602, 'Invalid params: expected an array');
  }
  const method = request.method;
  if (!options.allowDevMethods && DEV_METHOD_PREFIXES.some((prefix) => method.startsWith(prefix))) {
    return hasId ? errorResponse(replyId, -32601, `Method ${method} is not available on this endpoint`) : undefined;
  }
  const outcome = await node.call(method, params ?? []);
  if (!hasId) return undefined;
  if ('error' in outcome) return { jsonrpc: '2.0', id: replyId, error: outcome.error };
  return { jsonrpc: '2.0', id: replyId, result: outcome.result };
}

function errorResponse(id: JsonRpcId, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
