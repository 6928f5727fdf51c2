import { describe, expect, it } from 'vitest';
import { createInFlightSlots } from './in-flight.ts';

describe('webhook in-flight slots', () => {
  const a1 = { id: 'we_a1', partnerId: 'p_a' };
  const a2 = { id: 'we_a2', partnerId: 'p_a' };
  const b1 = { id: 'we_b1', partnerId: 'p_b' };

  it('holds each endpoint to its cap and each partner to its own over all its endpoints; others are untouched', () => {
    const slots = createInFlightSlots({ perEndpoint: 2, perPartner: 3 });
    const held = [slots.tryAcquire(a1), slots.tryAcquire(a1)];
    expect(held.every(Boolean)).toBe(true);
    expect(slots.tryAcquire(a1)).toBeNull(); // the endpoint's cap
    expect(slots.endpointFull(a1.id)).toBe(true);
    expect(slots.tryAcquire(a2)).not.toBeNull();
    expect(slots.tryAcquire(a2)).toBeNull(); // the partner's cap, the endpoint has room
    expect(slots.endpointFull(a2.id)).toBe(false);
    expect(slots.waitMs(a2.id, a2.partnerId)).toBeGreaterThanOrEqual(250);
    expect(slots.tryAcquire(b1)).not.toBeNull();
    held[0]!.release({ durationMs: 5, timedOut: false });
    held[0]!.release({ durationMs: 5, timedOut: false }); // twice is once
    expect(slots.inFlight(a1)).toEqual({ endpoint: 1, partner: 2 });
    expect(slots.tryAcquire(a2)).not.toBeNull();
  });

  it('gives an endpoint that timed out one attempt at a time and longer waits, until one answers in time', () => {
    const slots = createInFlightSlots({ perEndpoint: 4, perPartner: 10 });
    slots.tryAcquire(a1)!.release({ durationMs: 15_000, timedOut: true });
    expect(slots.isSlow(a1.id)).toBe(true);
    const one = slots.tryAcquire(a1)!;
    expect(slots.tryAcquire(a1)).toBeNull();
    expect(slots.waitMs(a1.id)).toBeGreaterThan(1000);
    one.release({ durationMs: 40, timedOut: false });
    expect(slots.isSlow(a1.id)).toBe(false);
    expect([slots.tryAcquire(a1), slots.tryAcquire(a1)].every(Boolean)).toBe(true);
  });

  it('wakes a waiter when an attempt of its endpoint or partner ends, and after its bound otherwise', async () => {
    const slots = createInFlightSlots({ perEndpoint: 1, perPartner: 5 });
    const held = slots.tryAcquire(a1)!;
    const started = performance.now();
    const woken = slots.nextRelease(a1, 10_000);
    setTimeout(() => held.release({ durationMs: 30, timedOut: false }), 30);
    await woken;
    expect(performance.now() - started).toBeLessThan(5_000);
    const bounded = performance.now();
    await slots.nextRelease(b1, 50);
    expect(performance.now() - bounded).toBeGreaterThanOrEqual(45);
  });

  it('wakes one waiter per ended attempt, the longest waiting first, so a crowd of batches does not wake for one slot', async () => {
    const slots = createInFlightSlots({ perEndpoint: 1, perPartner: 5 });
    const woken: string[] = [];
    const wait = (name: string, endpoint = a1) => slots.nextRelease(endpoint, 10_000).then(() => void woken.push(name));
    let held = slots.tryAcquire(a1)!;
    const all = [wait('first'), wait('second'), wait('third')];
    held.release({ durationMs: 5, timedOut: false });
    await new Promise((r) => setTimeout(r, 20));
    expect(woken).toEqual(['first']);
    held = slots.tryAcquire(a1)!; // what the woken one does with its slot
    held.release({ durationMs: 5, timedOut: false });
    await new Promise((r) => setTimeout(r, 20));
    expect(woken).toEqual(['first', 'second']);
    // An ended attempt of a partner's endpoint with no waiter of its own wakes one of the partner's others.
    const other = wait('other endpoint of the partner', a2);
    slots.tryAcquire(a1)!.release({ durationMs: 5, timedOut: false }); // wakes a1's third first
    slots.tryAcquire(a1)!.release({ durationMs: 5, timedOut: false }); // none of a1's left: a2's
    await Promise.all([...all, other]);
    expect(woken).toEqual(['first', 'second', 'third', 'other endpoint of the partner']);
  });
});
