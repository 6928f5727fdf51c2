import { describe, expect, it } from 'vitest';
import { createManualClock, systemClock } from '../../../server/ports/clock.ts';
import { runRateLimiterConformance } from '../conformance/rate-limiter-conformance.ts';
import { createMemoryRateLimiter } from './index.ts';

runRateLimiterConformance('memory', async (limit) => createMemoryRateLimiter(limit, systemClock), { sharedAcrossInstances: false });

describe('memory rate limiter', () => {
  it('refills at the sustained rate, to the burst and no further', async () => {
    const clock = createManualClock();
    const l = createMemoryRateLimiter({ perSecond: 2, burst: 3 }, clock);
    for (let i = 0; i < 3; i++) expect(await l.take('k')).toEqual({ allowed: true });
    expect(await l.take('k')).toEqual({ allowed: false, retryAfterMs: 500 });
    clock.advance(500);
    expect(await l.take('k')).toEqual({ allowed: true });
    expect(await l.take('k')).toEqual({ allowed: false, retryAfterMs: 500 });
    // A long quiet spell refills the burst, not more.
    clock.advance(60_000);
    for (let i = 0; i < 3; i++) expect(await l.take('k')).toEqual({ allowed: true });
    expect((await l.take('k')).allowed).toBe(false);
  });

  it('stays bounded with many clients, forgetting only ones whose bucket is full again', async () => {
    const clock = createManualClock();
    const l = createMemoryRateLimiter({ perSecond: 1, burst: 1 }, clock, { maxKeys: 100 });
    for (let i = 0; i < 100; i++) await l.take(`old${i}`);
    clock.advance(1000);
    expect(await l.take('busy')).toEqual({ allowed: true });
    // The hundred old clients refilled and were forgotten; the busy one is still counted.
    expect((await l.take('busy')).allowed).toBe(false);
  });

  it('a flood of new keys does not reset a throttled one: full, it evicts one key, never all', async () => {
    // Before: at maxKeys every bucket was cleared, the throttled victim's with them (allowed again).
    const clock = createManualClock();
    const l = createMemoryRateLimiter({ perSecond: 1 / 60, burst: 5 }, clock, { maxKeys: 100 });
    for (let i = 0; i < 5; i++) await l.take('acct:victim');
    expect((await l.take('acct:victim')).allowed).toBe(false);
    for (let i = 0; i < 1000; i++) expect((await l.take(`acct:flood${i}`)).allowed).toBe(true);
    expect((await l.take('acct:victim')).allowed).toBe(false);
    // Bounded: the oldest flooders went, the newest are still counted.
    expect((await l.take('acct:flood999')).allowed).toBe(true);
    for (let i = 0; i < 3; i++) await l.take('acct:flood999');
    expect((await l.take('acct:flood999')).allowed).toBe(false);
  });

  it('refuses a rate it cannot apply', () => {
    expect(() => createMemoryRateLimiter({ perSecond: 0, burst: 1 }, systemClock)).toThrow(/perSecond/);
    expect(() => createMemoryRateLimiter({ perSecond: 1, burst: 0.5 }, systemClock)).toThrow(/burst/);
  });
});
