// The fault proxy's HTTP faults and node routing, against the real standalone sandbox chains:
// what a client sees from each presented node (latency, 429 with Retry-After, 5xx, a hang, a
// reset, a JSON-RPC error), that a fault set on one node leaves the others honest, and that every
// call is recorded per chain, node and method.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxChainsServer, type SandboxChainsServer } from '../sandbox-chains/server.ts';
import { startRpcFaultProxy, type RpcFaultProxy } from './proxy.ts';

let chains: SandboxChainsServer;
let proxy: RpcFaultProxy;

beforeAll(async () => {
  chains = await startSandboxChainsServer({ port: 0, assetsDir: mkdtempSync(join(tmpdir(), 'fault-proxy-')), devMethods: true });
  proxy = await startRpcFaultProxy({ evmUpstream: `${chains.baseUrl}/evm`, solanaUpstream: `${chains.baseUrl}/solana`, nodes: 3 });
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await chains?.close();
});
afterEach(() => {
  proxy.clear();
  proxy.clearCalls();
});

const post = (url: string, body: unknown, signal?: AbortSignal) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(signal ? { signal } : {}) });
const rpc = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: '2.0', id, method, params });

describe('fault proxy: nodes and HTTP faults', () => {
  it('presents N nodes per chain, each a working JSON-RPC endpoint, and records every call by node and method', async () => {
    expect(proxy.evmUrls).toHaveLength(3);
    expect(proxy.solanaUrls).toHaveLength(3);
    for (const url of proxy.evmUrls) expect(await (await post(url, rpc('eth_chainId'))).json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
    for (const url of proxy.solanaUrls) expect(typeof ((await (await post(url, rpc('getSlot'))).json()) as { result: unknown }).result).toBe('number');
    // A batch is one HTTP request and one call per entry.
    const batch = (await (await post(proxy.evmUrls[1]!, [rpc('eth_chainId', [], 1), rpc('eth_blockNumber', [], 2)])).json()) as Array<{ id: number }>;
    expect(batch.map((a) => a.id)).toEqual([1, 2]);
    expect(proxy.calls({ chain: 'evm', node: 1 }).map((c) => c.method)).toEqual(['eth_chainId', 'eth_chainId', 'eth_blockNumber']);
    expect(proxy.calls({ chain: 'solana' })).toHaveLength(3);
    expect(proxy.calls().every((c) => c.fault === null)).toBe(true);
    expect((await post(`${proxy.evmUrls[0]!.replace(/\/0$/, '/3')}`, rpc('eth_chainId'))).status).toBe(404);
  });

  it('answers 429 with Retry-After and the provider body for as many times as asked, then normally', async () => {
    proxy.set('evm:0', { kind: 'throttle', retryAfter: 2 }, { times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await post(proxy.evmUrls[0]!, rpc('eth_blockNumber', [], 7));
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(await res.json()).toMatchObject({ id: 7, error: { code: 429, message: expect.stringContaining('compute units per second') } });
    }
    expect((await post(proxy.evmUrls[0]!, rpc('eth_blockNumber'))).status).toBe(200);
    // The other nodes were never throttled.
    expect((await post(proxy.evmUrls[1]!, rpc('eth_blockNumber'))).status).toBe(200);
    expect(proxy.calls({ node: 0 }).map((c) => c.fault)).toEqual(['throttle', 'throttle', null]);
  });

  it('throttles Solana with its providers’ body, and an HTTP date as Retry-After', async () => {
    const date = new Date(Date.now() + 3000).toUTCString();
    proxy.set('solana:*', { kind: 'throttle', retryAfter: date }, { times: 1 });
    const res = await post(proxy.solanaUrls[2]!, rpc('getSlot'));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(date);
    expect(await res.json()).toMatchObject({ error: { code: 429, message: expect.stringContaining('Too many requests') } });
  });

  it('answers 5xx as gateways do: HTML for 502/504, a JSON-RPC error for 500/503', async () => {
    proxy.set('evm:1', { kind: 'http-error', status: 502 }, { times: 1 });
    const bad = await post(proxy.evmUrls[1]!, rpc('eth_chainId'));
    expect(bad.status).toBe(502);
    expect(await bad.text()).toContain('<title>502 Bad Gateway</title>');
    proxy.set('evm:1', { kind: 'http-error', status: 503 }, { times: 1 });
    const unavailable = await post(proxy.evmUrls[1]!, rpc('eth_chainId'));
    expect(unavailable.status).toBe(503);
    expect(await unavailable.json()).toMatchObject({ error: { code: -32603 } });
  });

  it('delays only the slow node, and only the methods named', async () => {
    proxy.set('evm:2', { kind: 'latency', ms: 400 }, { methods: ['eth_getBalance'] });
    const timed = async (url: string, method: string, params: unknown[] = []) => {
      const started = Date.now();
      await post(url, rpc(method, params));
      return Date.now() - started;
    };
    const address = '0x1111111111111111111111111111111111111111';
    expect(await timed(proxy.evmUrls[2]!, 'eth_getBalance', [address, 'latest'])).toBeGreaterThanOrEqual(390);
    // No lower bound is asserted on a loaded machine, only that the untouched call is not held 400 ms by the proxy.
    const fast = Math.min(await timed(proxy.evmUrls[2]!, 'eth_chainId'), await timed(proxy.evmUrls[0]!, 'eth_getBalance', [address, 'latest']));
    expect(fast).toBeLessThan(390);
  });

  it('hangs a node (the client gives up) and resets another (the connection drops), while the third answers', async () => {
    proxy.set('evm:0', { kind: 'hang' });
    proxy.set('evm:1', { kind: 'reset' });
    await expect(post(proxy.evmUrls[0]!, rpc('eth_chainId'), AbortSignal.timeout(500))).rejects.toThrow(/abort|timeout/i);
    await expect(post(proxy.evmUrls[1]!, rpc('eth_chainId'))).rejects.toThrow(/fetch failed/);
    expect(await (await post(proxy.evmUrls[2]!, rpc('eth_chainId'))).json()).toMatchObject({ result: '0x7a69' });
  });

  it('answers a JSON-RPC error for the methods named, every n-th time, and the newest rule wins', async () => {
    proxy.set('evm:*', { kind: 'rpc-error', code: -32000, message: 'header not found' }, { methods: ['eth_getBlockByNumber'], every: 2 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await (await post(proxy.evmUrls[0]!, rpc('eth_getBlockByNumber', ['latest', false]))).json());
    expect(answers.map((a) => ('error' in (a as object) ? 'error' : 'ok'))).toEqual(['ok', 'error', 'ok', 'error']);
    const handle = proxy.set('evm:0', { kind: 'rpc-error', code: -32603, message: 'internal' });
    expect(await (await post(proxy.evmUrls[0]!, rpc('eth_chainId'))).json()).toMatchObject({ error: { code: -32603 } });
    handle.clear();
    expect(await (await post(proxy.evmUrls[0]!, rpc('eth_chainId'))).json()).toMatchObject({ result: '0x7a69' });
  });

  it('ends a fault after its duration', async () => {
    proxy.set('solana:1', { kind: 'http-error', status: 500 }, { forMs: 300 });
    expect((await post(proxy.solanaUrls[1]!, rpc('getSlot'))).status).toBe(500);
    await new Promise((r) => setTimeout(r, 350));
    expect((await post(proxy.solanaUrls[1]!, rpc('getSlot'))).status).toBe(200);
  });

  it('refuses faults that mean nothing for a chain, and malformed node refs', () => {
    expect(() => proxy.set('solana:0', { kind: 'logs-range-cap', maxBlocks: 10 })).toThrow(/EVM fault/);
    expect(() => proxy.set('evm:0', { kind: 'refuse-broadcasts', reason: 'blockhash-not-found' })).toThrow(/not a evm refusal/);
    expect(() => proxy.set('evm:x' as 'evm:0', { kind: 'hang' })).toThrow(/bad node index/);
  });
});
