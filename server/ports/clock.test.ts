import { describe, expect, it } from 'vitest';
import { createManualClock, systemClock, type Clock } from './clock.ts';

/** What every Clock must give (its one member, `now`): integer milliseconds of the Unix epoch, never going back by itself. */
function runClockConformance(name: string, make: () => Clock): void {
  describe(`clock conformance: ${name}`, () => {
    it('answers integer milliseconds since the Unix epoch, never earlier than the previous answer', () => {
      const clock = make();
      const readings = Array.from({ length: 50 }, () => clock.now());
      for (const t of readings) {
        expect(Number.isSafeInteger(t)).toBe(true);
        // Between 2020 and 2100: milliseconds, not seconds or microseconds.
        expect(t).toBeGreaterThan(Date.parse('2020-01-01T00:00:00Z'));
        expect(t).toBeLessThan(Date.parse('2100-01-01T00:00:00Z'));
      }
      expect(readings).toEqual([...readings].sort((a, b) => a - b));
    });
  });
}

runClockConformance('system', () => systemClock);
runClockConformance('manual', () => createManualClock());

describe('system clock', () => {
  it('is the wall clock', () => {
    const before = Date.now();
    const t = systemClock.now();
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
  });
});

describe('manual clock', () => {
  it('stands still until told, then moves by advance and jumps by set', () => {
    const start = Date.parse('2026-01-02T03:04:05.678Z');
    const clock = createManualClock(start);
    expect([clock.now(), clock.now()]).toEqual([start, start]);
    clock.advance(1500);
    expect(clock.now()).toBe(start + 1500);
    clock.set(start - 10);
    expect(clock.now()).toBe(start - 10);
    expect(createManualClock().now()).toBe(Date.parse('2026-11-22T10:00:00.000Z'));
  });
});
