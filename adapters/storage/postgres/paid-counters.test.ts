import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import { storageBackends } from '../../../test/helpers/backends.ts';
import { paymentFixtures } from '../conformance/payment-fixtures.ts';
import { t0 } from '../conformance/store-fixtures.ts';
import { migrate } from './migrate.ts';

/** Undoes migration 013, as on a database last migrated before the counters existed. */
const UNDO_COUNTERS = `
  DROP TRIGGER payments_paid_counters_insert ON payments;
  DROP TRIGGER payments_paid_counters_update ON payments;
  DROP TRIGGER payments_paid_counters_delete ON payments;
  DROP FUNCTION paid_counters_track();
  DROP FUNCTION paid_counters_apply(text, text, text, numeric, text, integer);
  DROP TABLE paid_totals, paid_buyers, paid_customers;
  DROP INDEX payments_paid_created;
  DELETE FROM schema_migrations WHERE name = '013-paid-counters.sql';`;

for (const backend of await storageBackends()) {
  describe(`paid counters migration: ${backend.name}`, () => {
    it('backfills the counters from the payments already paid', { timeout: 30_000 }, async () => {
      const store = await backend.open();
      try {
        const f = paymentFixtures(() => store);
        const p = await f.partner();
        const ms = [await f.merchant(p.id), await f.merchant(p.id)];
        await store.db.exec(UNDO_COUNTERS);
        const made = [];
        for (let i = 0; i < 6; i++) made.push(await f.stored(ms[i % 2]!, { unit: i % 3 ? 'iso4217/USD' : 'iso4217/EUR', value: String(100 * (i + 1)) }));
        for (let i = 0; i < 5; i++) await f.move(made[i]!.id, 'succeeded', { buyerAccount: `eip155:1:0xb${i % 3}`, succeededAt: t0 });
        await store.payments.markRefunded(p.id, ms[0]!.id, made[0]!.id, t0, { id: newId('event'), type: 'payment.refunded', snapshot: () => ({}) });
        expect(await migrate(store.db)).toEqual(['013-paid-counters.sql']);
        const q = { sortBy: 'date' as const, sortDir: 'asc' as const, limit: 10 };
        // Paid: #1 (USD 200, m1, b1), #2 (USD 300, m0, b2), #3 (EUR 400, m1, b0), #4 (USD 500, m0, b1).
        expect(await store.payments.stats(p.id, q)).toEqual({
          revenue: [
            { currency: 'EUR', minor: 400n },
            { currency: 'USD', minor: 1000n },
          ],
          transactions: 4,
          customers: 3,
        });
        expect(await store.payments.stats(p.id, { ...q, merchantIds: [ms[0]!.id] })).toEqual({ revenue: [{ currency: 'USD', minor: 800n }], transactions: 2, customers: 2 });
        // And the trigger carries on from the backfilled figures.
        await f.move(made[5]!.id, 'succeeded', { buyerAccount: 'eip155:1:0xb9', succeededAt: t0 });
        expect(await store.payments.stats(p.id, { ...q, merchantIds: [ms[1]!.id] })).toEqual({
          revenue: [
            { currency: 'EUR', minor: 400n },
            { currency: 'USD', minor: 800n },
          ],
          transactions: 3,
          customers: 3,
        });
      } finally {
        await store.dispose();
      }
    });
  });
}
