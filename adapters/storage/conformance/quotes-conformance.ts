import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import type { QuoteRecord } from '../../../server/domain/payments/quote-records.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';

/**
 * What every storage adapter's quote repository does: quotes read back exact (base units,
 * state, collected data), only under their own payment; live ones are found for reuse; the purge
 * deletes only expired quotes nobody paid with, a bounded batch at a time.
 */
export function runQuotesConformance(name: string, open: OpenStore): void {
  describe(`quotes conformance: ${name}`, () => {
    const f = useStore(open);
    // A chain adapter's state as it stores one (nested JSON, hex strings, a boolean, a number): read back exactly.
    const permit2State = (approve: boolean): QuoteRecord['state'] => ({
      flow: 'permit2',
      typedData: {
        types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }] },
        primaryType: 'PermitWitnessTransferFrom',
        domain: { chainId: '0x1' },
        message: { amount: '0x3b9aca00', nonce: '7' },
      },
      approve,
      quoteBlock: 12_345_678,
    });
    const quote = (paymentId: string, deadlineOffsetMs: number, extra: Partial<QuoteRecord> = {}): QuoteRecord => ({
      optionId: newId('option'),
      paymentId,
      account: 'eip155:1:0xb',
      asset: 'eip155:1/erc20:0xa',
      amount: 10n ** 30n + 7n,
      destination: 'eip155:1:0x1',
      deadline: new Date(t0.getTime() + deadlineOffsetMs),
      state: permit2State(true),
      createdAt: t0,
      collectData: false,
      collected: null,
      ...extra,
    });
    async function paid() {
      const p = await f.partner();
      const m = await f.payableMerchant(p.id);
      return f.payment(p.id, m.id);
    }
    /** A payment with four quotes: expired long ago, expired and chosen, expired but recent, live. */
    async function quoted() {
      const pay = await paid();
      const [old, chosen, recent, live] = [quote(pay.id, -7_200_000), quote(pay.id, -7_200_000), quote(pay.id, -60_000), quote(pay.id, 300_000)];
      await f.s.quotes.save([old, chosen, recent, live]);
      return { pay, old, chosen, recent, live };
    }

    it('saves quotes and reads each back exactly, only under its own payment', async () => {
      const [pay, other] = [await paid(), await paid()];
      const q = quote(pay.id, 300_000, { collectData: true });
      await f.s.quotes.save([q]);
      await f.s.quotes.save([]);
      expect(await f.s.quotes.get(pay.id, q.optionId)).toEqual(q);
      expect(await f.s.quotes.get(other.id, q.optionId)).toBeNull();
      expect(await f.s.quotes.get(pay.id, newId('option'))).toBeNull();
    });

    it('replaces a quote’s state and deadline, and no other quote’s', async () => {
      const pay = await paid();
      const [a, b] = [quote(pay.id, 300_000), quote(pay.id, 300_000)];
      await f.s.quotes.save([a, b]);
      const deadline = new Date(t0.getTime() + 1000);
      await f.s.quotes.updateState(a.optionId, permit2State(false), deadline);
      expect(await f.s.quotes.get(pay.id, a.optionId)).toEqual({ ...a, state: permit2State(false), deadline });
      expect(await f.s.quotes.get(pay.id, b.optionId)).toEqual(b);
      // An unknown option changes nothing and does not fail.
      await f.s.quotes.updateState(newId('option'), permit2State(false), deadline);
    });

    it('refuses an invalid Date by name, changing nothing', async () => {
      const pay = await paid();
      const q = quote(pay.id, 300_000, { collectData: true });
      await f.s.quotes.save([q]);
      const invalid = new Date(Number.NaN);
      await expect(f.s.quotes.updateState(q.optionId, permit2State(false), invalid)).rejects.toThrow(/invalid Date/);
      await expect(f.s.quotes.live(pay.id, invalid)).rejects.toThrow(/invalid Date/);
      await expect(f.s.quotes.saveCollected(pay.id, q.optionId, { data: { termsAccepted: true }, termsAcceptedAt: t0, at: invalid })).rejects.toThrow(/invalid Date/);
      expect(await f.s.quotes.get(pay.id, q.optionId)).toEqual(q);
    });

    it('finds a payment’s quotes still live after a time, exact to the base unit', async () => {
      const q = await quoted();
      expect(await f.s.quotes.live(q.pay.id, t0)).toEqual([q.live]);
      expect((await f.s.quotes.live(q.pay.id, new Date(t0.getTime() - 120_000))).map((x) => x.optionId)).toEqual([q.recent.optionId, q.live.optionId].sort());
      expect(await f.s.quotes.live('pay_missing', t0)).toEqual([]);
    });

    it('stores buyer data per option, replacing earlier data, and nothing for an option it does not have', async () => {
      const [pay, other] = [await paid(), await paid()];
      const q = quote(pay.id, 300_000, { collectData: true });
      await f.s.quotes.save([q]);
      const first = { data: { fullName: 'Ada Lovelace', termsAccepted: true }, termsAcceptedAt: t0, at: t0 };
      expect(await f.s.quotes.saveCollected(pay.id, q.optionId, first)).toBe(true);
      expect(await f.s.quotes.get(pay.id, q.optionId)).toEqual({ ...q, collected: first });
      const second = { data: { fullName: 'Grace Hopper', country: 'US', termsAccepted: true }, termsAcceptedAt: new Date(t0.getTime() + 1), at: new Date(t0.getTime() + 2) };
      expect(await f.s.quotes.saveCollected(pay.id, q.optionId, second)).toBe(true);
      expect((await f.s.quotes.get(pay.id, q.optionId))?.collected).toEqual(second);
      // Another payment's option, or an unknown one: false, and nothing written.
      expect(await f.s.quotes.saveCollected(other.id, q.optionId, first)).toBe(false);
      expect(await f.s.quotes.saveCollected(pay.id, newId('option'), first)).toBe(false);
      expect((await f.s.quotes.get(pay.id, q.optionId))?.collected).toEqual(second);
    });

    it('purges expired quotes in bounded batches, never one a payment chose or a processing payment’s', async () => {
      const q = await quoted();
      const processing = await quoted();
      const at = new Date(t0.getTime() + 1000);
      const chose = await f.s.payments.transition(q.pay.id, {
        from: ['requires_action'],
        to: 'succeeded',
        patch: { optionId: q.chosen.optionId },
        at,
        event: { id: newId('event'), type: 'payment.succeeded', snapshot: () => ({}) },
      });
      expect(chose.ok).toBe(true);
      const moved = await f.s.payments.transition(processing.pay.id, {
        from: ['requires_action'],
        to: 'processing',
        patch: { optionId: processing.live.optionId },
        at,
        event: { id: newId('event'), type: 'payment.processing', snapshot: () => ({}) },
      });
      expect(moved.ok).toBe(true);
      const before = new Date(t0.getTime() - 3_600_000);
      // Other tests' quotes may be purgeable too: delete in batches of one until nothing is left.
      let total = 0;
      for (let n = -1; n !== 0; total += n) {
        n = await f.s.quotes.purgeExpired(before, 1);
        expect(n).toBeLessThanOrEqual(1);
      }
      expect(total).toBeGreaterThanOrEqual(1);
      expect(await f.s.quotes.get(q.pay.id, q.old.optionId)).toBeNull();
      for (const kept of [q.chosen, q.recent, q.live]) expect(await f.s.quotes.get(q.pay.id, kept.optionId)).toEqual(kept);
      for (const kept of [processing.old, processing.chosen, processing.recent, processing.live]) expect(await f.s.quotes.get(processing.pay.id, kept.optionId)).toEqual(kept);
      // Later, the recent one goes too; the chosen one never.
      while ((await f.s.quotes.purgeExpired(t0, 100)) > 0);
      expect(await f.s.quotes.get(q.pay.id, q.recent.optionId)).toBeNull();
      expect(await f.s.quotes.get(q.pay.id, q.chosen.optionId)).toEqual(q.chosen);
      expect(await f.s.quotes.get(q.pay.id, q.live.optionId)).toEqual(q.live);
    });

    it('pages through the quotes on one chain of expired and failed payments in a deadline window, from a cursor, oldest first', async () => {
      // Far from every other test's deadlines, so only this test's quotes fall in the window.
      const day = 86_400_000;
      const at = (offset: number) => new Date(t0.getTime() + 900 * day + offset);
      const ended = async (to: 'expired' | 'failed' | null) => {
        const pay = await paid();
        if (to) {
          const r = await f.s.payments.transition(pay.id, {
            from: ['requires_action'],
            to,
            patch: {},
            at: t0,
            event: { id: newId('event'), type: `payment.${to}`, snapshot: () => ({}) },
          });
          expect(r.ok).toBe(true);
        }
        return pay;
      };
      const [expired, failed, open] = [await ended('expired'), await ended('failed'), await ended(null)];
      const inWindow = (pay: { id: string }, offset: number, extra: Partial<QuoteRecord> = {}) => quote(pay.id, 0, { deadline: at(offset), ...extra });
      const first = inWindow(expired, 1000);
      const second = inWindow(failed, 2000);
      const third = inWindow(expired, 3000);
      // Not found: an open payment's quote, another chain's (whose id only starts like this one), a deadline outside the window.
      const others = [
        inWindow(open, 1500),
        inWindow(expired, 1600, { asset: 'eip155:10/erc20:0xa' }),
        inWindow(expired, 1700, { asset: 'eip155:12/erc20:0xa' }),
        inWindow(expired, -1),
        inWindow(expired, 10_000),
      ];
      await f.s.quotes.save([third, ...others, second, first]);
      const from = (deadline: Date, optionId = '') => ({ deadline, optionId });
      expect(await f.s.quotes.ofEndedPayments('eip155:1', from(at(0)), at(10_000), 10)).toEqual([first, second, third]);
      const page = await f.s.quotes.ofEndedPayments('eip155:1', from(at(0)), at(10_000), 2);
      expect(page).toEqual([first, second]);
      expect(await f.s.quotes.ofEndedPayments('eip155:1', from(second.deadline, second.optionId), at(10_000), 2)).toEqual([third]);
      // Two quotes with one deadline: the cursor's option id tells them apart, neither is skipped or repeated.
      const twin = inWindow(failed, 3000);
      await f.s.quotes.save([twin]);
      const [lo, hi] = [third, twin].sort((a, b) => (a.optionId < b.optionId ? -1 : 1));
      expect(await f.s.quotes.ofEndedPayments('eip155:1', from(second.deadline, second.optionId), at(10_000), 1)).toEqual([lo]);
      expect(await f.s.quotes.ofEndedPayments('eip155:1', from(lo!.deadline, lo!.optionId), at(10_000), 10)).toEqual([hi]);
    });

    it('purges a batch of exactly the limit when more are due, and concurrent purges never overlap', async () => {
      // Far in the past, so no other test's quote is due before this cutoff.
      const pay = await paid();
      const due = Array.from({ length: 5 }, () => quote(pay.id, -400 * 86_400_000));
      await f.s.quotes.save(due);
      const cutoff = new Date(t0.getTime() - 399 * 86_400_000);
      expect(await f.s.quotes.purgeExpired(cutoff, 2)).toBe(2);
      const together = await Promise.all([f.s.quotes.purgeExpired(cutoff, 2), f.s.quotes.purgeExpired(cutoff, 2)]);
      let rest = together[0] + together[1];
      for (let n = -1; n !== 0; rest += n) n = await f.s.quotes.purgeExpired(cutoff, 2);
      expect(rest).toBe(3);
      for (const q of due) expect(await f.s.quotes.get(pay.id, q.optionId)).toBeNull();
    });
  });
}
