import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { startReceiver } from './webhooks-support.ts';
import { createManualClock } from '../server/ports/clock.ts';
import { silentLogger } from '../server/ports/logger.ts';
import { createWebhookDispatcher } from '../server/jobs/webhook-dispatcher.ts';
import { createWebhookDeliverer } from '../server/domain/webhooks/deliver.ts';
import { createWebhookFetch } from '../server/domain/webhooks/fetcher.ts';
import { guardedFetchFactory } from '../server/composition/webhooks.ts';
import type { JobHandler, JobOutcome } from '../server/ports/queue.ts';
import type { StoragePort } from '../server/ports/storage/index.ts';

const backends = await storageBackends();

/**
 * The delivery job under a manual clock: each run is one attempt, and what it answers (`retryAt`)
 * is what the queue would wait for. The clock moves only when the test says so.
 */
describe.each(backends)('webhook retries under a controllable clock on $name', (backend) => {
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

  const deliverer = (allowLoopback = true) =>
    createWebhookDeliverer({
      storage,
      clock,
      logger: silentLogger,
      fetch: createWebhookFetch(guardedFetchFactory, { allowLoopback }),
      allowLoopbackEndpoints: allowLoopback,
      timeoutMs: 2000,
    });

  /** Creates an endpoint and a payment, dispatches, and answers the one delivery job's runner. */
  async function oneDelivery(url: string) {
    const partner = await t.newPartner();
    const ep = await t.call('POST', '/v1/webhook-endpoints', { key: partner.key, body: { url, enabledEvents: ['payment.created'] } });
    await createPayment(t, partner.key, await payableMerchant(t, partner.key));
    await createWebhookDispatcher({ storage, clock, logger: silentLogger }).runOnce();
    const deliveries = await storage.webhooks.listDeliveries(partner.id, ep.body.endpoint.id, { limit: 10 });
    expect(deliveries).toHaveLength(1);
    const job = { id: `job_test_${deliveries[0]!.id}`, type: 'webhook.deliver', payload: { deliveryId: deliveries[0]!.id }, runAt: new Date(clock.now()) };
    return {
      partner,
      endpointId: ep.body.endpoint.id as string,
      secret: ep.body.secret as string,
      deliveryId: deliveries[0]!.id,
      run: (h: JobHandler): Promise<JobOutcome> => h(job),
    };
  }

  it('a receiver answering 500 and then 200 gets the event on the attempt 5 s later', async () => {
    const rx = await startReceiver((_r, n) => (n === 1 ? 500 : 200));
    const d = await oneDelivery(rx.url());
    const h = deliverer();
    const first = await d.run(h);
    expect(first).toEqual({ retryAt: new Date(clock.now() + 5000) });
    clock.advance(5000);
    expect(await d.run(h)).toBeUndefined();
    const delivery = (await storage.webhooks.getDelivery(d.deliveryId))!;
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 2, lastStatusCode: 200 });
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
    expect(rx.received[1]!.headers['webhook-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
    // A duplicate run of the finished job does nothing.
    expect(await d.run(h)).toBeUndefined();
    expect(rx.received).toHaveLength(2);
    await rx.stop();
  });

  it('follows the schedule (at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then gives up', async () => {
    const rx = await startReceiver(() => 503);
    const d = await oneDelivery(rx.url());
    const h = deliverer();
    const waits: number[] = [];
    for (;;) {
      const before = clock.now();
      const out = await d.run(h);
      if (!out) break;
      waits.push(out.retryAt.getTime() - before);
      clock.set(out.retryAt.getTime());
    }
    expect(waits).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(rx.received).toHaveLength(8);
    expect(await storage.webhooks.getDelivery(d.deliveryId)).toMatchObject({ status: 'failed', attemptCount: 8, nextAttemptAt: null });
    await rx.stop();
  });

  it('signs with both secrets for 24 h after a rotation, then with the new one only', async () => {
    const rx = await startReceiver(() => 500);
    const d = await oneDelivery(rx.url());
    const rotated = await t.call('POST', `/v1/webhook-endpoints/${d.endpointId}/rotate-secret`, { key: d.partner.key });
    const h = deliverer();
    await d.run(h);
    const during = rx.received[0]!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    clock.advance(24 * 3600_000 + 1000);
    await d.run(h);
    const after = rx.received[1]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    const verifyAt = (secret: string, r: typeof after) => {
      // The library checks the timestamp against real time; re-sign-free check of the HMAC only.
      const expected = new Webhook(secret).sign(r.headers['webhook-id']!, new Date(Number(r.headers['webhook-timestamp']) * 1000), r.body);
      return r.headers['webhook-signature']!.split(' ').includes(expected);
    };
    expect(verifyAt(d.secret, during)).toBe(true);
    expect(verifyAt(rotated.body.secret, during)).toBe(true);
    expect(verifyAt(d.secret, after)).toBe(false);
    expect(verifyAt(rotated.body.secret, after)).toBe(true);
    await rx.stop();
  });

  it('re-checks the address at delivery: a loopback endpoint is refused without the sandbox allowance', async () => {
    const rx = await startReceiver();
    const d = await oneDelivery(rx.url());
    const out = await d.run(deliverer(false));
    expect(out).toBeDefined();
    expect(rx.received).toHaveLength(0);
    const delivery = (await storage.webhooks.getDelivery(d.deliveryId))!;
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null });
    expect(delivery.attempts[0]!.error).toBe('connection_failed');
    await rx.stop();
  });

  it('does not deliver to an endpoint deleted after the event', async () => {
    const rx = await startReceiver();
    const d = await oneDelivery(rx.url());
    await t.call('DELETE', `/v1/webhook-endpoints/${d.endpointId}`, { key: d.partner.key });
    expect(await d.run(deliverer())).toBeUndefined();
    expect(rx.received).toHaveLength(0);
    expect((await storage.webhooks.getDelivery(d.deliveryId))!.status).toBe('failed');
    await rx.stop();
  });
});
