import { describe, expect, it } from 'vitest';
import type { WebhookDeliveryPlan, WebhookDispatchItem } from '../../../server/domain/webhooks/records.ts';
import { deliveryJob, newDeliveryId, planDeliveries } from '../../../server/domain/webhooks/events.ts';
import { runInTrace } from '../../../server/domain/trace-context.ts';
import { newId } from '../../../server/domain/ids.ts';
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

    it("keeps the trace of the change that wrote an event, and its jobs, for the plan's deliveries and jobs", async () => {
      await drain();
      const p = await f.partner();
      const all = endpointOf(p.id, { enabledEvents: ['payment.created', 'payment.succeeded'] }, t0.getTime() + 1);
      const succeededOnly = endpointOf(p.id, { enabledEvents: ['payment.succeeded'] }, t0.getTime() + 2);
      for (const e of [all, succeededOnly]) await store.s.webhooks.createEndpoint(e);
      const m = await f.merchant(p.id);
      const first = await runInTrace({ traceId: 'trace-create' }, () => f.stored(m));
      await runInTrace({ traceId: 'trace-move' }, () => f.move(first.id, 'succeeded', { succeededAt: t0 }));
      // Creates of two traces at once share one batched statement: each keeps its own trace.
      const [x, y] = [f.payment(m), f.payment(m)];
      const jobOf = (id: string) => ({ id, type: 'noop.test', payload: {}, runAt: t0 });
      const [jx, jy] = [jobOf(newId('job')), jobOf(newId('job'))];
      const made = await Promise.all([runInTrace({ traceId: 'trace-x' }, () => f.create(x, [jx])), runInTrace({ traceId: 'trace-y' }, () => f.create(y, [jy]))]);
      expect(made).toEqual([{ ok: true }, { ok: true }]);
      expect((await store.s.jobs.get(jx.id))?.traceId).toBe('trace-x');
      expect((await store.s.jobs.get(jy.id))?.traceId).toBe('trace-y');
      const untraced = await f.stored(m);
      const traceOfEvents = async (id: string) => (await store.s.payments.events(id)).map((e) => [e.type, e.traceId]);
      expect(await traceOfEvents(first.id)).toEqual([
        ['payment.created', 'trace-create'],
        ['payment.succeeded', 'trace-move'],
      ]);
      expect(await traceOfEvents(y.id)).toEqual([['payment.created', 'trace-y']]);
      expect(await traceOfEvents(untraced.id)).toEqual([['payment.created', null]]);
      let plan: WebhookDeliveryPlan | undefined;
      // Dispatched from inside another trace (a nudge from a request): the rows keep their events'.
      await runInTrace({ traceId: 'trace-nudge' }, () => store.s.webhooks.dispatchPending(100, now, (items) => (plan = planDeliveries(items, now.getTime()))));
      const traceOfDelivery = async (d: { id: string }) => {
        const got = await store.s.webhooks.getDelivery(d.id);
        return [got?.eventType, got?.paymentId, got?.traceId];
      };
      const toAll = plan!.deliveries.filter((d) => d.endpointId === all.id);
      const byKey = (r: unknown[]) => r.join(' ');
      const expected = [
        ['payment.created', first.id, 'trace-create'],
        ['payment.succeeded', first.id, 'trace-move'],
        ['payment.created', x.id, 'trace-x'],
        ['payment.created', y.id, 'trace-y'],
        ['payment.created', untraced.id, null],
      ];
      expect((await Promise.all(toAll.map(traceOfDelivery))).sort((l, r) => (byKey(l) < byKey(r) ? -1 : 1))).toEqual(expected.sort((l, r) => (byKey(l) < byKey(r) ? -1 : 1)));
      const jobTrace = async (endpointId: string) => (await store.s.jobs.get(plan!.jobs.find((j) => j.payload.endpointId === endpointId)!.id))?.traceId;
      // A batch of several traces is in none; one of a single trace is in it.
      expect(await jobTrace(all.id)).toBeNull();
      expect(await jobTrace(succeededOnly.id)).toBe('trace-move');
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
