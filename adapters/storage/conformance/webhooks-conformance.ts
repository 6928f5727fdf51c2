import { describe, expect, it } from 'vitest';
import { runInTrace } from '../../../server/domain/trace-context.ts';
import type { PaymentEventRecord } from '../../../server/domain/payments/records.ts';
import type { NewWebhookDelivery, WebhookEndpointRecord } from '../../../server/domain/webhooks/records.ts';
import { newId } from '../../../server/domain/ids.ts';
import { deliveryJob, newDeliveryId } from '../../../server/domain/webhooks/events.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';
import { endpointOf, paymentFixtures } from './payment-fixtures.ts';

/**
 * WebhookRepository on every adapter: endpoints and their tenancy, deliveries and their attempts
 * (the dispatcher's claim has a suite of its own: webhook-dispatch-conformance.ts). Each adapter's test file calls this with a
 * factory for a fresh, empty store.
 */
export function runWebhookConformance(name: string, open: OpenStore): void {
  describe(`webhook repository conformance: ${name}`, () => {
    const store = useStore(open);
    const f = paymentFixtures(() => store.s);

    it('keeps endpoints within their partner: create, get, list newest first, update, soft delete', async () => {
      const [p, other] = [await f.partner(), await f.partner()];
      const [a, b] = [endpointOf(p.id, {}, t0.getTime() + 1), endpointOf(p.id, { enabledEvents: ['payment.succeeded', 'payment.failed'] }, t0.getTime() + 2)];
      for (const e of [a, b]) await store.s.webhooks.createEndpoint(e);
      expect(await store.s.webhooks.getEndpoint(p.id, a.id)).toEqual(a);
      expect(await store.s.webhooks.getEndpoint(other.id, a.id)).toBeNull();
      expect(await store.s.webhooks.listEndpoints(p.id)).toEqual([b, a]);
      expect(await store.s.webhooks.listEndpoints(other.id)).toEqual([]);
      const later = new Date(t0.getTime() + 1000);
      expect(await store.s.webhooks.updateEndpoint(other.id, a.id, { enabled: false, updatedAt: later })).toBeNull();
      const rotated = { secret: 'whsec_y', previousSecret: 'whsec_x', previousSecretExpiresAt: later, updatedAt: later };
      expect(await store.s.webhooks.updateEndpoint(p.id, a.id, rotated)).toEqual({ ...a, ...rotated });
      const off = { enabled: false, disabledReason: 'gone', url: 'https://hooks.example.com/v2', enabledEvents: ['payment.refunded'], updatedAt: later };
      expect(await store.s.webhooks.updateEndpoint(p.id, a.id, off)).toEqual({ ...a, ...rotated, ...off });
      expect(await store.s.webhooks.deleteEndpoint(other.id, a.id, later)).toBe(false);
      expect(await store.s.webhooks.deleteEndpoint(p.id, a.id, later)).toBe(true);
      expect(await store.s.webhooks.deleteEndpoint(p.id, a.id, later)).toBe(false);
      expect(await store.s.webhooks.getEndpoint(p.id, a.id)).toBeNull();
      expect(await store.s.webhooks.listEndpoints(p.id)).toEqual([b]);
      expect(await store.s.webhooks.updateEndpoint(p.id, a.id, { enabled: true, updatedAt: later })).toBeNull();
      // The delivery side still finds it, deleted and switched off.
      expect(await store.s.webhooks.getEndpointById(a.id)).toEqual({ ...a, ...rotated, ...off, enabled: false, deletedAt: later });
      expect(await store.s.webhooks.getEndpointById(b.id)).toEqual(b);
      expect(await store.s.webhooks.getEndpointById('we_missing')).toBeNull();
    });

    it('creates endpoints within the limit of live ones when creates race, for each partner alone', async () => {
      const [p, q] = [await f.partner(), await f.partner()];
      const made = await Promise.all([p, q, p, q, p, q, p, q, p, q].map((x) => store.s.webhooks.createEndpointWithinLimit(endpointOf(x.id), 3)));
      expect(made.filter(Boolean)).toHaveLength(6);
      expect((await store.s.webhooks.listEndpoints(p.id)).length).toBe(3);
      expect((await store.s.webhooks.listEndpoints(q.id)).length).toBe(3);
      const refused = endpointOf(p.id);
      expect(await store.s.webhooks.createEndpointWithinLimit(refused, 3)).toBe(false);
      expect(await store.s.webhooks.getEndpointById(refused.id)).toBeNull();
      const [gone] = await store.s.webhooks.listEndpoints(p.id);
      await store.s.webhooks.deleteEndpoint(p.id, gone!.id, t0);
      const room = endpointOf(p.id);
      expect(await store.s.webhooks.createEndpointWithinLimit(room, 3)).toBe(true);
      expect(await store.s.webhooks.getEndpoint(p.id, room.id)).toEqual(room);
    });

    /** A partner's payment event and an endpoint of its partner. */
    async function eventAndEndpoint() {
      const p = await f.partner();
      const pay = await f.stored(await f.merchant(p.id));
      const event = (await store.s.payments.events(pay.id))[0]!;
      const e = endpointOf(p.id);
      await store.s.webhooks.createEndpoint(e);
      return { p, event, e };
    }
    const deliveryOf = (e: WebhookEndpointRecord, event: PaymentEventRecord, atMs: number): NewWebhookDelivery => ({
      id: newDeliveryId(atMs),
      endpointId: e.id,
      partnerId: e.partnerId,
      eventId: event.id,
      eventType: event.type,
      body: `{"n":${atMs}}`,
      createdAt: new Date(atMs),
      traceId: null,
      paymentId: event.paymentId,
    });

    it('finds a payment event only within its partner', async () => {
      const { p, event } = await eventAndEndpoint();
      const other = await f.partner();
      expect(await store.s.webhooks.getEvent(p.id, event.id)).toEqual(event);
      expect(await store.s.webhooks.getEvent(other.id, event.id)).toBeNull();
      expect(await store.s.webhooks.getEvent(p.id, 'evt_missing')).toBeNull();
    });

    it('writes a delivery with the job given, pending and unattempted', async () => {
      const { event, e } = await eventAndEndpoint();
      const d = deliveryOf(e, event, t0.getTime() + 10);
      const job = deliveryJob(d);
      await store.s.webhooks.createDelivery(d, job);
      expect(await store.s.webhooks.getDelivery(d.id)).toEqual({
        ...d,
        status: 'pending',
        attemptCount: 0,
        lastStatusCode: null,
        nextAttemptAt: null,
        deliveredAt: null,
        attempts: [],
      });
      expect(await store.s.jobs.get(job.id)).toEqual({ ...job, createdAt: d.createdAt, relayedAt: null, completedAt: null, attempts: 0, lastError: null, traceId: null });
      expect(await store.s.webhooks.getDelivery('whdl_missing')).toBeNull();
      // One unit: a delivery that cannot be written leaves no job behind.
      const again = { ...deliveryJob(d), id: newId('job') };
      await expect(store.s.webhooks.createDelivery(d, again)).rejects.toThrow();
      expect(await store.s.jobs.get(again.id)).toBeNull();
    });

    it("writes a delivery and its job in the writer's trace, unless the delivery names its own", async () => {
      const { event, e } = await eventAndEndpoint();
      const { traceId: _, ...unset } = deliveryOf(e, event, t0.getTime() + 40);
      const job = deliveryJob(unset);
      await runInTrace({ traceId: 'trace-redeliver' }, () => store.s.webhooks.createDelivery(unset, job));
      expect(await store.s.webhooks.getDelivery(unset.id)).toMatchObject({ traceId: 'trace-redeliver', paymentId: event.paymentId });
      expect((await store.s.jobs.get(job.id))?.traceId).toBe('trace-redeliver');
      const own = { ...deliveryOf(e, event, t0.getTime() + 41), traceId: 'trace-event' };
      await runInTrace({ traceId: 'other' }, () => store.s.webhooks.createDelivery(own, deliveryJob(own)));
      expect((await store.s.webhooks.getDeliveryToSend(own.id))?.delivery).toMatchObject({ traceId: 'trace-event', paymentId: event.paymentId });
    });

    it('records each attempt once and in turn, and none once the delivery is settled', async () => {
      const { event, e } = await eventAndEndpoint();
      const [ok, failed] = [deliveryOf(e, event, t0.getTime() + 20), deliveryOf(e, event, t0.getTime() + 21)];
      for (const d of [ok, failed]) await store.s.webhooks.createDelivery(d, deliveryJob(d));
      const attempt = (n: number, statusCode: number | null, ms = 0) => ({
        attempt: n,
        at: new Date(t0.getTime() + 1000 * n + ms),
        statusCode,
        durationMs: 12 * n,
        error: statusCode ? null : 'timeout',
      });
      const retryAt = new Date(t0.getTime() + 60_000);
      expect(await store.s.webhooks.recordAttempt(ok.id, attempt(1, null), { status: 'pending', nextAttemptAt: retryAt })).toBe(true);
      expect(await store.s.webhooks.recordAttempt(ok.id, attempt(1, 500), { status: 'pending', nextAttemptAt: retryAt })).toBe(false);
      expect(await store.s.webhooks.recordAttempt(ok.id, attempt(3, 500), { status: 'pending', nextAttemptAt: retryAt })).toBe(false);
      expect(await store.s.webhooks.getDelivery(ok.id)).toMatchObject({
        status: 'pending',
        attemptCount: 1,
        lastStatusCode: null,
        nextAttemptAt: retryAt,
        deliveredAt: null,
        attempts: [attempt(1, null)],
      });
      expect(await store.s.webhooks.recordAttempt(ok.id, attempt(2, 204), { status: 'delivered', nextAttemptAt: null })).toBe(true);
      expect(await store.s.webhooks.recordAttempt(ok.id, attempt(3, 204), { status: 'delivered', nextAttemptAt: null })).toBe(false);
      expect(await store.s.webhooks.getDelivery(ok.id)).toEqual({
        ...ok,
        status: 'delivered',
        attemptCount: 2,
        lastStatusCode: 204,
        nextAttemptAt: null,
        deliveredAt: attempt(2, 204).at,
        attempts: [attempt(1, null), attempt(2, 204)],
      });
      expect(await store.s.webhooks.recordAttempt(failed.id, attempt(1, 500), { status: 'failed', nextAttemptAt: null })).toBe(true);
      expect(await store.s.webhooks.recordAttempt(failed.id, attempt(2, 200), { status: 'delivered', nextAttemptAt: null })).toBe(false);
      expect(await store.s.webhooks.getDelivery(failed.id)).toMatchObject({
        status: 'failed',
        attemptCount: 1,
        lastStatusCode: 500,
        deliveredAt: null,
        attempts: [attempt(1, 500)],
      });
      expect(await store.s.webhooks.recordAttempt('whdl_missing', attempt(1, 200), { status: 'delivered', nextAttemptAt: null })).toBe(false);
    });

    it('purges settled deliveries made before a time with their attempts, oldest first and bounded; pending ones and later ones stay', async () => {
      const { event, e } = await eventAndEndpoint();
      const day = 86_400_000;
      const old = (i: number) => deliveryOf(e, event, t0.getTime() - 10 * day + i);
      const [delivered1, failed, delivered2, pending] = [old(1), old(2), old(3), old(4)];
      const recent = deliveryOf(e, event, t0.getTime() - day);
      for (const d of [delivered1, failed, delivered2, pending, recent]) await store.s.webhooks.createDelivery(d, deliveryJob(d));
      const tried = (d: NewWebhookDelivery, code: number) => ({ attempt: 1, at: new Date(d.createdAt.getTime() + 10), statusCode: code, durationMs: 5, error: null });
      await store.s.webhooks.recordAttempt(delivered1.id, tried(delivered1, 200), { status: 'delivered', nextAttemptAt: null });
      await store.s.webhooks.recordAttempt(failed.id, tried(failed, 500), { status: 'failed', nextAttemptAt: null });
      await store.s.webhooks.recordAttempt(delivered2.id, tried(delivered2, 204), { status: 'delivered', nextAttemptAt: null });
      await store.s.webhooks.recordAttempt(pending.id, tried(pending, 503), { status: 'pending', nextAttemptAt: new Date(t0.getTime()) });
      await store.s.webhooks.recordAttempt(recent.id, tried(recent, 200), { status: 'delivered', nextAttemptAt: null });
      const cutoff = new Date(t0.getTime() - 5 * day);
      expect(await store.s.webhooks.purgeSettledDeliveries(cutoff, 2)).toBe(2);
      expect(await store.s.webhooks.getDelivery(delivered1.id)).toBeNull();
      expect(await store.s.webhooks.getDelivery(failed.id)).toBeNull();
      expect(await store.s.webhooks.getDelivery(delivered2.id)).toMatchObject({ status: 'delivered', attempts: [tried(delivered2, 204)] });
      expect(await store.s.webhooks.purgeSettledDeliveries(cutoff, 2)).toBe(1);
      expect(await store.s.webhooks.purgeSettledDeliveries(cutoff, 2)).toBe(0);
      expect(await store.s.webhooks.getDelivery(delivered2.id)).toBeNull();
      expect(await store.s.webhooks.getDelivery(pending.id)).toMatchObject({ status: 'pending', attempts: [tried(pending, 503)] });
      expect(await store.s.webhooks.getDelivery(recent.id)).toMatchObject({ status: 'delivered' });
      // The listing no longer shows them; the event itself stays, so it can still be redelivered.
      expect((await store.s.webhooks.listDeliveries(e.partnerId, e.id, { limit: 50 })).map((d) => d.id)).toEqual(
        expect.not.arrayContaining([delivered1.id, failed.id, delivered2.id]),
      );
      expect(await store.s.webhooks.getEvent(e.partnerId, event.id)).toEqual(event);
    });

    it('reads a delivery to send with its endpoint, deleted or gone ones included', async () => {
      const { p, event, e } = await eventAndEndpoint();
      const d = deliveryOf(e, event, t0.getTime() + 30);
      await store.s.webhooks.createDelivery(d, deliveryJob(d));
      const pending = { ...d, status: 'pending', attemptCount: 0, lastStatusCode: null, nextAttemptAt: null, deliveredAt: null };
      const rotated = { previousSecret: 'whsec_old', previousSecretExpiresAt: new Date(t0.getTime() + 5000), updatedAt: new Date(t0.getTime() + 1000) };
      await store.s.webhooks.updateEndpoint(p.id, e.id, rotated);
      // Asked at once, as concurrent jobs do: the answers are each one's own.
      const [got, missing] = await Promise.all([store.s.webhooks.getDeliveryToSend(d.id), store.s.webhooks.getDeliveryToSend('whdl_missing')]);
      expect(got).toEqual({ delivery: pending, endpoint: { ...e, ...rotated } });
      expect(missing).toBeNull();
      await store.s.webhooks.deleteEndpoint(p.id, e.id, new Date(t0.getTime() + 2000));
      expect((await store.s.webhooks.getDeliveryToSend(d.id))?.endpoint).toMatchObject({ id: e.id, enabled: false, deletedAt: new Date(t0.getTime() + 2000) });
    });

    it('records concurrent attempts each once: distinct deliveries all, one delivery’s same attempt exactly once', async () => {
      const { event, e } = await eventAndEndpoint();
      const ds = Array.from({ length: 6 }, (_, i) => deliveryOf(e, event, t0.getTime() + 40 + i));
      for (const d of ds) await store.s.webhooks.createDelivery(d, deliveryJob(d));
      const at = new Date(t0.getTime() + 3000);
      const tried = (code: number) => ({ attempt: 1, at, statusCode: code, durationMs: 3, error: null });
      const results = await Promise.all([
        ...ds.map((d) => store.s.webhooks.recordAttempt(d.id, tried(200), { status: 'delivered', nextAttemptAt: null })),
        store.s.webhooks.recordAttempt(ds[0]!.id, tried(500), { status: 'pending', nextAttemptAt: at }),
        store.s.webhooks.recordAttempt(ds[0]!.id, tried(502), { status: 'pending', nextAttemptAt: at }),
      ]);
      expect(results.slice(1, 6)).toEqual([true, true, true, true, true]);
      expect(results.filter((r, i) => r && (i === 0 || i >= 6))).toHaveLength(1);
      for (const d of ds.slice(1)) expect(await store.s.webhooks.getDelivery(d.id)).toMatchObject({ status: 'delivered', deliveredAt: at, attempts: [tried(200)] });
      const first = await store.s.webhooks.getDelivery(ds[0]!.id);
      expect(first?.attempts).toHaveLength(1);
      expect(first?.lastStatusCode).toBe(first?.attempts[0]?.statusCode);
    });

    it('lists an endpoint’s deliveries newest first with their attempts, a page at a time, within its partner', async () => {
      const { p, event, e } = await eventAndEndpoint();
      const other = endpointOf(p.id);
      await store.s.webhooks.createEndpoint(other);
      const ds = Array.from({ length: 7 }, (_, i) => deliveryOf(e, event, t0.getTime() + 100 + i));
      for (const d of [...ds, deliveryOf(other, event, t0.getTime() + 200)]) await store.s.webhooks.createDelivery(d, deliveryJob(d));
      const tried = { attempt: 1, at: t0, statusCode: 503, durationMs: 5, error: null };
      await store.s.webhooks.recordAttempt(ds[2]!.id, tried, { status: 'pending', nextAttemptAt: t0 });
      const newestFirst = [...ds].reverse().map((d) => d.id);
      const seen: string[] = [];
      let beforeId: string | undefined;
      for (let page = 0; page < 4; page++) {
        const got = await store.s.webhooks.listDeliveries(p.id, e.id, { limit: 3, ...(beforeId ? { beforeId } : {}) });
        seen.push(...got.map((d) => d.id));
        beforeId = got.at(-1)?.id;
        if (got.length < 3) break;
      }
      expect(seen).toEqual(newestFirst);
      const all = await store.s.webhooks.listDeliveries(p.id, e.id, { limit: 10 });
      expect(all.find((d) => d.id === ds[2]!.id)).toMatchObject({ attemptCount: 1, lastStatusCode: 503, attempts: [tried] });
      expect(all.find((d) => d.id === ds[3]!.id)?.attempts).toEqual([]);
      expect(await store.s.webhooks.listDeliveries((await f.partner()).id, e.id, { limit: 10 })).toEqual([]);
    });
  });
}
