// The fault-injecting JSON-RPC proxy: in front of the standalone sandbox chains' EVM and Solana
// endpoints it presents N "nodes" per chain (N URLs), each answering through the fault engine,
// with the HTTP faults (429 with Retry-After, 5xx, hangs, resets, latency) around it. Tests and
// the chain fault suite set faults per node and method, on demand or bounded in time or count.
//
//   const proxy = await startRpcFaultProxy({ evmUpstream: `${chains}/evm`, solanaUpstream: `${chains}/solana`, nodes: 3 });
//   proxy.set('evm:1', { kind: 'lag', by: 5 });                        // node 1 reads 5 blocks behind
//   proxy.set('evm:*', { kind: 'throttle', retryAfter: 2 }, { times: 3 });
//   proxy.set('solana:0', { kind: 'drop-broadcasts' });
//   ... proxy.evmUrls, proxy.solanaUrls ... proxy.calls() ... await proxy.close();
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { controlOf, type FaultControl } from './control.ts';
import { FaultEngine } from './engine.ts';
import { TRANSPORT_FAULTS, type ChainKind, type FaultKind, type Rule } from './faults.ts';
import { httpErrorBody, throttleBody } from './messages.ts';
import { httpUpstream } from './upstream.ts';

export interface RpcFaultProxyOptions {
  /** The real node's EVM JSON-RPC URL (e.g. `http://127.0.0.1:8545/evm`). */
  evmUpstream?: string;
  /** The real node's Solana JSON-RPC URL. */
  solanaUpstream?: string;
  /** Nodes presented per chain (default 3). */
  nodes?: number;
  /** Rewrite the sandbox node's wording of refused broadcasts as geth's (default true). */
  gethErrors?: boolean;
}

export interface RpcFaultProxy extends FaultControl {
  /** One URL per EVM node: `http://127.0.0.1:<port>/evm/<i>`. */
  evmUrls: string[];
  solanaUrls: string[];
  close(): Promise<void>;
}

const LATENCY: ReadonlySet<FaultKind> = new Set(['latency']);

type Entry = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown };

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startRpcFaultProxy(options: RpcFaultProxyOptions): Promise<RpcFaultProxy> {
  const nodes = options.nodes ?? 3;
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error('nodes must be a positive integer');
  const engine = new FaultEngine({
    upstreams: {
      ...(options.evmUpstream ? { evm: httpUpstream(options.evmUpstream) } : {}),
      ...(options.solanaUpstream ? { solana: httpUpstream(options.solanaUpstream) } : {}),
    },
    ...(options.gethErrors === undefined ? {} : { gethErrors: options.gethErrors }),
  });
  const hung = new Set<ServerResponse>();
  const served: Record<ChainKind, boolean> = { evm: options.evmUpstream !== undefined, solana: options.solanaUpstream !== undefined };

  /** Answers one JSON-RPC entry; a broken upstream is the node's internal error, not the proxy's crash. */
  async function answerEntry(chain: ChainKind, node: number, entry: Entry): Promise<unknown> {
    const id = entry.id ?? null;
    if (entry.jsonrpc !== '2.0' || typeof entry.method !== 'string') return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request' } };
    try {
      const outcome = await engine.answer(chain, node, entry.method, Array.isArray(entry.params) ? entry.params : []);
      return { jsonrpc: '2.0', id, ...outcome };
    } catch (err) {
      return { jsonrpc: '2.0', id, error: { code: -32603, message: `upstream failed: ${err instanceof Error ? err.message : String(err)}` } };
    }
  }

  /** The transport fault for this exchange (newest rule over every method in it), spent; null when none. */
  function transportFault(chain: ChainKind, node: number, methods: string[]): Rule | null {
    let found: Rule | null = null;
    for (const method of methods) {
      const [rule] = engine.matching(chain, node, method, TRANSPORT_FAULTS);
      if (rule && (!found || rule.id > found.id)) found = rule;
    }
    if (found) engine.rules.spend(found);
    return found;
  }

  function latencyMs(chain: ChainKind, node: number, methods: string[]): number {
    let ms = 0;
    for (const method of methods) {
      for (const rule of engine.matching(chain, node, method, LATENCY)) {
        if (rule.fault.kind === 'latency') ms = Math.max(ms, rule.fault.ms);
        engine.rules.spend(rule);
      }
    }
    return ms;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match = /^\/(evm|solana)\/(\d+)\/?$/.exec(req.url ?? '');
    const chain = match?.[1] as ChainKind | undefined;
    const node = Number(match?.[2]);
    if (!chain || !served[chain] || !(node < nodes) || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'no such node', code: 'not_found' }));
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
      return;
    }
    const entries = (Array.isArray(body) ? body : [body]) as Entry[];
    const methods = entries.map((e) => (typeof e?.method === 'string' ? e.method : ''));
    const delay = latencyMs(chain, node, methods);
    if (delay > 0) await sleep(delay);
    const fault = transportFault(chain, node, methods);
    if (fault) {
      for (const e of entries) engine.record(chain, node, typeof e?.method === 'string' ? e.method : '', Array.isArray(e?.params) ? e.params : [], fault.fault.kind);
      const f = fault.fault;
      if (f.kind === 'reset') req.socket.destroy();
      else if (f.kind === 'hang') hung.add(res);
      else if (f.kind === 'throttle') {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(f.retryAfter ?? 1) });
        res.end(JSON.stringify(throttleBody(chain, entries[0]?.id)));
      } else if (f.kind === 'http-error') {
        const { contentType, body: text } = httpErrorBody(f.status);
        res.writeHead(f.status, { 'content-type': contentType }).end(text);
      }
      return;
    }
    const answers = await Promise.all(entries.map((e) => answerEntry(chain, node, typeof e === 'object' && e !== null ? e : {})));
    const reply = Array.isArray(body) ? answers.filter((_, i) => entries[i]?.id !== undefined) : answers[0];
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fault proxy: ${err instanceof Error ? err.message : String(err)}`);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const urls = (chain: ChainKind) => (served[chain] ? Array.from({ length: nodes }, (_, i) => `${base}/${chain}/${i}`) : []);

  return {
    ...controlOf(engine),
    evmUrls: urls('evm'),
    solanaUrls: urls('solana'),
    async close() {
      for (const res of hung) res.destroy();
      hung.clear();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
