import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBatcher } from './batcher.ts';

/** A run whose batches are recorded and finish only when the test says so. */
function controlledRun() {
  const batches: number[][] = [];
  const pending: Array<() => void> = [];
  return {
    batches,
    finishOne: () => pending.shift()!(),
    run: (items: number[]) =>
      new Promise<string[]>((resolve, reject) => {
        batches.push(items);
        pending.push(() => (items.includes(13) ? reject(new Error('bad item 13')) : resolve(items.map((i) => `done ${i}`))));
      }),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('group commit batcher', () => {
  it('runs a call at once, alone, while there is room; batches only what arrives meanwhile', async () => {
    const c = controlledRun();
    const submit = createBatcher({ run: c.run, maxInFlight: 2, maxBatch: 3 });
    const answers = [1, 2, 3, 4, 5, 6, 7].map((i) => submit(i));
    expect(c.batches).toEqual([[1], [2]]);
    c.finishOne();
    await tick();
    expect(c.batches).toEqual([[1], [2], [3, 4, 5]]);
    c.finishOne();
    await tick();
    expect(c.batches.at(-1)).toEqual([6, 7]);
    c.finishOne();
    c.finishOne();
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4, 5, 6, 7].map((i) => `done ${i}`));
  });

  it('fails only the caller whose item broke a shared batch', async () => {
    const c = controlledRun();
    const submit = createBatcher({ run: c.run, maxInFlight: 1, maxBatch: 10 });
    const first = submit(1);
    const together = [12, 13, 14].map((i) =>
      submit(i).then(
        (v) => v,
        (e: Error) => e.message,
      ),
    );
    c.finishOne();
    await tick();
    expect(c.batches).toEqual([[1], [12, 13, 14]]);
    c.finishOne();
    await tick();
    // Each item of the failed batch ran again alone.
    expect(c.batches.slice(2)).toEqual([[12], [13], [14]]);
    c.finishOne();
    c.finishOne();
    c.finishOne();
    expect(await first).toBe('done 1');
    expect(await Promise.all(together)).toEqual(['done 12', 'bad item 13', 'done 14']);
  });
});

describe('group commit batcher: one more statement while the running one is late', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** One statement of `ms`, to teach the batcher what a typical run takes. */
  async function typicalRun(c: ReturnType<typeof controlledRun>, submit: (i: number) => Promise<string>, ms: number) {
    const answer = submit(0);
    await vi.advanceTimersByTimeAsync(ms);
    c.finishOne();
    await answer;
  }

  it('starts the waiting calls in a second statement once the running one has taken twice its typical time', async () => {
    const c = controlledRun();
    const submit = createBatcher({ run: c.run, maxInFlight: 1, maxBatch: 10, whenLate: { extra: 1, factor: 2, minMs: 1 } });
    await typicalRun(c, submit, 10);
    const answers = [1, 2, 3].map((i) => submit(i));
    expect(c.batches.slice(1)).toEqual([[1]]);
    await vi.advanceTimersByTimeAsync(19);
    expect(c.batches.slice(1)).toEqual([[1]]); // not late yet: 19 ms against 2 × 10
    await vi.advanceTimersByTimeAsync(1);
    expect(c.batches.slice(1)).toEqual([[1], [2, 3]]);
    // Both running: the extra one is used, so the next call waits for one of them to finish.
    const fourth = submit(4);
    await vi.advanceTimersByTimeAsync(100);
    const fifth = submit(5); // arrives while both are late: still no third statement
    expect(c.batches.slice(1)).toEqual([[1], [2, 3]]);
    c.finishOne();
    await vi.advanceTimersByTimeAsync(0);
    expect(c.batches.slice(1)).toEqual([[1], [2, 3], [4, 5]]);
    c.finishOne();
    c.finishOne();
    expect(await Promise.all([...answers, fourth, fifth])).toEqual([1, 2, 3, 4, 5].map((i) => `done ${i}`));
  });

  /** Batches that each take the next of `durations` ms (1 ms once they run out), with the most running at once. */
  function timedRun(durations: number[]) {
    const batches: number[][] = [];
    let running = 0;
    const seen = { mostAtOnce: 0 };
    return {
      batches,
      seen,
      run: (items: number[]) => {
        batches.push(items);
        seen.mostAtOnce = Math.max(seen.mostAtOnce, ++running);
        return new Promise<string[]>((resolve) =>
          setTimeout(() => {
            running--;
            resolve(items.map((i) => `done ${i}`));
          }, durations.shift() ?? 1),
        );
      },
    };
  }

  it('keeps one statement in flight while statements take their usual time, however many calls wait', async () => {
    // Saturation: a call every millisecond, every statement runs 10 ms whatever it carries.
    const t = timedRun(Array<number>(100).fill(10));
    const submit = createBatcher({ run: t.run, maxInFlight: 1, maxBatch: 64, whenLate: { extra: 2, factor: 2, minMs: 1 } });
    const answers: Array<Promise<string>> = [];
    for (let i = 1; i <= 300; i++) {
      answers.push(submit(i));
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(100);
    expect(await Promise.all(answers)).toHaveLength(300);
    expect(t.seen.mostAtOnce).toBe(1);
    // One statement per 10 ms carrying what arrived meanwhile: about 300 / 10 of them.
    expect(t.batches.length).toBeLessThanOrEqual(32);
  });

  it('never counts a statement late before one has been measured', async () => {
    const t = timedRun([1000]);
    const submit = createBatcher({ run: t.run, maxInFlight: 1, maxBatch: 10, whenLate: { extra: 1, factor: 2, minMs: 0 } });
    const answers = [submit(1), submit(2)];
    await vi.advanceTimersByTimeAsync(999);
    expect(t.batches).toEqual([[1]]);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.batches).toEqual([[1], [2]]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await Promise.all(answers)).toEqual(['done 1', 'done 2']);
  });

  it('counts a statement late only after minMs, however short the typical run', async () => {
    const t = timedRun([1, 1, 1, 200]);
    const submit = createBatcher({ run: t.run, maxInFlight: 1, maxBatch: 10, whenLate: { extra: 1, factor: 2, minMs: 50 } });
    for (const i of [1, 2, 3]) {
      const a = submit(i);
      await vi.advanceTimersByTimeAsync(1);
      await a;
    }
    const slow = submit(4);
    const behind = submit(5);
    await vi.advanceTimersByTimeAsync(49);
    expect(t.batches.slice(3)).toEqual([[4]]);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.batches.slice(3)).toEqual([[4], [5]]);
    await vi.advanceTimersByTimeAsync(200);
    expect(await Promise.all([slow, behind])).toEqual(['done 4', 'done 5']);
  });

  it('refuses settings that would never run or never wait', () => {
    const run = (items: number[]) => Promise.resolve(items);
    expect(() => createBatcher({ run, maxInFlight: 0, maxBatch: 1 })).toThrow(/at least 1/);
    expect(() => createBatcher({ run, maxInFlight: 1, maxBatch: 1, whenLate: { extra: 0, factor: 2, minMs: 1 } })).toThrow(/whenLate/);
    expect(() => createBatcher({ run, maxInFlight: 1, maxBatch: 1, whenLate: { extra: 1, factor: 0, minMs: 1 } })).toThrow(/whenLate/);
    expect(() => createBatcher({ run, maxInFlight: 1, maxBatch: 1, whenLate: { extra: 1, factor: 2, minMs: -1 } })).toThrow(/whenLate/);
  });
});
