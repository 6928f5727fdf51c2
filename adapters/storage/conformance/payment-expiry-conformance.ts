import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import type { MerchantRecord } from '../../../server/domain/merchants/records.ts';
import type { PaymentRecord } from '../../../server/domain/payments/records.ts';
import type { ExpiredEvent } from '../../../server/ports/storage/payments.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';
import { paymentFixtures } from './payment-fixtures.ts';

/**
 * `PaymentRepository.expireDue` on every adapter: the expiry sweep's unit (server/jobs/expiry-sweep.ts).
 * Sweeps in several processes at once, and a unit skipping a payment another holds, are shown
 * against real processes in server/jobs/expiry-sweep.test.ts.
 */
export function runPaymentExpiryConformance(name: string, open: OpenStore): void {
  describe(`payment expiry conformance: ${name}`, () => {
    const store = useStore(open);
    const f = paymentFixtures(() => store.s);

    it('expires due payments still requiring action, earliest first, up to the limit, each with its own event, and names the next deadline', async () => {
      const p = await f.partner();
      const m = await f.merchant(p.id, { name: 'Expiry shop' });
      const start = t0.getTime() + 86_400_000;
      const at = (ms: number) => new Date(start + ms);
      const stored = async (deadlineMs: number): Promise<PaymentRecord> => {
        const x = { ...f.payment(m, { at: start }), expiresAt: at(deadlineMs) };
        expect(await f.create(x)).toEqual({ ok: true });
        return x;
      };
      const [second, first, later, paying] = [await stored(200_000), await stored(100_000), await stored(10_000_000), await stored(50_000)];
      expect((await f.move(paying.id, 'processing')).ok).toBe(true);
      const ids: string[] = [];
      const event: ExpiredEvent = {
        type: 'payment.expired',
        newId: () => {
          ids.push(newId('event'));
          return ids.at(-1)!;
        },
        snapshot: (x: PaymentRecord, merchant: MerchantRecord | null) => ({ status: x.status, v: x.stateVersion, merchant: merchant?.name ?? null }),
      };

      const one = await store.s.payments.expireDue(at(250_000), 1, event);
      expect(one.expired.map((x) => [x.id, x.status, x.stateVersion])).toEqual([[first.id, 'expired', 2]]);
      expect(one.nextDeadline).toEqual(second.expiresAt);
      const rest = await store.s.payments.expireDue(at(250_000), 10, event);
      expect(rest.expired.map((x) => x.id)).toEqual([second.id]);
      // The processing payment is a confirm's to end; the later one is not due.
      expect(rest.nextDeadline).toEqual(later.expiresAt);
      expect((await store.s.payments.get(paying.id))?.status).toBe('processing');
      expect((await store.s.payments.get(later.id))?.status).toBe('requires_action');

      for (const [i, x] of [first, second].entries()) {
        const events = await store.s.payments.events(x.id);
        expect(events.map((e) => [e.type, e.stateVersion])).toEqual([
          ['payment.created', 1],
          ['payment.expired', 2],
        ]);
        expect(events[1]).toMatchObject({ id: ids[i], data: { status: 'expired', v: 2, merchant: 'Expiry shop' } });
      }
      // Nothing twice.
      expect((await store.s.payments.expireDue(at(250_000), 10, event)).expired).toEqual([]);
      expect(ids).toHaveLength(2);
    });
  });
}
