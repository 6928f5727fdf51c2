// The node behind a proxy: one JSON-RPC call in, one outcome out, whether the node is an HTTP
// endpoint (the standalone sandbox chains) or a function in this process (the in-process sandbox).

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** Exactly one of result or error, as a JSON-RPC answer carries. */
export type RpcOutcome = { result: unknown } | { error: RpcErrorObject };

export type UpstreamCall = (method: string, params: unknown[]) => Promise<RpcOutcome>;

let nextId = 1;

/** Calls a JSON-RPC endpoint over HTTP; a transport failure throws (the caller answers for it). */
export function httpUpstream(url: string): UpstreamCall {
  return async (method, params) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: RpcErrorObject };
    if (body.error) return { error: body.error };
    return { result: body.result ?? null };
  };
}
