import { describe, expect, it } from 'vitest';
import type { OpenStore } from './store-fixtures.ts';

/** What every storage adapter does as a whole: it answers a ping while open, and closes for good. */
export function runStorageLifecycleConformance(name: string, open: OpenStore): void {
  describe(`storage lifecycle conformance: ${name}`, () => {
    it('answers a ping while open; once closed, pings fail and closing again is harmless', async () => {
      const s = await open();
      try {
        await expect(s.ping()).resolves.toBeUndefined();
        await expect(Promise.all([s.ping(), s.ping(), s.ping()])).resolves.toHaveLength(3);
        // A pooled engine shows the connections the pings opened, none busy now; an embedded one has no pool.
        const pool = s.poolStats();
        if (pool !== null) {
          expect(pool.total).toBeGreaterThanOrEqual(1);
          expect(pool.idle).toBe(pool.total);
          expect(pool.waiting).toBe(0);
        }
        await s.close();
        await expect(s.ping()).rejects.toThrow();
        await expect(s.partners.count()).rejects.toThrow();
        await expect(s.close()).resolves.toBeUndefined();
      } finally {
        await s.dispose();
      }
    });
  });
}
