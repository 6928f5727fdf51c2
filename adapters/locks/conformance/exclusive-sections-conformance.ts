import { afterAll, describe, expect, it } from 'vitest';
import type { ExclusiveSections } from '../../../server/ports/exclusive-sections.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const uniqueKey = (name: string) => `${name}:${process.pid}:${Math.random().toString(36).slice(2)}`;

/**
 * What every exclusive-sections adapter must do, in real time. `open()` builds an instance; two
 * instances stand for two processes when the adapter says they share (`sharedAcrossInstances`).
 * `killHolder(key)` (adapters whose holder is a connection) ends the connection holding `key`.
 */
export function runExclusiveSectionsConformance(
  name: string,
  open: () => Promise<ExclusiveSections>,
  opts: { sharedAcrossInstances: boolean; killHolder?: (key: string) => Promise<void> },
): void {
  describe(`exclusive sections conformance: ${name}`, () => {
    const opened: ExclusiveSections[] = [];
    const make = async () => {
      const s = await open();
      opened.push(s);
      return s;
    };
    afterAll(async () => {
      for (const s of opened) await s.close();
    });

    /** Runs `n` sections on `key` spread over `instances`, each overlapping the others if it could; answers the most seen at once. */
    async function mostAtOnce(instances: ExclusiveSections[], key: string, n: number): Promise<number> {
      let inside = 0;
      let most = 0;
      await Promise.all(
        Array.from({ length: n }, (_, i) =>
          instances[i % instances.length]!.run(key, async () => {
            most = Math.max(most, ++inside);
            await sleep(15);
            inside--;
          }),
        ),
      );
      return most;
    }

    it('runs the sections of one key one at a time, in call order, and answers what the work answers', async () => {
      const s = await make();
      const key = uniqueKey('order');
      const log: string[] = [];
      const step = (label: string, ms: number) =>
        s.run(key, async () => {
          log.push(`start ${label}`);
          await sleep(ms);
          log.push(`end ${label}`);
          return label;
        });
      expect(await Promise.all([step('a', 30), step('b', 1), step('c', 1)])).toEqual(['a', 'b', 'c']);
      expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    });

    it('releases the key when the work throws: the next section runs', async () => {
      const s = await make();
      const key = uniqueKey('throws');
      const results = await Promise.allSettled([
        s.run(key, async () => {
          await sleep(10);
          throw new Error('boom');
        }),
        s.run(key, async () => 'next'),
      ]);
      expect(results[0]).toMatchObject({ status: 'rejected', reason: { message: 'boom' } });
      expect(results[1]).toEqual({ status: 'fulfilled', value: 'next' });
      expect(await s.run(key, async () => 'after')).toBe('after');
    });

    it('runs sections of different keys at the same time', async () => {
      const s = await make();
      let inside = 0;
      let most = 0;
      await Promise.all(
        ['k1', 'k2'].map((k) =>
          s.run(uniqueKey(k), async () => {
            most = Math.max(most, ++inside);
            await sleep(100);
            inside--;
          }),
        ),
      );
      expect(most).toBe(2);
    });

    if (opts.sharedAcrossInstances) {
      it('excludes across instances (processes) on one key', async () => {
        const [a, b] = [await make(), await make()];
        expect(await mostAtOnce([a, b], uniqueKey('shared'), 12)).toBe(1);
      });
    } else {
      it('keeps each instance to itself: two instances (processes) may hold one key at once', async () => {
        const [a, b] = [await make(), await make()];
        expect(await mostAtOnce([a, b], uniqueKey('apart'), 4)).toBe(2);
      });
    }

    if (opts.killHolder) {
      const killHolder = opts.killHolder;
      it('frees the key when its holder dies: another instance takes it', async () => {
        const [a, b] = [await make(), await make()];
        const key = uniqueKey('killed');
        let entered!: () => void;
        const inside = new Promise<void>((r) => (entered = r));
        let finish!: () => void;
        const held = a.run(key, async () => {
          entered();
          await new Promise<void>((r) => (finish = r));
          return 'holder done';
        });
        await inside;
        let taken = false;
        const other = b.run(key, async () => (taken = true));
        await sleep(100);
        expect(taken).toBe(false);
        await killHolder(key);
        await other;
        expect(taken).toBe(true);
        finish();
        // The holder's work ran to its end; only its lock went with the connection.
        expect(await held).toBe('holder done');
        expect(await a.run(key, async () => 'a again')).toBe('a again');
      });
    }

    it('refuses new sections once closed, after the running ones finish', async () => {
      const s = await open();
      const key = uniqueKey('close');
      let done = false;
      const running = s.run(key, async () => {
        await sleep(30);
        done = true;
      });
      await sleep(5);
      await s.close();
      expect(done).toBe(true);
      await running;
      await expect(s.run(key, async () => 'late')).rejects.toThrow(/closed/);
    });
  });
}
