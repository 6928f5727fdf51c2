import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { createManualClock } from '../server/ports/clock.ts';
import { silentLogger } from '../server/ports/logger.ts';
import { createWebhookDispatcher } from '../server/jobs/webhook-dispatcher.ts';
import { createWebhookDeliverer } from '../server/domain/webhooks/deliver.ts';
import { createWebhookFetch } from '../server/domain/webhooks/fetcher.ts';
import { guardedFetchFactory } from '../server/composition/webhooks.ts';
import type { StoragePort } from '../server/ports/storage/index.ts';
import type { TestStorage } from './helpers/backends.ts';
import { waitFor } from './helpers/wait-for.ts';

const backends = await storageBackends();

/** A receiver that answers after `holdMs`, counting the requests it holds at once; `status(n)` answers the n-th (from 1). */
async function holdingReceiver(holdMs: number, status: (n: number) => number = () => 200) {
  const ids: string[] = [];
  let open = 0;
  let maxOpen = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['webhook-id']));
      const n = ids.length;
      maxOpen = Math.max(maxOpen, ++open);
      setTimeout(() => {
        open--;
        res.writeHead(status(n)).end();
      }, holdMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    ids,
    maxOpen: () => maxOpen,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A receiver that accepts connections and never answers (a tarpit), counting those open at once. */
async function tarpit() {
  let connections = 0;
  let open = 0;
  let maxOpen = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    maxOpen = Math.max(maxOpen, ++open);
    sockets.add(socket);
    socket.on('close', () => {
      open--;
      sockets.delete(socket);
    });
    socket.resume();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    connections: () => connections,
    open: () => open,
    maxOpen: () => maxOpen,
    resetMax: () => void (maxOpen = open),
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    stop: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/**
 * The batch job the dispatcher writes (one per endpoint per unit): each delivery sent once, at
 * most the endpoint's cap at a time; a failure goes on as a fixed-id retry job; a run again after
 * a crash sends nothing settled; what the time budget leaves, the job sends when it runs again.
 */
describe.each(backends)('webhook batch delivery on $name', (backend) => {
  let t: TestApp;
  let storage: TestStorage;
  let dispose: () => Promise<void>;
  const clock = createManualClock(Date.now());
  beforeAll(async () => {
    const s = await backend.open();
    storage = s;
    dispose = s.dispose;
    t = await startTestApp(s, { clock, allowLoopbackEndpoints: true });
  });
  afterAll(async () => {
    await t?.close();
    await dispose?.();
  });

  const deliverer = (cap: number, batchBudgetMs?: number, store: StoragePort = storage, more: { perPartner?: number; timeoutMs?: number } = {}) =>
    createWebhookDeliverer({
      storage: store,
      clock,
      logger: silentLogger,
      fetch: createWebhookFetch(guardedFetchFactory, { allowLoopback: true }),
      allowLoopbackEndpoints: true,
      timeoutMs: more.timeoutMs ?? 2000,
      maxInFlightPerEndpoint: cap,
      ...(more.perPartner !== undefined ? { maxInFlightPerPartner: more.perPartner } : {}),
      ...(batchBudgetMs !== undefined ? { batchBudgetMs } : {}),
    });

  /** `n` payment events to each of one partner's endpoints at `urls`, dispatched: answers each endpoint's batch job and delivery ids in order. */
  async function dispatchedBatches(urls: string[], n: number) {
    const partner = await t.newPartner();
    const eps: string[] = [];
    for (const url of urls) eps.push((await t.call('POST', '/v1/webhook-endpoints', { key: partner.key, body: { url, enabledEvents: ['payment.created'] } })).body.endpoint.id);
    const merchant = await payableMerchant(t, partner.key);
    for (let i = 0; i < n; i++) await createPayment(t, partner.key, merchant);
    await createWebhookDispatcher({ storage, clock, logger: silentLogger }).runOnce();
    const claimed = await storage.jobs.claimUnrelayed(1000, new Date(clock.now()));
    return eps.map((endpointId) => {
      const jobs = claimed.filter((j) => j.payload.endpointId === endpointId);
      expect(jobs).toHaveLength(1);
      const job = { id: jobs[0]!.id, type: jobs[0]!.type, payload: jobs[0]!.payload, runAt: jobs[0]!.runAt };
      const ids = job.payload.deliveryIds as string[];
      expect(ids).toHaveLength(n);
      return { job, ids, endpointId };
    });
  }
  const dispatchedBatch = async (url: string, n: number) => (await dispatchedBatches([url], n))[0]!;

  it('sends each delivery once, at most the cap at a time, records every 2xx, and hands a failure on as its retry job; a second run sends nothing more', async () => {
    const rx = await holdingReceiver(40, (n) => (n === 1 ? 500 : 200));
    const { job, ids, endpointId } = await dispatchedBatch(rx.url, 6);
    const h = deliverer(2);
    expect(await h(job)).toBeUndefined();
    expect(rx.ids).toHaveLength(6);
    expect(new Set(rx.ids).size).toBe(6);
    expect(rx.maxOpen()).toBe(2);
    const after = await Promise.all(ids.map((id) => storage.webhooks.getDelivery(id)));
    expect(after.filter((d) => d!.status === 'delivered')).toHaveLength(5);
    const failed = after.find((d) => d!.status === 'pending')!;
    expect(failed).toMatchObject({ attemptCount: 1, lastStatusCode: 500, nextAttemptAt: new Date(clock.now() + 5000) });
    const retryId = `job_whr_${failed.id}_1`;
    expect(await storage.jobs.get(retryId)).toMatchObject({
      type: 'webhook.deliver',
      payload: { deliveryId: failed.id, endpointId },
      runAt: new Date(clock.now() + 5000),
      completedAt: null,
    });

    // As if the first run died before the queue heard it finish: nothing is sent again.
    expect(await h(job)).toBeUndefined();
    expect(rx.ids).toHaveLength(6);
    expect((await storage.webhooks.getDelivery(failed.id))!.attempts).toHaveLength(1);

    clock.advance(5000);
    expect(await h({ id: retryId, type: 'webhook.deliver', payload: { deliveryId: failed.id, endpointId }, runAt: new Date(clock.now()) })).toBeUndefined();
    expect(await storage.webhooks.getDelivery(failed.id)).toMatchObject({ status: 'delivered', attemptCount: 2, lastStatusCode: 200 });
    expect(rx.ids).toHaveLength(7);
    await rx.stop();
  });

  it('run again after a run that died before handing a failure on: sends nothing settled again and writes the retry job', async () => {
    const rx = await holdingReceiver(5, (n) => (n === 2 ? 503 : 200));
    const { job, ids } = await dispatchedBatch(rx.url, 4);
    // The first run's process "dies" when it comes to write its follow-up jobs.
    const dying = { ...storage, jobs: { ...storage.jobs, insert: () => Promise.reject(new Error('process killed')) } };
    await expect(deliverer(2, undefined, dying)(job)).rejects.toThrow('process killed');
    expect(rx.ids).toHaveLength(4);
    const failed = (await Promise.all(ids.map((id) => storage.webhooks.getDelivery(id)))).find((d) => d!.status === 'pending')!;
    expect(await storage.jobs.get(`job_whr_${failed.id}_1`)).toBeNull();
    expect(await deliverer(2)(job)).toBeUndefined();
    expect(rx.ids).toHaveLength(4);
    expect(await storage.jobs.get(`job_whr_${failed.id}_1`)).toMatchObject({ runAt: failed.nextAttemptAt, completedAt: null });
    await rx.stop();
  });

  it('starts nothing after its time budget and runs again for the rest (its slot given back meanwhile), which delivers it', async () => {
    const rx = await holdingReceiver(150);
    const { job, ids } = await dispatchedBatch(rx.url, 5);
    expect(await deliverer(1, 200)(job)).toEqual({ retryAt: new Date(clock.now()) });
    const sent = rx.ids.length;
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThan(5);
    // The same job again: what was delivered is skipped, the rest sent.
    expect(await deliverer(1)(job)).toBeUndefined();
    expect(rx.ids).toHaveLength(5);
    expect(new Set(rx.ids).size).toBe(5);
    for (const id of ids) expect((await storage.webhooks.getDelivery(id))!.status).toBe('delivered');
    await rx.stop();
  });

  // PostgreSQL only: holding a lock in one transaction while the deliverer writes in others needs
  // several connections, and PGlite has one (the deliverer would wait on the test's own lock).
  if (backend.name === 'postgresql')
    it('pipelines: the endpoint gets its next deliveries as soon as a slot frees, while earlier outcomes still wait to be recorded; none counts before its record', async () => {
      const rx = await holdingReceiver(5);
      const { job, ids } = await dispatchedBatch(rx.url, 12);
      // Outcomes cannot be recorded while the attempts table is locked against writes (reads go on).
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const holder = storage.db.transaction(async (tx) => {
        await tx.query('LOCK TABLE webhook_attempts IN SHARE MODE');
        locked();
        await released;
      });
      await isLocked;
      let finished = false;
      const run = deliverer(2)(job).then((out) => {
        finished = true;
        return out;
      });
      try {
        await waitFor('every delivery to be sent while no outcome could be recorded', () => rx.ids.length === 12, 20_000);
        expect(rx.maxOpen()).toBeLessThanOrEqual(2);
        expect(finished).toBe(false);
        for (const id of ids) expect((await storage.webhooks.getDelivery(id))!.status).toBe('pending');
      } finally {
        release();
        await holder;
      }
      expect(await run).toBeUndefined();
      expect(new Set(rx.ids).size).toBe(12);
      for (const id of ids) expect((await storage.webhooks.getDelivery(id))!.status).toBe('delivered');
      await rx.stop();
    });

  it('holds a partner to its in-flight cap over all its endpoints, each endpoint to its own', async () => {
    const rx = await holdingReceiver(60);
    const [a, b] = await dispatchedBatches([`${rx.url}/a`, `${rx.url}/b`], 6);
    const h = deliverer(4, undefined, storage, { perPartner: 3 });
    expect(await Promise.all([h(a!.job), h(b!.job)])).toEqual([undefined, undefined]);
    expect(rx.ids).toHaveLength(12);
    expect(rx.maxOpen()).toBe(3);
    for (const id of [...a!.ids, ...b!.ids]) expect((await storage.webhooks.getDelivery(id))!.status).toBe('delivered');
    await rx.stop();
  });

  it('backs off a slow endpoint: after a timeout one attempt at a time, and the batch gives its slot back instead of waiting', async () => {
    const pit = await tarpit();
    const { job, ids } = await dispatchedBatch(pit.url, 6);
    const h = deliverer(4, undefined, storage, { timeoutMs: 300 });
    // Four at once, all timed out: the endpoint is slow, and the batch gives its slot back for the rest.
    expect(await h(job)).toMatchObject({ retryAt: expect.any(Date) });
    expect(pit.connections()).toBe(4);
    const attempted = async () => (await Promise.all(ids.map((id) => storage.webhooks.getDelivery(id)))).filter((d) => d!.attemptCount === 1 && d!.status === 'pending').length;
    expect(await attempted()).toBe(4);
    // Run again (as the queue does at retryAt): one at a time while it stays slow, and back later again.
    await waitFor('the tarpit to see the earlier sockets closed', () => pit.open() === 0);
    pit.resetMax();
    expect(await h(job)).toMatchObject({ retryAt: expect.any(Date) });
    expect(pit.maxOpen()).toBe(1);
    expect(pit.connections()).toBe(5);
    expect(await attempted()).toBe(5);
    await pit.stop();
  });
});
