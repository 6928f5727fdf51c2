import { describe, expect, it } from 'vitest';
import type { WebhookDeliveryPlan, WebhookDispatchItem } from '../../../server/domain/webhooks/records.ts';
import { deliveryJob, newDeliveryId } from '../../../server/domain/webhooks/events.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';
import { endpointOf, paymentFixtures } from './payment-fixtures.ts';

/**
 * WebhookRepository.dispatchPending on every adapter: which events it claims, what it hands the
 * plan, and that it writes the plan's deliveries and jobs with the claim, all or nothing. On a
 * store of its own: a claim takes every undispatched event in the store.
 */
export function runWebhookDispatchConformance(name: string, open: OpenStore): void {
  describe(`webhook dispatch conformance: ${name}`, () => {
    const store = useStore(open);
    const f = paymentFixtures(() => store.s);
    const now = new Date(t0.getTime() + 3_600_000);
    const nothing = (): WebhookDeliveryPlan => ({ deliveries: [], jobs: [] });
    /** A plan of one delivery and job per endpoint, remembering what it was handed. */
    function recording() {
      const seen: WebhookDispatchItem[][] = [];
      const plan = (items: WebhookDispatchItem[]): WebhookDeliveryPlan => {
        seen.push(items);
        const deliveries = items.flatMap(({ event, apiVersion, endpointIds }) =>
          endpointIds.map((endpointId) => ({
            id: newDeliveryId(now.getTime()),
            endpointId,
            partnerId: event.partnerId,
            eventId: event.id,
            eventType: event.type,
            body: `${apiVersion}:${event.id}`,
            createdAt: now,
          })),
        );
        return { deliveries, jobs: deliveries.map(deliveryJob) };
      };
      return { seen, plan };
    }
    const drain = async () => {
      while ((await store.s.webhooks.dispatchPending(500, now, nothing)).events > 0);
    };

    it('claims each event once across concurrent claims, hands over only subscribed live endpoints, and writes their deliveries and jobs', async () => {
      await drain();
      const [a, b, c] = [await f.partner('2026-02-18'), await f.partner('2026-02-19.preview'), await f.partner()];
      const sub = endpointOf(a.id, { enabledEvents: ['payment.created', 'payment.succeeded'] }, t0.getTime() + 1);
      const off = endpointOf(a.id, { enabled: false, disabledReason: 'gone' }, t0.getTime() + 2);
      const gone = endpointOf(a.id, {}, t0.getTime() + 3);
      const refundsOnly = endpointOf(a.id, { enabledEvents: ['payment.refunded'] }, t0.getTime() + 4);
      const [bSub, bSub2] = [endpointOf(b.id, {}, t0.getTime() + 5), endpointOf(b.id, {}, t0.getTime() + 6)];
      for (const e of [sub, off, gone, refundsOnly, bSub, bSub2]) await store.s.webhooks.createEndpoint(e);
      await store.s.webhooks.deleteEndpoint(a.id, gone.id, t0);
      const ma = await f.merchant(a.id);
      const [a1, a2] = [await f.stored(ma), await f.stored(ma)];
      await f.move(a2.id, 'succeeded', { succeededAt: t0 });
      const b1 = await f.stored(await f.merchant(b.id));
      await f.stored(await f.merchant(c.id));
      const events = async (id: string) => store.s.payments.events(id);
      const expected = [...(await events(a1.id)), ...(await events(a2.id)), ...(await events(b1.id))];
      const r = recording();
      const results = await Promise.all([store.s.webhooks.dispatchPending(3, now, r.plan), store.s.webhooks.dispatchPending(3, now, r.plan)]);
      expect(results.reduce((n, x) => n + x.events, 0)).toBe(5);
      expect(results.reduce((n, x) => n + x.deliveries, 0)).toBe(5);
      const items = r.seen.flat();
      expect(new Set(items.map((i) => i.event.id)).size).toBe(items.length);
      const byEvent = new Map(items.map((i) => [i.event.id, i]));
      expect(items.map((i) => i.event).sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([...expected].sort((x, y) => (x.id < y.id ? -1 : 1)));
      for (const e of expected) {
        const item = byEvent.get(e.id)!;
        expect(item.apiVersion).toBe(e.partnerId === a.id ? '2026-02-18' : '2026-02-19.preview');
        expect([...item.endpointIds].sort()).toEqual(e.partnerId === a.id ? [sub.id] : [bSub.id, bSub2.id].sort());
      }
      const written = [
        ...(await store.s.webhooks.listDeliveries(a.id, sub.id, { limit: 10 })),
        ...(await store.s.webhooks.listDeliveries(b.id, bSub.id, { limit: 10 })),
        ...(await store.s.webhooks.listDeliveries(b.id, bSub2.id, { limit: 10 })),
      ];
      expect(written.map((d) => d.eventId).sort()).toEqual(
        [...expected.filter((e) => e.partnerId === a.id), ...expected.filter((e) => e.partnerId === b.id), ...expected.filter((e) => e.partnerId === b.id)].map((e) => e.id).sort(),
      );
      for (const d of written)
        expect(d).toMatchObject({
          status: 'pending',
          attemptCount: 0,
          attempts: [],
          createdAt: now,
          body: `${d.partnerId === a.id ? '2026-02-18' : '2026-02-19.preview'}:${d.eventId}`,
        });
      const jobs = await store.s.jobs.claimUnrelayed(100, now);
      const deliverJobs = jobs.filter((j) => j.type === 'webhook.deliver');
      expect(deliverJobs.map((j) => j.payload.deliveryId).sort()).toEqual(written.map((d) => d.id).sort());
      for (const j of deliverJobs) expect(j).toMatchObject({ createdAt: now, runAt: now, payload: { endpointId: written.find((d) => d.id === j.payload.deliveryId)?.endpointId } });
      // Every event is marked dispatched, those nobody subscribed to included.
      const after = recording();
      expect(await store.s.webhooks.dispatchPending(100, now, after.plan)).toEqual({ events: 0, deliveries: 0 });
      expect(after.seen).toEqual([]);
    });

    it('claims the oldest events first', async () => {
      await drain();
      const p = await f.partner();
      await store.s.webhooks.createEndpoint(endpointOf(p.id));
      const m = await f.merchant(p.id);
      const made = [];
      for (let i = 3; i > 0; i--) made.push(await f.stored(m, { at: t0.getTime() - i * 1000 }));
      const r = recording();
      for (let i = 0; i < 3; i++) expect(await store.s.webhooks.dispatchPending(1, now, r.plan)).toEqual({ events: 1, deliveries: 1 });
      expect(r.seen.map((items) => items.map((x) => x.event.paymentId))).toEqual(made.map((x) => [x.id]));
    });

    it('writes nothing when the plan fails: the events stay undispatched', async () => {
      await drain();
      const p = await f.partner();
      const e = endpointOf(p.id);
      await store.s.webhooks.createEndpoint(e);
      const pay = await f.stored(await f.merchant(p.id));
      let planned: WebhookDeliveryPlan | undefined;
      const failing = (items: WebhookDispatchItem[]) => {
        planned = recording().plan(items);
        // A job the store cannot take (no valid time): the deliveries written before it go too.
        return { deliveries: planned.deliveries, jobs: [...planned.jobs, { ...planned.jobs[0]!, runAt: new Date(Number.NaN) }] };
      };
      await expect(store.s.webhooks.dispatchPending(10, now, failing)).rejects.toThrow();
      expect(await store.s.webhooks.getDelivery(planned!.deliveries[0]!.id)).toBeNull();
      await expect(
        store.s.webhooks.dispatchPending(10, now, () => {
          throw new Error('plan failed');
        }),
      ).rejects.toThrow('plan failed');
      const r = recording();
      expect(await store.s.webhooks.dispatchPending(10, now, r.plan)).toEqual({ events: 1, deliveries: 1 });
      expect(r.seen.flat().map((i) => i.event.paymentId)).toEqual([pay.id]);
    });
  });
}
