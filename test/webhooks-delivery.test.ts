import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { storageBackends } from './helpers/backends.ts';
import type { TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { eventually, startReceiver, startWebhookStack } from './webhooks-support.ts';
import { createInlineQueue } from '../adapters/queue/inline/index.ts';
import { systemClock } from '../server/ports/clock.ts';
import { verifyWebhook } from '../clients/partner/src/webhooks.ts';

const backends = await storageBackends();
const ALL = ['payment.created', 'payment.processing', 'payment.succeeded', 'payment.failed', 'payment.expired', 'payment.cancelled', 'payment.refunded'];

/** Payments → dispatcher → outbox → inline queue → a real receiver on 127.0.0.1 (sandbox loopback allowance). */
describe.each(backends)('webhook delivery on $name', (backend) => {
  let t: TestApp;
  let stack: Awaited<ReturnType<typeof startWebhookStack>>;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const storage = await backend.open();
    dispose = storage.dispose;
    stack = await startWebhookStack(storage, { queue: createInlineQueue({ clock: systemClock }), schedule: [0, 300, 300, 300], concurrency: 8 });
    t = stack.t;
  });
  afterAll(async () => {
    await stack?.close();
    await dispose?.();
  });

  const endpoint = async (key: string, url: string, events = ALL) => {
    const r = await t.call('POST', '/v1/webhook-endpoints', { key, body: { url, enabledEvents: events } });
    expect(r.status).toBe(201);
    return r.body as { endpoint: { id: string }; secret: string };
  };

  it('signs Standard Webhooks deliveries that verify, and fail on a changed body or a stale timestamp', async () => {
    const rx = await startReceiver();
    const partner = await t.newPartner();
    const { secret } = await endpoint(partner.key, rx.url());
    const merchant = await payableMerchant(t, partner.key);
    const pay = await createPayment(t, partner.key, merchant);
    expect(await eventually(() => rx.received.length >= 1)).toBe(true);
    const got = rx.received[0]!;
    const event = new Webhook(secret).verify(got.body, got.headers) as {
      id: string;
      type: string;
      api_version: string;
      created_at: string;
      data: { paymentId: string; payment_state_version: number };
    };
    expect(event.type).toBe('payment.created');
    expect(event.id).toMatch(/^evt_/);
    expect(got.headers['webhook-id']).toBe(event.id);
    expect(event.api_version).toBe('2026-02-18');
    expect(event.data.paymentId).toBe(pay.body.paymentId);
    expect(event.data.payment_state_version).toBe(1);
    expect(() => new Webhook(secret).verify(got.body.replace('payment.created', 'payment.succeeded'), got.headers)).toThrow();
    expect((await verifyWebhook(got.headers, got.body, secret)).id).toBe(event.id);
    await expect(verifyWebhook(got.headers, `${got.body} `, secret)).rejects.toThrow(/signature/);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 6 * 60_000);
      expect(() => new Webhook(secret).verify(got.body, got.headers)).toThrow(/timestamp/i);
      await expect(verifyWebhook(got.headers, got.body, secret)).rejects.toThrow(/timestamp/);
    } finally {
      vi.useRealTimers();
    }
    await rx.stop();
  }, 30_000);

  it('signs with the old and the new secret after a rotation', async () => {
    const rx = await startReceiver();
    const partner = await t.newPartner();
    const created = await endpoint(partner.key, rx.url());
    const rotated = await t.call('POST', `/v1/webhook-endpoints/${created.endpoint.id}/rotate-secret`, { key: partner.key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.body.endpoint.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect((await t.call('POST', `/v1/webhook-endpoints/${created.endpoint.id}/test`, { key: partner.key })).status).toBe(202);
    expect(await eventually(() => rx.received.length >= 1)).toBe(true);
    const got = rx.received[0]!;
    expect(got.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect((new Webhook(created.secret).verify(got.body, got.headers) as { type: string }).type).toBe('webhook.test');
    expect(new Webhook(rotated.body.secret).verify(got.body, got.headers)).toBeTruthy();
    await rx.stop();
  }, 30_000);

  it('retries a failing receiver, records each attempt, and redelivers on request with the same webhook-id', async () => {
    const rx = await startReceiver((_r, n) => (n === 1 ? 500 : 200));
    const partner = await t.newPartner();
    const { endpoint: ep } = await endpoint(partner.key, rx.url(), ['payment.created']);
    await createPayment(t, partner.key, await payableMerchant(t, partner.key));
    expect(await eventually(() => rx.received.length >= 2)).toBe(true);
    expect(rx.received[1]!.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
    const list = await t.call('GET', `/v1/webhook-endpoints/${ep.id}/deliveries`, { key: partner.key });
    expect(await eventually(async () => (await t.call('GET', `/v1/webhook-endpoints/${ep.id}/deliveries`, { key: partner.key })).body.data[0].status === 'delivered')).toBe(true);
    const d = (await t.call('GET', `/v1/webhook-endpoints/${ep.id}/deliveries`, { key: partner.key })).body.data[0];
    expect(list.status).toBe(200);
    expect(d.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    expect(d.attemptCount).toBe(2);
    expect(typeof d.attempts[0].durationMs).toBe('number');
    const again = await t.call('POST', `/v1/webhook-endpoints/${ep.id}/events/${d.eventId}/redeliver`, { key: partner.key });
    expect(again.status).toBe(202);
    expect(await eventually(() => rx.received.length >= 3)).toBe(true);
    expect(rx.received[2]!.headers['webhook-id']).toBe(d.eventId);
    expect((await t.call('POST', `/v1/webhook-endpoints/${ep.id}/events/evt_nope/redeliver`, { key: partner.key })).status).toBe(404);
    await rx.stop();
  }, 30_000);

  it('disables an endpoint that answers 410 Gone, and does not follow redirects', async () => {
    const rx = await startReceiver((r) => (r.path === '/gone' ? 410 : r.path === '/moved' ? { status: 302, headers: { location: '/elsewhere' } } : 200));
    const partner = await t.newPartner();
    const gone = await endpoint(partner.key, rx.url('/gone'), ['payment.created']);
    const moved = await endpoint(partner.key, rx.url('/moved'), ['payment.created']);
    await createPayment(t, partner.key, await payableMerchant(t, partner.key));
    expect(await eventually(async () => (await t.call('GET', `/v1/webhook-endpoints/${gone.endpoint.id}`, { key: partner.key })).body.endpoint.enabled === false)).toBe(true);
    const ep = (await t.call('GET', `/v1/webhook-endpoints/${gone.endpoint.id}`, { key: partner.key })).body.endpoint;
    expect(ep.disabledReason).toBe('gone');
    expect(
      await eventually(async () => (await t.call('GET', `/v1/webhook-endpoints/${moved.endpoint.id}/deliveries`, { key: partner.key })).body.data[0]?.status === 'failed'),
    ).toBe(true);
    const movedDelivery = (await t.call('GET', `/v1/webhook-endpoints/${moved.endpoint.id}/deliveries`, { key: partner.key })).body.data[0];
    expect(movedDelivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([302, 302, 302, 302]);
    expect(rx.received.filter((r) => r.path === '/elsewhere')).toHaveLength(0);
    const goneDeliveries = (await t.call('GET', `/v1/webhook-endpoints/${gone.endpoint.id}/deliveries`, { key: partner.key })).body.data;
    expect(goneDeliveries[0].status).toBe('failed');
    // A disabled endpoint gets nothing more.
    const before = rx.received.filter((r) => r.path === '/gone').length;
    await createPayment(t, partner.key, await payableMerchant(t, partner.key));
    await stack.dispatcher.runOnce();
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.received.filter((r) => r.path === '/gone').length).toBe(before);
    await rx.stop();
  }, 30_000);
});
