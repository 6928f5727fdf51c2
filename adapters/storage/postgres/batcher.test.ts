import { describe, expect, it } from 'vitest';
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
