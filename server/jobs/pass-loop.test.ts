import { describe, expect, it, vi } from 'vitest';
import { currentTrace, runInTrace } from '../domain/trace-context.ts';
import { createPassLoop } from './pass-loop.ts';

describe('pass loop', () => {
  it("runs a pass nudged from a request outside that request's trace", async () => {
    const seen: unknown[] = [];
    const loop = createPassLoop({
      intervalMs: 60_000,
      pass: async () => {
        await Promise.resolve();
        seen.push(currentTrace());
        return 1;
      },
      onError: () => {},
    });
    expect(await runInTrace({ traceId: 'req-1', paymentId: 'pay_1' }, () => loop.runOnce())).toBe(1);
    await runInTrace({ traceId: 'req-2' }, async () => {
      loop.notify();
      await loop.runOnce();
    });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((t) => t === undefined)).toBe(true);
    await loop.stop();
  });

  it('holds nothing per nudge while a pass runs: nudges during a failing pass ask for one more pass, and the failure is reported once', async () => {
    let release!: () => void;
    let passes = 0;
    const errors: unknown[] = [];
    const loop = createPassLoop({
      intervalMs: 60_000,
      pass: async () => {
        passes++;
        if (passes === 1) {
          await new Promise<void>((r) => (release = r));
          throw new Error('pass failed');
        }
        return 0;
      },
      onError: (err) => errors.push(err),
    });
    loop.start();
    // Under steady load every create nudges the loop while a pass runs; each nudge used to hang a
    // `.catch` on the running pass, held until it ended (and reported its failure once per nudge).
    for (let i = 0; i < 1000; i++) loop.notify();
    await new Promise((r) => setImmediate(r));
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(errors).toHaveLength(1);
    await loop.stop();
  });

  it('runs one pass for the nudges made within gatherMs of the first, and loses none made during a pass', async () => {
    vi.useFakeTimers();
    try {
      let passes = 0;
      let release: (() => void) | null = null;
      const loop = createPassLoop({
        intervalMs: 60_000,
        gatherMs: 30,
        pass: async () => {
          passes++;
          await new Promise<void>((r) => (release = r));
          return 0;
        },
        onError: () => {},
      });
      // A burst of creates: 100 nudges at once (before: the first started a pass and the other 99 asked for a second).
      for (let i = 0; i < 100; i++) loop.notify();
      await vi.advanceTimersByTimeAsync(29);
      expect(passes).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(passes).toBe(1);
      // A nudge while that pass runs is gathered too, then asks for one more pass after it.
      loop.notify();
      await vi.advanceTimersByTimeAsync(30);
      expect(passes).toBe(1);
      release!();
      await vi.advanceTimersByTimeAsync(0);
      expect(passes).toBe(2);
      release!();
      await loop.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
