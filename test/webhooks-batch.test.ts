import http from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * The batch job the dispatcher writes (one per endpoint per unit): each delivery sent once, at
 * most the endpoint's cap at a time; a failure goes on as a fixed-id retry job; a run again after
 * a crash sends nothing settled; what the time budget leaves goes on as a job of its own.
 */
describe.each(backends)('webhook batch delivery on $name', (backend) => {
  let t: TestApp;
  let storage: StoragePort;
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

  const deliverer = (cap: number, batchBudgetMs?: number, store: StoragePort = storage) =>
    createWebhookDeliverer({
      storage: store,
      clock,
      logger: silentLogger,
      fetch: createWebhookFetch(guardedFetchFactory, { allowLoopback: true }),
      allowLoopbackEndpoints: true,
      timeoutMs: 2000,
      maxInFlightPerEndpoint: cap,
      ...(batchBudgetMs !== undefined ? { batchBudgetMs } : {}),
    });

  /** `n` payment events to one endpoint at `url`, dispatched: answers the batch job and the delivery ids in order. */
  async function dispatchedBatch(url: string, n: number) {
    const partner = await t.newPartner();
    const ep = await t.call('POST', '/v1/webhook-endpoints', { key: partner.key, body: { url, enabledEvents: ['payment.created'] } });
    const merchant = await payableMerchant(t, partner.key);
    for (let i = 0; i < n; i++) await createPayment(t, partner.key, merchant);
    await createWebhookDispatcher({ storage, clock, logger: silentLogger }).runOnce();
    const jobs = (await storage.jobs.claimUnrelayed(1000, new Date(clock.now()))).filter((j) => j.payload.endpointId === ep.body.endpoint.id);
    expect(jobs).toHaveLength(1);
    const job = { id: jobs[0]!.id, type: jobs[0]!.type, payload: jobs[0]!.payload, runAt: jobs[0]!.runAt };
    const ids = job.payload.deliveryIds as string[];
    expect(ids).toHaveLength(n);
    return { job, ids, endpointId: ep.body.endpoint.id as string };
  }

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

  it('starts nothing after its time budget and hands the rest on as one job, which delivers it', async () => {
    const rx = await holdingReceiver(150);
    const { job, ids, endpointId } = await dispatchedBatch(rx.url, 5);
    expect(await deliverer(1, 200)(job)).toBeUndefined();
    const sent = rx.ids.length;
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThan(5);
    const rest = ids.slice(sent);
    const next = await storage.jobs.get(`job_whb_${rest[0]}`);
    expect(next).toMatchObject({ type: 'webhook.deliver', payload: { endpointId, deliveryIds: rest }, completedAt: null });
    expect(await deliverer(1)({ id: next!.id, type: next!.type, payload: next!.payload, runAt: next!.runAt })).toBeUndefined();
    expect(rx.ids).toHaveLength(5);
    expect(new Set(rx.ids).size).toBe(5);
    for (const id of ids) expect((await storage.webhooks.getDelivery(id))!.status).toBe('delivered');
    await rx.stop();
  });
});
