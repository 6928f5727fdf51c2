import { describe, expect, it } from 'vitest';
import type { PaymentListQuery, PaymentRecord } from '../../../server/domain/payments/records.ts';
import { newId } from '../../../server/domain/ids.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';
import { paymentFixtures, TOKEN_A } from './payment-fixtures.ts';

/**
 * PaymentRepository's lists and stats on every adapter: each filter, both sorts in both
 * directions, keyset paging and the figures that match a filter. Each adapter's test file calls
 * this with a factory for a fresh, empty store.
 */
export function runPaymentListConformance(name: string, open: OpenStore): void {
  describe(`payment list conformance: ${name}`, () => {
    const store = useStore(open);
    const f = paymentFixtures(() => store.s);
    const minute = 60_000;

    /**
     * One partner's eight payments, a minute apart, of two merchants; another partner's one. Each
     * row: [merchant index, amount, reference, final state, network, asset, buyer].
     */
    async function shop() {
      const p = await f.partner();
      const other = await f.partner();
      const ms = [await f.merchant(p.id), await f.merchant(p.id)];
      const rows: Array<[number, string, string, 'requires_action' | 'succeeded' | 'failed', string | null, string | null, string | null]> = [
        [0, '500', 'Order-001', 'succeeded', 'eip155:1', 'eip155:1/erc20:0xa', 'eip155:1:0xb1'],
        [1, '300', 'order-002', 'requires_action', null, null, null],
        [0, '500', 'ORDER-003', 'succeeded', 'eip155:10', 'eip155:10/erc20:0xa', 'eip155:1:0xb1'],
        [0, '100', 'misc-004', 'failed', 'eip155:1', 'eip155:1/erc20:0xb', null],
        [1, '900', 'order-005', 'succeeded', 'eip155:1', 'eip155:1/erc20:0xb', 'eip155:1:0xb2'],
        [0, '200', 'misc_%_006', 'requires_action', null, null, null],
        [1, '700', 'Order-007', 'succeeded', 'eip155:1', 'eip155:1/erc20:0xa', 'eip155:1:0xb3'],
        [0, '500', 'order-008', 'succeeded', 'eip155:1', 'eip155:1/erc20:0xa', 'eip155:1:0xb3'],
      ];
      const made: PaymentRecord[] = [];
      for (const [i, [mi, value, ref, status, network, asset, buyer]] of rows.entries()) {
        const pay = await f.stored(ms[mi]!, { value, ref, at: t0.getTime() + i * minute });
        if (status !== 'requires_action') {
          const r = await f.move(pay.id, status, {
            network,
            asset,
            buyerAccount: buyer,
            txId: network ? `0x${pay.id}` : null,
            ...(status === 'succeeded' ? { tokenValue: 1n, succeededAt: t0 } : { failureCode: 'x' }),
          });
          if (!r.ok) throw new Error('fixture transition failed');
        }
        made.push((await store.s.payments.get(pay.id))!);
      }
      await f.stored(await f.merchant(other.id), { ref: 'order-009' });
      return { p, ms, made };
    }
    const q = (o: Partial<PaymentListQuery> = {}): PaymentListQuery => ({ sortBy: 'date', sortDir: 'asc', limit: 100, ...o });

    it('filters by merchant, status, network, asset, reference (partial, any case) and creation time', async () => {
      const { p, ms, made } = await shop();
      const ids = async (o: Partial<PaymentListQuery>) => (await store.s.payments.list(p.id, q(o))).map((x) => made.findIndex((m) => m.id === x.id));
      expect(await ids({})).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(await ids({ merchantIds: [ms[1]!.id] })).toEqual([1, 4, 6]);
      expect(await ids({ merchantIds: [ms[1]!.id, 'mer_missing'], statuses: ['succeeded'] })).toEqual([4, 6]);
      expect(await ids({ statuses: ['failed', 'requires_action'] })).toEqual([1, 3, 5]);
      expect(await ids({ networks: ['eip155:10'] })).toEqual([2]);
      expect(await ids({ assets: ['eip155:1/erc20:0xb'] })).toEqual([3, 4]);
      expect(await ids({ assets: ['eip155:1/erc20:0xa', 'eip155:10/erc20:0xa'] })).toEqual([0, 2, 6, 7]);
      expect(await ids({ assets: [] })).toEqual([]);
      expect(await ids({ referenceId: 'order-00' })).toEqual([0, 1, 2, 4, 6, 7]);
      expect(await ids({ referenceId: 'ORDER-00' })).toEqual([0, 1, 2, 4, 6, 7]);
      // `%` and `_` are plain characters, not patterns.
      expect(await ids({ referenceId: '_%_' })).toEqual([5]);
      expect(await ids({ referenceId: 'c-0' })).toEqual([3]);
      expect(await ids({ createdFrom: new Date(t0.getTime() + 2 * minute), createdBefore: new Date(t0.getTime() + 5 * minute) })).toEqual([2, 3, 4]);
      expect(await ids({ createdFrom: new Date(t0.getTime() + 7 * minute) })).toEqual([7]);
      expect(await ids({ createdBefore: t0 })).toEqual([]);
    });

    it('sorts by date and by amount both ways, and pages by keyset never repeating or skipping', async () => {
      const { p, made } = await shop();
      const byDate = [...made].sort((a, b) => (a.id < b.id ? -1 : 1));
      const byAmount = [...made].sort((a, b) => (a.price.value === b.price.value ? (a.id < b.id ? -1 : 1) : a.price.value < b.price.value ? -1 : 1));
      for (const [sortBy, asc] of [
        ['date', byDate],
        ['amount', byAmount],
      ] as const) {
        for (const sortDir of ['asc', 'desc'] as const) {
          const want = (sortDir === 'asc' ? asc : [...asc].reverse()).map((x) => x.id);
          expect((await store.s.payments.list(p.id, q({ sortBy, sortDir }))).map((x) => x.id)).toEqual(want);
          // Pages of three: equal amounts (three of 500) fall across a page boundary.
          const seen: string[] = [];
          let after: PaymentListQuery['after'];
          for (let page = 0; page < 5; page++) {
            const got = await store.s.payments.list(p.id, q({ sortBy, sortDir, limit: 3, ...(after ? { after } : {}) }));
            seen.push(...got.map((x) => x.id));
            const last = got.at(-1);
            if (got.length < 3 || !last) break;
            after = { id: last.id, price: last.price };
          }
          expect(seen).toEqual(want);
        }
      }
    });

    it('sorts amounts in different units apart: fiat currencies, then tokens, each by code, by value within one; keyset pages both ways', async () => {
      // Before (issue 30 item 9): one order over the raw values, 7 base units of a token before 250 euro cents.
      const p = await f.partner();
      const tokenB = 'eip155:1/erc20:0xb';
      const m = await f.merchant(p.id, { settle: [TOKEN_A, tokenB] });
      const prices: Array<[string, string]> = [
        ['iso4217/USD', '500'],
        [`caip19/${TOKEN_A}`, '1' + '0'.repeat(59)],
        ['iso4217/EUR', '250'],
        [`caip19/${tokenB}`, '3'],
        [`caip19/${TOKEN_A}`, '7'],
        ['iso4217/USD', '999999999999999999'],
        ['iso4217/EUR', '250'],
      ];
      const made: PaymentRecord[] = [];
      for (const [i, [unit, value]] of prices.entries()) made.push(await f.stored(m, { unit, value, at: t0.getTime() + i * minute }));
      const unitOf = (x: PaymentRecord) => (x.price.kind === 'fiat' ? `0 ${x.price.currency}` : `1 ${x.price.asset}`);
      const asc = [...made].sort((a, b) =>
        unitOf(a) !== unitOf(b) ? (unitOf(a) < unitOf(b) ? -1 : 1) : a.price.value !== b.price.value ? (a.price.value < b.price.value ? -1 : 1) : a.id < b.id ? -1 : 1,
      );
      expect(asc.map((x) => made.indexOf(x))).toEqual([2, 6, 0, 5, 4, 1, 3]);
      for (const sortDir of ['asc', 'desc'] as const) {
        const want = (sortDir === 'asc' ? asc : [...asc].reverse()).map((x) => x.id);
        expect((await store.s.payments.list(p.id, q({ sortBy: 'amount', sortDir }))).map((x) => x.id)).toEqual(want);
        const seen: string[] = [];
        let after: PaymentListQuery['after'];
        for (let page = 0; page < 8; page++) {
          const got = await store.s.payments.list(p.id, q({ sortBy: 'amount', sortDir, limit: 2, ...(after ? { after } : {}) }));
          seen.push(...got.map((x) => x.id));
          const last = got.at(-1);
          if (got.length < 2 || !last) break;
          after = { id: last.id, price: last.price };
        }
        expect(seen).toEqual(want);
      }
    });

    it('counts revenue per currency, transactions and customers of the paid payments a filter matches', async () => {
      const { p, ms, made } = await shop();
      expect(await store.s.payments.stats(p.id, q())).toEqual({ revenue: [{ currency: 'USD', minor: 3100n }], transactions: 5, customers: 3 });
      expect(await store.s.payments.stats(p.id, q({ merchantIds: [ms[0]!.id] }))).toEqual({ revenue: [{ currency: 'USD', minor: 1500n }], transactions: 3, customers: 2 });
      expect(await store.s.payments.stats(p.id, q({ assets: ['eip155:1/erc20:0xb'] }))).toEqual({ revenue: [{ currency: 'USD', minor: 900n }], transactions: 1, customers: 1 });
      expect(await store.s.payments.stats(p.id, q({ assets: [] }))).toEqual({ revenue: [], transactions: 0, customers: 0 });
      // A keyset position is not a filter.
      expect(await store.s.payments.stats(p.id, q({ after: { id: made[6]!.id } }))).toMatchObject({ transactions: 5 });
      // Refunded payments are not revenue; token-priced ones have no fiat price to add.
      await store.s.payments.markRefunded(p.id, ms[1]!.id, made[4]!.id, t0, { id: newId('event'), type: 'payment.refunded', snapshot: () => ({}) });
      const token = await f.stored(ms[0]!, { unit: `caip19/${TOKEN_A}`, value: '7000' });
      await f.move(token.id, 'succeeded', { asset: TOKEN_A, network: 'eip155:1', buyerAccount: 'eip155:1:0xb9', succeededAt: t0 });
      const eur = await f.stored(ms[0]!, { unit: 'iso4217/EUR', value: '250' });
      await f.move(eur.id, 'succeeded', { buyerAccount: 'eip155:1:0xb1', succeededAt: t0 });
      expect(await store.s.payments.stats(p.id, q())).toEqual({
        revenue: [
          { currency: 'EUR', minor: 250n },
          { currency: 'USD', minor: 2200n },
        ],
        transactions: 6,
        customers: 3,
      });
      expect(await store.s.payments.stats('ptr_missing', q())).toEqual({ revenue: [], transactions: 0, customers: 0 });
    });

    /**
     * The stats of a filter on merchants and status come from counters the adapter keeps; a
     * creation-time bound that excludes nothing makes the same filter read the payments
     * themselves. The two must agree after every kind of write.
     */
    async function expectCountersAgree(partnerId: string, ms: Array<{ id: string }>) {
      const filters: Array<Partial<PaymentListQuery>> = [
        {},
        { merchantIds: [ms[0]!.id] },
        { merchantIds: [ms[0]!.id, ms[1]!.id] },
        { merchantIds: [ms[2]!.id, ms[2]!.id] },
        { statuses: ['succeeded', 'failed'] },
        { statuses: ['failed', 'expired'] },
        { merchantIds: [ms[1]!.id], statuses: ['succeeded'] },
        { merchantIds: [''] },
      ];
      for (const filter of filters) {
        const counted = await store.s.payments.stats(partnerId, q(filter));
        expect(counted, JSON.stringify(filter)).toEqual(await store.s.payments.stats(partnerId, q({ ...filter, createdFrom: new Date(0) })));
      }
    }

    it('keeps the stats of merchant and status filters equal to a count of the payments through creates, payments, expiry, refunds and races', async () => {
      const p = await f.partner();
      const ms = [await f.merchant(p.id, { settle: [TOKEN_A] }), await f.merchant(p.id), await f.merchant(p.id)];
      const units = ['iso4217/USD', 'iso4217/EUR', `caip19/${TOKEN_A}`];
      const made: PaymentRecord[] = [];
      for (let i = 0; i < 24; i++) made.push(await f.stored(ms[i % 3]!, { unit: units[i % units.length]!, value: String(100 + i), at: t0.getTime() + i }));
      const buyer = (i: number) => `eip155:1:0xb${i % 4}`;
      const pay = (i: number) => f.move(made[i]!.id, 'succeeded', { buyerAccount: buyer(i), asset: TOKEN_A, network: 'eip155:1', succeededAt: t0 });
      const refund = (i: number) =>
        store.s.payments.markRefunded(p.id, made[i]!.merchantId, made[i]!.id, t0, { id: newId('event'), type: 'payment.refunded', snapshot: () => ({}) });
      await expectCountersAgree(p.id, ms);
      for (let i = 0; i < 8; i++) expect((await pay(i)).ok).toBe(true);
      await f.move(made[8]!.id, 'failed', { failureCode: 'x' });
      await f.move(made[9]!.id, 'expired');
      await f.move(made[10]!.id, 'processing', { buyerAccount: buyer(10) });
      await expectCountersAgree(p.id, ms);
      expect((await pay(10)).ok).toBe(true);
      expect((await refund(1)).ok).toBe(true);
      expect((await refund(5)).ok).toBe(true);
      // A paid payment whose buyer changes moves from one customer to another.
      await f.move(made[2]!.id, 'succeeded', { buyerAccount: 'eip155:1:0xnew' }, ['succeeded']);
      await expectCountersAgree(p.id, ms);
      // Races: payments and refunds of the same merchants and buyers at once.
      const raced = await Promise.all([...[11, 12, 13, 14, 15, 16, 17, 18, 19].map(pay), ...[0, 3, 4].map(refund), refund(0)]);
      expect(raced.filter((r) => r.ok)).toHaveLength(12);
      await expectCountersAgree(p.id, ms);
      expect(await store.s.payments.stats(p.id, q())).toMatchObject({ transactions: 13 });
    });

    it('keeps who paid (account and wallet app) with the payment and forgets it on release', async () => {
      const p = { id: newId('partner'), name: 'Wallet team', defaultVersion: '2026-02-18', createdAt: t0, iconUrl: 'https://wallet.example/i.png' };
      await store.s.partners.create(p);
      expect(await store.s.partners.get(p.id)).toEqual(p);
      const m = await f.merchant(p.id);
      const [paid, released] = [await f.stored(m), await f.stored(m)];
      const buyer = { buyerAccount: 'eip155:1:0x3', buyerProviderName: 'W', buyerProviderIcon: 'https://wallet.example/i.png' };
      expect((await f.move(paid.id, 'succeeded', { ...buyer, succeededAt: t0 })).ok).toBe(true);
      expect(await store.s.payments.get(paid.id)).toMatchObject(buyer);
      expect(await store.s.payments.get(released.id)).not.toHaveProperty('buyerProviderName');
      const r = await f.move(released.id, 'processing', { ...buyer, buyerProviderIcon: null });
      expect(r.ok && r.payment).toMatchObject({ buyerProviderName: 'W' });
      expect(r.ok && r.payment).not.toHaveProperty('buyerProviderIcon');
      const back = await f.move(released.id, 'requires_action', { buyerAccount: null, buyerProviderName: null, buyerProviderIcon: null });
      expect(back.ok && back.payment).not.toHaveProperty('buyerProviderName');
      expect(back.ok && back.payment.buyerAccount).toBeNull();
    });
  });
}
