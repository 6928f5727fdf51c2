import { afterEach, describe, expect, it } from 'vitest';
import type { PaymentChangeSignal, PaymentChangesPort } from '../../../server/ports/payment-changes.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';

/**
 * A fresh adapter and a way to announce a change of a payment the way its storage does (for
 * PostgreSQL, a NOTIFY committed in a transaction). `publish` resolves once the change committed.
 */
export type PaymentChangesFactory = () => Promise<{
  changes: PaymentChangesPort;
  publish(paymentId: string): Promise<void>;
  /**
   * Makes the adapter miss notifications the way it can in production (for PostgreSQL, the
   * listener's connection killed), after which it must resync; 'never' for an adapter that
   * cannot miss any (one engine in this process).
   */
  loseNotifications: (() => Promise<void>) | 'never';
  dispose?(): Promise<void>;
}>;

let seq = 0;
const paymentId = () => `pay_conf_${process.pid}_${Date.now().toString(36)}_${++seq}`;

/** Records what each subscription hears. */
function recorder() {
  const heard: Array<{ id: string; signal: PaymentChangeSignal }> = [];
  const on = (id: string) => (signal: PaymentChangeSignal) => void heard.push({ id, signal });
  const count = (id: string, signal: PaymentChangeSignal = 'changed') => heard.filter((h) => h.id === id && h.signal === signal).length;
  return { heard, on, count };
}

/**
 * What the long-poll handlers rely on from every PaymentChangesPort adapter: a subscriber hears
 * the changes of its payment and of no other, each subscription separately, nothing once it
 * unsubscribed, `resync` when notifications may have been missed, and `closing` from close (at
 * once when it subscribes later). Both members (subscribe, close) and all three signals are covered.
 */
export function runPaymentChangesConformance(name: string, factory: PaymentChangesFactory): void {
  describe(`payment changes conformance: ${name}`, () => {
    const open: Array<Awaited<ReturnType<PaymentChangesFactory>>> = [];
    const make = async () => {
      const made = await factory();
      open.push(made);
      return made;
    };
    afterEach(async () => {
      for (const m of open.splice(0)) {
        await m.changes.close();
        await m.dispose?.();
      }
    });

    it('wakes a subscriber on a change of its payment, and not on another payment’s', async () => {
      const { changes, publish } = await make();
      const r = recorder();
      const [mine, other] = [paymentId(), paymentId()];
      changes.subscribe(mine, r.on(mine));
      await publish(other);
      await publish(mine);
      await waitFor('the change of its payment', () => r.count(mine) >= 1);
      expect(r.heard.every((h) => h.id === mine && h.signal === 'changed')).toBe(true);
    });

    it('wakes every subscriber of a payment; unsubscribing one leaves the others subscribed', async () => {
      const { changes, publish } = await make();
      const r = recorder();
      const id = paymentId();
      const firstOff = changes.subscribe(id, r.on('first'));
      changes.subscribe(id, r.on('second'));
      const sameFn = r.on('third');
      changes.subscribe(id, sameFn);
      changes.subscribe(id, sameFn); // the same function twice is two subscriptions
      await publish(id);
      await waitFor('all four subscriptions', () => r.count('first') === 1 && r.count('second') === 1 && r.count('third') === 2);
      firstOff();
      firstOff(); // idempotent: it must not remove another subscription
      await publish(id);
      await waitFor('the remaining subscriptions', () => r.count('second') === 2 && r.count('third') === 4);
      expect(r.count('first')).toBe(1);
    });

    it('stops waking a subscriber once it unsubscribed', async () => {
      const { changes, publish } = await make();
      const r = recorder();
      const [gone, marker] = [paymentId(), paymentId()];
      changes.subscribe(gone, r.on(gone))();
      changes.subscribe(marker, r.on(marker));
      await publish(gone);
      await publish(marker);
      await waitFor('the marker', () => r.count(marker) === 1);
      expect(r.count(gone)).toBe(0);
    });

    it('delivers to a thousand payments’ subscribers, each only its own change', async () => {
      const { changes, publish } = await make();
      const r = recorder();
      const ids = Array.from({ length: 1000 }, paymentId);
      for (const id of ids) changes.subscribe(id, r.on(id));
      const changed = ids.filter((_, i) => i % 10 === 0);
      for (const id of changed) await publish(id);
      await waitFor('every changed payment’s subscriber', () => changed.every((id) => r.count(id) === 1));
      expect(r.heard).toHaveLength(changed.length);
    });

    it('keeps waking the others when one subscriber throws', async () => {
      const { changes, publish } = await make();
      const r = recorder();
      const id = paymentId();
      changes.subscribe(id, () => {
        throw new Error('a broken subscriber');
      });
      changes.subscribe(id, r.on(id));
      await publish(id);
      await waitFor('the healthy subscriber', () => r.count(id) === 1);
    });

    it('tells every subscriber closing on close, and a later subscriber at once', async () => {
      const made = await factory();
      const r = recorder();
      const [a, b] = [paymentId(), paymentId()];
      made.changes.subscribe(a, r.on(a));
      made.changes.subscribe(b, r.on(b));
      await made.changes.close();
      expect(r.count(a, 'closing')).toBe(1);
      expect(r.count(b, 'closing')).toBe(1);
      const late = paymentId();
      made.changes.subscribe(late, r.on(late));
      await waitFor('closing for a late subscriber', () => r.count(late, 'closing') === 1);
      await made.changes.close(); // twice is harmless
      expect(r.count(a, 'closing')).toBe(1);
      await made.dispose?.();
    });

    it('tells every subscriber resync when notifications may have been missed, then wakes on changes again', async () => {
      const { changes, publish, loseNotifications } = await make();
      const r = recorder();
      const [a, b] = [paymentId(), paymentId()];
      changes.subscribe(a, r.on(a));
      changes.subscribe(b, r.on(b));
      if (loseNotifications === 'never') {
        // Nothing can be missed, so nothing is ever resynced: only the changes themselves.
        for (const id of [a, b, a]) await publish(id);
        await waitFor('the three changes', () => r.count(a) === 2 && r.count(b) === 1);
        expect(r.heard.map((h) => h.signal)).toEqual(['changed', 'changed', 'changed']);
        return;
      }
      await loseNotifications();
      await waitFor('a resync of both subscribers', () => r.count(a, 'resync') === 1 && r.count(b, 'resync') === 1);
      await publish(b);
      await waitFor('a change after the resync', () => r.count(b) === 1);
      expect(r.count(a)).toBe(0);
    });
  });
}
