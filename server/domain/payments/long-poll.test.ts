import { describe, expect, it } from 'vitest';
import { createMemoryPaymentChanges } from '../../../adapters/payment-changes/memory/index.ts';
import type { PaymentRecord } from './records.ts';
import type { PaymentStatus } from './state-machine.ts';
import { MAX_LONG_POLL_MS, longPoll, longPollBound } from './long-poll.ts';

/** A payment whose stored status the test sets, counting reads. */
function storedPayment(status: PaymentStatus) {
  const record = (s: PaymentStatus) => ({ id: 'pay_1', status: s }) as PaymentRecord;
  const state = { status, reads: 0 };
  return {
    state,
    first: async () => record(state.status),
    reread: async () => {
      state.reads += 1;
      return record(state.status);
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe('long-poll', () => {
  it('caps the bound at 30 s and treats absent, null and 0 as no wait', () => {
    expect([longPollBound(undefined), longPollBound(null), longPollBound(0), longPollBound(1500), longPollBound(10 ** 9)]).toEqual([0, 0, 0, 1500, MAX_LONG_POLL_MS]);
  });

  it('answers at once when the payment is final, or when no wait was asked', async () => {
    const changes = createMemoryPaymentChanges();
    const done = storedPayment('succeeded');
    expect((await longPoll(changes, { paymentId: 'pay_1', maxPollMs: 30_000, ...done })).status).toBe('succeeded');
    const pending = storedPayment('processing');
    const started = Date.now();
    expect((await longPoll(changes, { paymentId: 'pay_1', maxPollMs: 0, ...pending })).status).toBe('processing');
    expect((await longPoll(changes, { paymentId: null, maxPollMs: 5000, ...pending })).status).toBe('processing');
    expect(Date.now() - started).toBeLessThan(200);
    expect(done.state.reads + pending.state.reads).toBe(0);
    expect(changes.size).toBe(0);
  });

  it('answers on a change of status, reading only when woken; a change that keeps the status keeps it waiting', async () => {
    const changes = createMemoryPaymentChanges();
    const p = storedPayment('processing');
    let answered: PaymentRecord | null = null;
    const waiting = longPoll(changes, { paymentId: 'pay_1', maxPollMs: 30_000, ...p }).then((r) => (answered = r));
    await tick();
    expect(p.state.reads).toBe(0);
    changes.publish('pay_other');
    changes.publish('pay_1'); // e.g. its own confirm's notification: still processing
    await tick();
    expect(p.state.reads).toBe(1);
    expect(answered).toBeNull();
    changes.resyncAll();
    await tick();
    expect(p.state.reads).toBe(2);
    expect(answered).toBeNull();
    p.state.status = 'requires_action'; // the attempt was released: not final, but a change
    changes.publish('pay_1');
    await waiting;
    expect(answered!.status).toBe('requires_action');
    expect(p.state.reads).toBe(3);
    expect(changes.size).toBe(0);
  });

  it('hears a change committed while its first step ran', async () => {
    const changes = createMemoryPaymentChanges();
    const p = storedPayment('requires_action');
    const started = Date.now();
    const answer = await longPoll(changes, {
      paymentId: 'pay_1',
      maxPollMs: 10_000,
      first: async () => {
        const before = await p.first();
        p.state.status = 'processing';
        changes.publish('pay_1');
        return before;
      },
      reread: p.reread,
    });
    expect(answer.status).toBe('processing');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answers at the bound with the payment read once more', async () => {
    const changes = createMemoryPaymentChanges();
    const p = storedPayment('processing');
    const started = Date.now();
    const answer = await longPoll(changes, { paymentId: 'pay_1', maxPollMs: 300, ...p });
    const took = Date.now() - started;
    expect(answer.status).toBe('processing');
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(1500);
    expect(p.state.reads).toBe(1);
    expect(changes.size).toBe(0);
  });

  it('answers every waiter with the current state when the process shuts down', async () => {
    const changes = createMemoryPaymentChanges();
    const p = storedPayment('processing');
    const started = Date.now();
    const waiters = Array.from({ length: 3 }, () => longPoll(changes, { paymentId: 'pay_1', maxPollMs: 30_000, ...p }));
    await tick();
    await changes.close();
    expect((await Promise.all(waiters)).map((r) => r.status)).toEqual(['processing', 'processing', 'processing']);
    // Arriving during shutdown: answered at once too.
    expect((await longPoll(changes, { paymentId: 'pay_1', maxPollMs: 30_000, ...p })).status).toBe('processing');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('unsubscribes when its first step fails', async () => {
    const changes = createMemoryPaymentChanges();
    await expect(
      longPoll(changes, {
        paymentId: 'pay_1',
        maxPollMs: 30_000,
        first: async () => {
          throw new Error('payment_not_found');
        },
        reread: async (p) => p,
      }),
    ).rejects.toThrow('payment_not_found');
    expect(changes.size).toBe(0);
  });
});
