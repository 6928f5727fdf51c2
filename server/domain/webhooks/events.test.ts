import { describe, expect, it } from 'vitest';
import { deliveryJob, envelopeOf, planDeliveries } from './events.ts';

const now = Date.parse('2026-11-24T10:00:00.000Z');
const event = (id: string, partnerId: string) => ({
  id,
  paymentId: `pay_${id}`,
  partnerId,
  type: 'payment.created',
  stateVersion: 1,
  createdAt: new Date(now - 1000),
  data: { paymentId: `pay_${id}` },
});

describe('webhook delivery plan', () => {
  it('makes one delivery per event and subscribed endpoint, in event order, and one job per endpoint that sends its deliveries in order', () => {
    const items = [
      { event: event('evt_1', 'ptr_a'), apiVersion: '2026-02-18', endpointIds: ['we_1', 'we_2'] },
      { event: event('evt_2', 'ptr_b'), apiVersion: '2026-02-19.preview', endpointIds: ['we_3'] },
      { event: event('evt_3', 'ptr_a'), apiVersion: '2026-02-18', endpointIds: ['we_1'] },
    ];
    const { deliveries, jobs } = planDeliveries(items, now);
    expect(deliveries.map((d) => [d.eventId, d.endpointId, d.partnerId])).toEqual([
      ['evt_1', 'we_1', 'ptr_a'],
      ['evt_1', 'we_2', 'ptr_a'],
      ['evt_2', 'we_3', 'ptr_b'],
      ['evt_3', 'we_1', 'ptr_a'],
    ]);
    expect(deliveries.map((d) => d.id)).toEqual([...deliveries.map((d) => d.id)].sort());
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(4);
    expect(deliveries[0]!.body).toBe(envelopeOf(items[0]!.event, '2026-02-18'));
    expect(deliveries[2]!.body).toBe(envelopeOf(items[1]!.event, '2026-02-19.preview'));
    for (const d of deliveries) expect(d.createdAt).toEqual(new Date(now));
    const [a, b, c, d] = deliveries.map((x) => x.id);
    expect(jobs.map((j) => [j.type, j.payload, j.runAt])).toEqual([
      ['webhook.deliver', { endpointId: 'we_1', deliveryIds: [a, d] }, new Date(now)],
      ['webhook.deliver', { endpointId: 'we_2', deliveryIds: [b] }, new Date(now)],
      ['webhook.deliver', { endpointId: 'we_3', deliveryIds: [c] }, new Date(now)],
    ]);
    expect(new Set(jobs.map((j) => j.id)).size).toBe(3);
    expect(planDeliveries([], now)).toEqual({ deliveries: [], jobs: [] });
  });

  it('sends each version only what it declares: payment.reversed and `finality` from 2026-11-27, neither before', () => {
    const reversed = { ...event('evt_r', 'ptr_a'), type: 'payment.reversed', data: { paymentId: 'pay_r', status: 'succeeded', finality: 'reversed', payment_state_version: 4 } };
    const succeeded = { ...event('evt_s', 'ptr_a'), type: 'payment.succeeded', data: { paymentId: 'pay_s', status: 'succeeded', finality: 'pending', payment_state_version: 3 } };
    for (const old of ['2026-02-18', '2026-02-19.preview']) {
      const plan = planDeliveries(
        [
          { event: reversed, apiVersion: old, endpointIds: ['we_1'] },
          { event: succeeded, apiVersion: old, endpointIds: ['we_1'] },
        ],
        now,
      );
      expect(plan.deliveries.map((d) => d.eventType)).toEqual(['payment.succeeded']);
      expect(JSON.parse(plan.deliveries[0]!.body)).toEqual({
        id: 'evt_s',
        type: 'payment.succeeded',
        api_version: old,
        created_at: new Date(now - 1000).toISOString(),
        data: { paymentId: 'pay_s', status: 'succeeded', payment_state_version: 3 },
      });
    }
    const plan = planDeliveries([{ event: reversed, apiVersion: '2026-11-27', endpointIds: ['we_2'] }], now);
    expect(plan.deliveries.map((d) => JSON.parse(d.body) as unknown)).toEqual([
      expect.objectContaining({ type: 'payment.reversed', api_version: '2026-11-27', data: reversed.data }),
    ]);
  });

  it('sends a redelivery at once, naming it and its endpoint', () => {
    const d = { id: 'whdl_x', endpointId: 'we_9', createdAt: new Date(now) };
    expect(deliveryJob(d)).toEqual({
      id: expect.stringMatching(/^job_/) as unknown,
      type: 'webhook.deliver',
      payload: { deliveryId: 'whdl_x', endpointId: 'we_9' },
      runAt: new Date(now),
    });
  });
});
