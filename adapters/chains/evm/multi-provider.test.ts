// The EVM provider over several endpoints, through the fault proxy in front of the real sandbox
// chain: 429 with Retry-After honoured, a hanging node bounded and failed over, 5xx failover and
// the breaker, broadcasts to every node, and a lagging replica never taken as evidence.
import { JsonRpcProvider, Wallet, parseEther } from 'ethers';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { evmDev, type EvmDev } from '../../../tools/chain-faults/dev.ts';
import { startRpcFaultProxy, type RpcFaultProxy } from '../../../tools/chain-faults/proxy.ts';
import { sharedSandboxChains } from '../../../tools/chain-faults/standalone.ts';
import { httpUpstream } from '../../../tools/chain-faults/upstream.ts';
import { RpcUnavailableError } from '../endpoint-pool.ts';
import { endpointAheadOfSeen } from './endpoint-heads.ts';
import { MultiEndpointProvider } from './multi-provider.ts';

const CHAIN_ID = 31337;
let proxy: RpcFaultProxy;
let dev: EvmDev;
let waits: number[] = [];
const made: JsonRpcProvider[] = [];

const multi = (urls = proxy.evmUrls, timeoutMs = 1_000) => {
  const p = new MultiEndpointProvider(urls, CHAIN_ID, {
    pool: { timeoutMs, breakerCooldownMs: 60_000, sleep: (ms) => (waits.push(ms), new Promise((r) => setTimeout(r, ms))) },
  });
  made.push(p);
  return p;
};

beforeAll(async () => {
  const chains = await sharedSandboxChains();
  proxy = await startRpcFaultProxy({ evmUpstream: chains.evmUrl, nodes: 3 });
  dev = evmDev(httpUpstream(chains.evmUrl));
  await dev.setIntervalMining(0);
  await dev.setAutomine(true);
}, 120_000);
afterAll(async () => {
  for (const p of made) p.destroy();
  await proxy?.close();
});
afterEach(() => {
  proxy.clear();
  proxy.clearCalls();
  waits = [];
});

async function signedTransfer(provider: JsonRpcProvider): Promise<{ raw: string; hash: string }> {
  const w = Wallet.createRandom();
  await dev.setBalance(w.address, parseEther('1'));
  const tx = await w.connect(provider).populateTransaction({ to: Wallet.createRandom().address, value: 1n });
  const raw = await w.signTransaction(tx);
  return { raw, hash: (await import('ethers')).keccak256(raw) };
}

const nodesCalled = (method: string) => [...new Set(proxy.calls({ method }).map((c) => c.node))].sort();

describe('EVM endpoints as they are', () => {
  it('every node answering 429 with Retry-After: 1 is waited for one second (not 1 ms), then answered', async () => {
    proxy.set('evm:*', { kind: 'throttle', retryAfter: 1 }, { times: 3 });
    const head = await multi().getBlockNumber();
    expect(head).toBeGreaterThan(0);
    // before: ethers' FetchRequest read "1" as 1 ms and retried the same node; after: one wait of 1,000 ms.
    expect(waits).toEqual([1_000]);
  });

  it('a throttled node is left for the next one, without waiting', async () => {
    proxy.set('evm:0', { kind: 'throttle', retryAfter: 30 });
    expect(await multi().getBlockNumber()).toBeGreaterThan(0);
    expect(waits).toEqual([]);
    expect(nodesCalled('eth_blockNumber')).toEqual([0, 1]);
  });

  it('a hanging node is given up after the timeout and the read answered by another', async () => {
    proxy.set('evm:0', { kind: 'hang' });
    // before: one URL, ethers' 300 s default timeout; after: node 1 answers after a 500 ms bound.
    expect(await multi(proxy.evmUrls, 500).getBlockNumber()).toBeGreaterThan(0);
    expect(nodesCalled('eth_blockNumber')).toEqual([0, 1]);
  });

  it('a node that hangs once is skipped by the reads after it (breaker open at the first timeout)', async () => {
    proxy.set('evm:0', { kind: 'hang' });
    const p = multi(proxy.evmUrls, 300);
    const started = Date.now();
    for (let i = 0; i < 4; i++) expect(await p.getBlockNumber()).toBeGreaterThan(0);
    // before: node 0 tried by each of the first three reads (3 × 300 ms waited); after: by the first only.
    expect(proxy.calls({ node: 0 })).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('5xx fails over, and after three failures the node is skipped (breaker open)', async () => {
    proxy.set('evm:0', { kind: 'http-error', status: 503 });
    const p = multi();
    for (let i = 0; i < 5; i++) expect(await p.getBlockNumber()).toBeGreaterThan(0);
    expect(proxy.calls({ node: 0 })).toHaveLength(3);
    expect(proxy.calls({ node: 1 })).toHaveLength(5);
  });

  it('a broadcast goes to every node: one that drops it does not lose the transaction', async () => {
    const p = multi();
    const { raw, hash } = await signedTransfer(p);
    proxy.set('evm:0', { kind: 'drop-broadcasts' });
    // before: one URL; a node that answers the hash and forwards nothing leaves it never mined.
    expect((await p.broadcastTransaction(raw)).hash).toBe(hash);
    await vi.waitFor(() => expect(nodesCalled('eth_sendRawTransaction')).toEqual([0, 1, 2]));
    expect((await p.getTransactionReceipt(hash))?.status).toBe(1);
  });

  it('a replica behind the highest head seen is not taken as "no receipt": another node answers', async () => {
    const p = multi();
    await p.getBlockNumber();
    proxy.set('evm:0', { kind: 'lag', by: 2 });
    const { raw, hash } = await signedTransfer(p);
    await dev.sendRaw(raw);
    await p.getBlockNumber();
    // before: the lagging node 0 answers null (payment looks unpaid); after: node 1's receipt.
    expect((await p.getTransactionReceipt(hash))?.status).toBe(1);
    expect(nodesCalled('eth_getTransactionReceipt')).toEqual([0, 1]);
  });

  it('every node behind the head seen: the read is unknown (an error), never "not found"', async () => {
    const p = multi();
    const { raw, hash } = await signedTransfer(p);
    await dev.sendRaw(raw);
    await p.getBlockNumber();
    proxy.set('evm:*', { kind: 'lag', by: 1 });
    await expect(p.getTransactionReceipt(hash)).rejects.toThrow(RpcUnavailableError);
  });

  it('a process that has seen only the head of a lagging node learns, after a refusal, that another endpoint is ahead (the relayer then estimates again instead of releasing)', async () => {
    proxy.set('evm:0', { kind: 'lag', by: 3 });
    await dev.mine(3);
    // A worker that just started: the one head it has seen is node 0's, three blocks behind.
    const p = multi([proxy.evmUrls[0]!, proxy.evmUrls[1]!]);
    const fresh = await multi([proxy.evmUrls[1]!]).getBlockNumber();
    p.head.admit(fresh - 3);
    // before: nothing compared the endpoints, so node 0's estimate revert released the payment; after: another endpoint is ahead.
    expect(await endpointAheadOfSeen(p, 2_000)).toBe(true);
    expect(p.head.value).toBeGreaterThanOrEqual(fresh);
    // Once the freshest head is known, a refusal stands (nothing further ahead): the relayer may release.
    expect(await endpointAheadOfSeen(p, 2_000)).toBe(false);
    // A provider of one node has nothing to be behind.
    expect(await endpointAheadOfSeen(new JsonRpcProvider(proxy.evmUrls[1], CHAIN_ID, { staticNetwork: true }), 2_000)).toBe(false);
  });
});
