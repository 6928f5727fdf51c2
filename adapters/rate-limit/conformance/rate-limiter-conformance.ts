import { afterAll, describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../../server/ports/rate-limiter.ts';

/**
 * What every rate limiter must do, in real time. `open(limit, scope)` builds a limiter; two
 * limiters opened with the same scope share their counts exactly when the adapter says it shares.
 * Every member of the port is exercised: take, close, and the rate check (validateRateLimit)
 * each adapter applies when built.
 */
export function runRateLimiterConformance(
  name: string,
  open: (limit: { perSecond: number; burst: number }, scope: string) => Promise<RateLimiter>,
  opts: { sharedAcrossInstances: boolean },
): void {
  describe(`rate limiter conformance: ${name}`, () => {
    const opened: RateLimiter[] = [];
    const make = async (perSecond: number, burst: number, scope = `s${Math.random().toString(36).slice(2)}`) => {
      const l = await open({ perSecond, burst }, scope);
      opened.push(l);
      return l;
    };
    afterAll(async () => {
      for (const l of opened) await l.close();
    });
    const allowedOf = async (l: RateLimiter, key: string, n: number) => {
      let allowed = 0;
      for (let i = 0; i < n; i++) if ((await l.take(key)).allowed) allowed++;
      return allowed;
    };

    it('lets a burst through, then refuses with the wait until the next request may pass', async () => {
      const l = await make(10, 5);
      expect(await allowedOf(l, 'client', 5)).toBe(5);
      const refused = await l.take('client');
      expect(refused.allowed).toBe(false);
      const wait = refused.allowed ? 0 : refused.retryAfterMs;
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(100);
      await new Promise((r) => setTimeout(r, wait + 30));
      expect((await l.take('client')).allowed).toBe(true);
    });

    it('decides takes made at once in the order they were made, as many passing as the burst', async () => {
      const l = await make(1, 5);
      const decisions = await Promise.all(Array.from({ length: 40 }, () => l.take('crowd')));
      expect(decisions.map((d) => d.allowed)).toEqual(Array.from({ length: 40 }, (_, i) => i < 5));
      for (const d of decisions.slice(5)) {
        const wait = d.allowed ? 0 : d.retryAfterMs;
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(1000);
      }
      // Other keys made at the same time are not held to this one's bucket.
      const [other] = await Promise.all([l.take('other'), l.take('crowd')]);
      expect(other.allowed).toBe(true);
    });

    it('keeps each key to its own bucket', async () => {
      const l = await make(1, 2);
      expect(await allowedOf(l, 'a', 3)).toBe(2);
      expect(await allowedOf(l, 'b', 3)).toBe(2);
    });

    it('holds the sustained rate over time, not just the burst', async () => {
      const l = await make(20, 1);
      const started = Date.now();
      let [allowed, attempts] = [0, 0];
      while (Date.now() - started < 500) {
        attempts++;
        if ((await l.take('steady')).allowed) allowed++;
        await new Promise((r) => setTimeout(r, 5));
      }
      const elapsed = Date.now() - started;
      // 20/s: one pass every 50 ms of the time that went by, however many attempts were made
      // (a slow machine makes fewer, never more passes).
      expect(attempts).toBeGreaterThan(allowed);
      expect(allowed).toBeLessThanOrEqual(1 + Math.ceil(elapsed / 50));
      expect(allowed).toBeGreaterThanOrEqual(3);
    });

    if (opts.sharedAcrossInstances) {
      it('shares one bucket between limiters of the same scope (API processes behind one balancer)', async () => {
        const scope = `shared${Math.random().toString(36).slice(2)}`;
        const [a, b] = [await make(1, 4, scope), await make(1, 4, scope)];
        const results = await Promise.all([allowedOf(a, 'partner', 4), allowedOf(b, 'partner', 4)]);
        expect(results[0] + results[1]).toBe(4);
        // Takes made at once in both processes: still one bucket.
        const [c, d] = [await make(1, 8, `${scope}x`), await make(1, 8, `${scope}x`)];
        const at = await Promise.all([...Array.from({ length: 20 }, () => c.take('p')), ...Array.from({ length: 20 }, () => d.take('p'))]);
        expect(at.filter((x) => x.allowed)).toHaveLength(8);
      });
    } else {
      it('keeps its counts to itself: limiters of the same scope count apart (one process each)', async () => {
        const scope = `apart${Math.random().toString(36).slice(2)}`;
        const [a, b] = [await make(1, 4, scope), await make(1, 4, scope)];
        expect([await allowedOf(a, 'partner', 5), await allowedOf(b, 'partner', 5)]).toEqual([4, 4]);
      });
    }

    it('refuses, when built, a rate it cannot apply', async () => {
      const scope = `bad${Math.random().toString(36).slice(2)}`;
      for (const limit of [
        { perSecond: 0, burst: 1 },
        { perSecond: Number.NaN, burst: 1 },
        { perSecond: -1, burst: 1 },
      ]) {
        await expect(Promise.resolve().then(() => open(limit, scope))).rejects.toThrow(/perSecond/);
      }
      for (const limit of [
        { perSecond: 1, burst: 0 },
        { perSecond: 1, burst: 0.5 },
      ]) {
        await expect(Promise.resolve().then(() => open(limit, scope))).rejects.toThrow(/burst/);
      }
    });

    it('closes without failing', async () => {
      const l = await open({ perSecond: 1, burst: 1 }, `close${Math.random().toString(36).slice(2)}`);
      expect((await l.take('k')).allowed).toBe(true);
      await expect(l.close()).resolves.toBeUndefined();
    });
  });
}
