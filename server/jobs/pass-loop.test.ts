import { describe, expect, it } from 'vitest';
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
});
