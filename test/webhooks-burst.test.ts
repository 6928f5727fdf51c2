import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { redisAvailable, redisUrl } from './helpers/services.ts';
import type { TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { eventually, startReceiver, startWebhookStack } from './webhooks-support.ts';
import { createInlineQueue } from '../adapters/queue/inline/index.ts';
import { createBullmqQueue } from '../adapters/queue/bullmq/index.ts';
import { systemClock } from '../server/ports/clock.ts';
import type { QueuePort } from '../server/ports/queue.ts';
import type { StoragePort } from '../server/ports/storage/index.ts';

const backends = await storageBackends();
const withRedis = await redisAvailable();
// PGlite with the in-process queue (the embedded default) and PostgreSQL with BullMQ (the scaled one).
const cases: Array<{ label: string; backend: (typeof backends)[number]; make: () => QueuePort }> = [
  { label: 'pglite + inline', backend: backends[0]!, make: () => createInlineQueue({ clock: systemClock }) },
];
if (backends[1] && withRedis)
  cases.push({ label: 'postgresql + bullmq', backend: backends[1], make: () => createBullmqQueue({ redisUrl, queueName: `webhooks-burst-${process.pid}-${Date.now()}` }) });

const BURST = 1000;

/** At least once, nothing lost: a receiver that is down through a burst gets every event once it is back. */
describe.each(cases)('webhook burst with the receiver down on $label', ({ backend, make }) => {
  let t: TestApp;
  let storage: StoragePort;
  let stack: Awaited<ReturnType<typeof startWebhookStack>>;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const s = await backend.open();
    storage = s;
    dispose = s.dispose;
    stack = await startWebhookStack(storage, { queue: make(), schedule: [0, 1000, 1000, 2000, 2000, 5000, 5000, 5000], concurrency: 16 });
    t = stack.t;
  });
  afterAll(async () => {
    await stack?.close();
    await dispose?.();
  });

  it(`delivers all ${BURST} events after the receiver comes back`, async () => {
    const rx = await startReceiver();
    await rx.stop();
    const partner = await t.newPartner();
    const ep = await t.call('POST', '/v1/webhook-endpoints', { key: partner.key, body: { url: rx.url(), enabledEvents: ['payment.created'] } });
    const merchant = await payableMerchant(t, partner.key);
    const paymentIds: string[] = [];
    const started = Date.now();
    for (let i = 0; i < BURST; i += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, BURST - i) }, () => createPayment(t, partner.key, merchant)));
      for (const p of batch) {
        expect(p.status).toBe(201);
        paymentIds.push(p.body.paymentId as string);
      }
    }
    if (process.env.TEST_LOG) console.log(`burst of ${BURST} created in ${Date.now() - started} ms`);
    // Let attempts fail against the closed port before it comes back.
    const failedSome = await eventually(async () => {
      const page = await storage.webhooks.listDeliveries(partner.id, ep.body.endpoint.id, { limit: BURST });
      return page.filter((d) => d.attempts.some((a) => a.statusCode === null)).length >= 50;
    }, 30_000);
    expect(failedSome).toBe(true);
    await rx.restart();
    const expected = new Set<string>();
    for (const id of paymentIds) for (const e of await storage.payments.events(id)) expected.add(e.id);
    expect(expected.size).toBe(BURST);
    const seen = () => new Set(rx.received.map((r) => r.headers['webhook-id']));
    const all = await eventually(() => [...expected].every((id) => seen().has(id)), 90_000);
    expect([...expected].filter((id) => !seen().has(id))).toEqual([]);
    expect(all).toBe(true);
    // Duplicates are possible (at least once) but every one carries an event id the receiver can dedupe on.
    expect([...seen()].every((id) => expected.has(id!))).toBe(true);
    await rx.stop();
  }, 180_000);
});
