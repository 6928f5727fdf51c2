// /readyz per dependency: the queue (Redis) and each chain's node are named when they are down or
// serve another chain, as 200 "degraded"; storage down is 503; a hung dependency is cut at its
// timeout; a flood of probes is answered from one round of checks.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { JsonRpcProvider, Wallet, type Provider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmChainAdapter } from '../adapters/chains/evm/gateway-adapter.ts';
import { createBullmqQueue } from '../adapters/queue/bullmq/index.ts';
import { createInlineQueue } from '../adapters/queue/inline/index.ts';
import { createEvmSandbox, type EvmSandbox } from '../adapters/sandbox/evm/index.ts';
import { createPostgresStorage } from '../adapters/storage/postgres/index.ts';
import { createReadiness, type ReadinessOptions } from '../server/http/readiness.ts';
import type { ChainPort } from '../server/ports/chains.ts';
import { createManualClock } from '../server/ports/clock.ts';
import type { Logger } from '../server/ports/logger.ts';
import type { QueuePort } from '../server/ports/queue.ts';
import { redisAvailable, redisUrl } from './helpers/services.ts';
import { deleteKeysWithPrefix } from './helpers/redis-cleanup.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';

const prefix = `readyz_${process.pid}_${Date.now().toString(36)}`;

if (await redisAvailable()) {
  describe('/readyz per dependency', () => {
    const clock = createManualClock(Date.now());
    const warned: Array<Record<string, unknown>> = [];
    const logger: Logger = { debug: () => {}, info: () => {}, error: () => {}, warn: (fields) => void warned.push(fields as Record<string, unknown>) };
    let evm: EvmSandbox;
    type Storage = Awaited<ReturnType<typeof createPostgresStorage>>;
    let storage: Storage;
    const toClose: Array<() => Promise<void> | void> = [];
    /** A TCP port that accepts and never answers: a hung Redis or node. */
    let silent: Server;
    const sockets: Socket[] = [];

    beforeAll(async () => {
      evm = await createEvmSandbox();
      storage = await openEmbeddedStorage();
      silent = createServer((s) => void sockets.push(s));
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    }, 120_000);
    afterAll(async () => {
      for (const close of toClose.reverse()) await close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent?.close(() => r()));
      await storage?.close();
      await evm?.close();
      await deleteKeysWithPrefix(redisUrl, prefix);
    });

    const evmPort = (caip2: string, provider: Provider = evm.ethersProvider): ChainPort =>
      createEvmChainAdapter([{ caip2, provider, relayer: new Wallet(evm.relayer.privateKey, provider), permit2: evm.permit2Address, confirmations: 1 }]);
    const queue = (url: string): QueuePort => {
      const q = createBullmqQueue({ redisUrl: url, prefix, queueName: `q${toClose.length}` });
      toClose.push(() => q.close());
      return q;
    };
    const app = async (opts: Partial<ReadinessOptions>, over: Storage = storage): Promise<TestApp> => {
      const t = await startTestApp(over, { clock, readiness: createReadiness({ storage: over, clock, logger, ...opts }) });
      toClose.push(() => t.close());
      return t;
    };

    it('everything answering: 200 ready, a line per dependency, the chain each node serves', async () => {
      const t = await app({ queue: queue(redisUrl), chains: [evmPort(evm.caip2)] });
      const r = await t.call('GET', '/readyz');
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.body).toEqual({ status: 'ready', checks: { storage: { ok: true }, queue: { ok: true }, [`rpc ${evm.caip2}`]: { ok: true, served: evm.caip2 } }, not_ready: [] });
    });

    it('the inline queue is this process: always ok', async () => {
      const q = createInlineQueue();
      toClose.push(() => q.close());
      const r = await (await app({ queue: q })).call('GET', '/readyz');
      expect(r.body).toMatchObject({ status: 'ready', checks: { queue: { ok: true } } });
    });

    it('Redis unreachable: 200 degraded naming the queue, within its bound, logged once with the reason', async () => {
      const t = await app({ queue: queue('redis://127.0.0.1:1'), chains: [evmPort(evm.caip2)] });
      const started = Date.now();
      const r = await t.call('GET', '/readyz');
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'degraded', not_ready: ['queue'], checks: { storage: { ok: true }, [`rpc ${evm.caip2}`]: { ok: true } } });
      expect(r.body.checks.queue).toEqual({ ok: false, error: expect.stringMatching(/^queue (unreachable|timed out)$/) });
      expect(warned.filter((w) => w.dependency === 'queue')).toEqual([expect.objectContaining({ reason: expect.any(String) })]);
      clock.advance(5_000);
      await t.call('GET', '/readyz');
      expect(warned.filter((w) => w.dependency === 'queue')).toHaveLength(1);
    }, 20_000);

    it('a Redis that accepts and never answers is cut at the check timeout', async () => {
      const t = await app({ queue: queue(`redis://127.0.0.1:${(silent.address() as AddressInfo).port}`), timeoutMs: 500 });
      const started = Date.now();
      const r = await t.call('GET', '/readyz');
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(r.body).toMatchObject({ status: 'degraded', not_ready: ['queue'], checks: { queue: { ok: false, error: 'queue timed out' } } });
    }, 20_000);

    it('a chain RPC serving another chain is named with the chain it serves', async () => {
      const r = await (await app({ chains: [evmPort('eip155:8453'), evmPort(evm.caip2)] })).call('GET', '/readyz');
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('degraded');
      expect(r.body.not_ready).toEqual(['rpc eip155:8453']);
      expect(r.body.checks['rpc eip155:8453']).toEqual({ ok: false, served: evm.caip2, error: `wrong chain: the node serves ${evm.caip2}` });
      expect(r.body.checks[`rpc ${evm.caip2}`]).toEqual({ ok: true, served: evm.caip2 });
    });

    it('a chain RPC that cannot be reached is named, without its URL or the driver error', async () => {
      const down = new JsonRpcProvider('http://user:secret@127.0.0.1:9/v2/apikey', 31337, { staticNetwork: true });
      toClose.push(() => down.destroy());
      const r = await (await app({ chains: [evmPort('eip155:31337', down)] })).call('GET', '/readyz');
      expect(r.body).toMatchObject({ status: 'degraded', not_ready: ['rpc eip155:31337'], checks: { 'rpc eip155:31337': { ok: false, error: 'rpc unreachable' } } });
      expect(JSON.stringify(r.body)).not.toMatch(/secret|apikey|127\.0\.0\.1:9/);
    });

    it('a node that never answers is cut at the timeout and still named by its chain', async () => {
      const hung = new JsonRpcProvider(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, 31337, { staticNetwork: true });
      toClose.push(() => hung.destroy());
      const port = evmPort('eip155:31337', hung);
      const t = await app({ chains: [port], timeoutMs: 500 });
      const started = Date.now();
      const r = await t.call('GET', '/readyz');
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(r.body.checks).toMatchObject({ 'rpc eip155:31337': { ok: false, error: 'rpc timed out' } });
      expect(r.body.not_ready).toEqual(['rpc eip155:31337']);
    }, 20_000);

    it('storage down: 503 in the error shape, naming storage, with the other lines', async () => {
      const own = await openEmbeddedStorage();
      const t = await app({ queue: queue(redisUrl), chains: [evmPort(evm.caip2)] }, own);
      await own.close();
      const r = await t.call('GET', '/readyz');
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ code: 'service_unavailable', not_ready: ['storage'], checks: { storage: { ok: false }, queue: { ok: true } } });
    });

    it('a flood of probes is answered from one round of checks per cache period', async () => {
      let asked = 0;
      const real = evmPort(evm.caip2);
      const counted: ChainPort = { ...real, namespace: real.namespace, health: () => (asked++, real.health!()) };
      const t = await app({ chains: [counted] });
      const answers = await Promise.all(Array.from({ length: 40 }, () => t.call('GET', '/readyz')));
      expect(answers.every((a) => a.status === 200 && a.body.status === 'ready')).toBe(true);
      expect(asked).toBe(1);
      clock.advance(2_000);
      await t.call('GET', '/readyz');
      expect(asked).toBe(2);
    });
  });
}
