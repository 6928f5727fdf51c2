// Long because: the quote repository's one conformance suite (saves, caps, purges with and without the late-funds reach, the watcher's pages), run on every storage adapter, reads as one piece.
import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import type { QuoteRecord } from '../../../server/domain/payments/quote-records.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';

/**
 * What every storage adapter's quote repository does: quotes read back exact (base units,
 * state, collected data), only under their own payment; live ones are found for reuse; the purge
 * deletes only expired quotes nobody paid with, a bounded batch at a time; a save with a cap keeps
 * each payment's live unchosen quotes under it by ending the oldest ones' deadline.
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

    it('keeps at most the cap of live quotes per payment, ending the oldest ones’ deadline and no other payment’s', async () => {
      const [pay, other] = [await paid(), await paid()];
      const cap = { perPayment: 3, now: t0 };
      const at = (ms: number) => new Date(t0.getTime() + ms);
      // Oldest first: one already expired (not counted), then five live ones, quoted a second apart.
      const expired = quote(pay.id, -1000, { createdAt: at(-400_000) });
      const live = [1, 2, 3, 4, 5].map((i) => quote(pay.id, 300_000, { createdAt: at(-100_000 + i * 1000) }));
      const others = [1, 2, 3, 4].map((i) => quote(other.id, 300_000, { createdAt: at(-200_000 + i * 1000) }));
      await f.s.quotes.save([expired, ...others.slice(0, 3)], cap);
      await f.s.quotes.save(live.slice(0, 2), cap);
      expect((await f.s.quotes.live(pay.id, t0)).map((q) => q.optionId)).toEqual(live.slice(0, 2).map((q) => q.optionId));
      // Three more quotes: the two oldest live ones go, and their buyer hears `quote_expired`.
      await f.s.quotes.save(live.slice(2), cap);
      expect((await f.s.quotes.live(pay.id, t0)).map((q) => q.optionId)).toEqual(live.slice(2).map((q) => q.optionId));
      for (const gone of live.slice(0, 2)) expect(await f.s.quotes.get(pay.id, gone.optionId)).toEqual({ ...gone, deadline: t0 });
      expect(await f.s.quotes.get(pay.id, expired.optionId)).toEqual(expired);
      // Another payment's quotes count for that payment alone.
      expect(await f.s.quotes.live(other.id, t0)).toEqual(others.slice(0, 3));
      await f.s.quotes.save([others[3]!], cap);
      expect((await f.s.quotes.live(other.id, t0)).map((q) => q.optionId)).toEqual(others.slice(1).map((q) => q.optionId));
      // A quote offered again in the same answer is kept as if newest: the next oldest goes instead.
      await f.s.quotes.save([quote(other.id, 300_000, { createdAt: at(1000) })], { ...cap, reoffered: [others[1]!.optionId] });
      expect(await f.s.quotes.get(other.id, others[1]!.optionId)).toEqual(others[1]);
      expect((await f.s.quotes.get(other.id, others[2]!.optionId))?.deadline).toEqual(t0);
      // Without a cap (no options call), nothing is evicted.
      await f.s.quotes.save([quote(pay.id, 300_000, { createdAt: at(10_000) })]);
      expect(await f.s.quotes.live(pay.id, t0)).toHaveLength(4);
    });

    it('never evicts a chosen quote nor a processing payment’s, and does not count them', async () => {
      const [chosenPay, processingPay] = [await paid(), await paid()];
      const cap = { perPayment: 2, now: t0 };
      const at = (ms: number) => new Date(t0.getTime() + ms);
      const chosen = quote(chosenPay.id, 300_000, { createdAt: at(-100_000) });
      const picked = quote(processingPay.id, 300_000, { createdAt: at(-100_000) });
      const otherOfProcessing = quote(processingPay.id, 300_000, { createdAt: at(-99_000) });
      await f.s.quotes.save([chosen, picked, otherOfProcessing]);
      const move = (id: string, to: 'succeeded' | 'processing', optionId: string) =>
        f.s.payments.transition(id, { from: ['requires_action'], to, patch: { optionId }, at: t0, event: { id: newId('event'), type: `payment.${to}`, snapshot: () => ({}) } });
      expect((await move(chosenPay.id, 'succeeded', chosen.optionId)).ok).toBe(true);
      expect((await move(processingPay.id, 'processing', picked.optionId)).ok).toBe(true);
      const later = [1, 2, 3].map((i) => quote(chosenPay.id, 300_000, { createdAt: at(i * 1000) }));
      await f.s.quotes.save(later, cap);
      expect(await f.s.quotes.get(chosenPay.id, chosen.optionId)).toEqual(chosen);
      // The chosen quote is not counted: the two newest unchosen ones stay live beside it.
      expect((await f.s.quotes.live(chosenPay.id, t0)).map((q) => q.optionId)).toEqual([chosen, ...later.slice(1)].map((q) => q.optionId));
      const more = [1, 2, 3].map((i) => quote(processingPay.id, 300_000, { createdAt: at(i * 1000) }));
      await f.s.quotes.save(more, cap);
      expect(await f.s.quotes.live(processingPay.id, t0)).toEqual([picked, otherOfProcessing, ...more]);
    });

    it('never evicts a direct transfer: its buyer may already have paid on chain, and confirm must still find it', async () => {
      const pay = await paid();
      const cap = { perPayment: 2, now: t0 };
      const at = (ms: number) => new Date(t0.getTime() + ms);
      const transfer = quote(pay.id, 300_000, { createdAt: at(-100_000), state: { flow: 'transfer' } });
      await f.s.quotes.save([transfer]);
      const later = [1, 2, 3].map((i) => quote(pay.id, 300_000, { createdAt: at(i * 1000) }));
      await f.s.quotes.save(later, cap);
      // before: the oldest, the transfer the buyer may have sent, was evicted first; after: kept, and not counted.
      expect((await f.s.quotes.live(pay.id, t0)).map((q) => q.optionId)).toEqual([transfer, ...later.slice(1)].map((q) => q.optionId));
    });

    it('holds the cap when saves to one payment run at once', async () => {
      const pay = await paid();
      const cap = { perPayment: 4, now: t0 };
      const batches = Array.from({ length: 16 }, (_, b) => [0, 1, 2].map((i) => quote(pay.id, 300_000, { createdAt: new Date(t0.getTime() + b * 10 + i) })));
      await Promise.all(batches.map((batch) => f.s.quotes.save(batch, cap)));
      expect(await f.s.quotes.live(pay.id, t0)).toHaveLength(4);
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

    it('pages through the quotes on one chain of expired, failed and succeeded payments in a deadline window, from a cursor, oldest first', async () => {
      // Far from every other test's deadlines, so only this test's quotes fall in the window.
      const day = 86_400_000;
      const at = (offset: number) => new Date(t0.getTime() + 900 * day + offset);
      const ended = async (to: 'expired' | 'failed' | 'succeeded' | null) => {
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
      const [expired, failed, succeeded, open] = [await ended('expired'), await ended('failed'), await ended('succeeded'), await ended(null)];
      const inWindow = (pay: { id: string }, offset: number, extra: Partial<QuoteRecord> = {}) => quote(pay.id, 0, { deadline: at(offset), ...extra });
      const first = inWindow(expired, 1000);
      const second = inWindow(failed, 2000);
      const third = inWindow(expired, 3000);
      // A succeeded payment's quotes too: a second payment for it is looked for (paid twice).
      const zeroth = inWindow(succeeded, 500);
      // Not found: an open payment's quote, another chain's (whose id only starts like this one), a deadline outside the window.
      const others = [
        inWindow(open, 1500),
        inWindow(expired, 1600, { asset: 'eip155:10/erc20:0xa' }),
        inWindow(expired, 1700, { asset: 'eip155:12/erc20:0xa' }),
        inWindow(expired, -1),
        inWindow(expired, 10_000),
      ];
      await f.s.quotes.save([third, ...others, second, zeroth, first]);
      const from = (deadline: Date, optionId = '') => ({ deadline, optionId });
      expect(await f.s.quotes.ofEndedPayments('eip155:1', from(at(0)), at(10_000), 10)).toEqual([zeroth, first, second, third]);
      const page = await f.s.quotes.ofEndedPayments('eip155:1', from(at(0)), at(10_000), 3);
      expect(page).toEqual([zeroth, first, second]);
      expect(await f.s.quotes.ofEndedPayments('eip155:1', from(second.deadline, second.optionId), at(10_000), 2)).toEqual([third]);
      // Two quotes with one deadline: the cursor's option id tells them apart, neither is skipped or repeated.
      const twin = inWindow(failed, 3000);
      await f.s.quotes.save([twin]);
      const [lo, hi] = [third, twin].sort((a, b) => (a.optionId < b.optionId ? -1 : 1));
      expect(await f.s.quotes.ofEndedPayments('eip155:1', from(second.deadline, second.optionId), at(10_000), 1)).toEqual([lo]);
      expect(await f.s.quotes.ofEndedPayments('eip155:1', from(lo!.deadline, lo!.optionId), at(10_000), 10)).toEqual([hi]);
    });

    it('with a late-funds reach, keeps the quotes funds can arrive for without a confirm while their payment is unpaid or succeeded (a second payment), until the reach has passed its end', async () => {
      // Far from every other test's deadlines (500 days back), so only this test's quotes are in play.
      const day = 86_400_000;
      const at = (days: number) => new Date(t0.getTime() - 500 * day + days * day);
      const end = async (to: 'expired' | 'failed' | 'succeeded' | 'cancelled' | null, when: Date) => {
        const pay = await paid();
        if (to) {
          const r = await f.s.payments.transition(pay.id, {
            from: ['requires_action'],
            to,
            patch: {},
            at: when,
            event: { id: newId('event'), type: `payment.${to}`, snapshot: () => ({}) },
          });
          expect(r.ok).toBe(true);
        }
        return pay;
      };
      const transfer = { flow: 'transfer' } as QuoteRecord['state'];
      const solanaPay = { flow: 'spl' as const, mint: 'M', decimals: 6, destinationOwner: 'D', amount: '1', walletBuilds: [{ messageBase64: 'AA==', lastValidBlockHeight: 9 }] };
      const [expiredRecently, expiredLongAgo, failed, open, succeeded, cancelled] = [
        await end('expired', at(10)),
        await end('expired', at(1)),
        await end('failed', at(10)),
        await end(null, at(0)),
        await end('succeeded', at(10)),
        await end('cancelled', at(10)),
      ];
      const q = (pay: { id: string }, state: QuoteRecord['state'], deadlineDay = 0) => ({ ...quote(pay.id, 0, { state }), deadline: at(deadlineDay) });
      const kept = [
        q(expiredRecently, transfer),
        q(expiredRecently, { flow: 'eip3009' } as QuoteRecord['state']),
        q(failed, solanaPay),
        q(open, transfer),
        q(expiredLongAgo, transfer, 9),
        q(succeeded, transfer),
      ];
      const purged = [
        q(expiredRecently, permit2State(false)),
        q(expiredLongAgo, transfer),
        q(cancelled, transfer),
        q(expiredRecently, { flow: 'spl', walletBuilds: null } as unknown as QuoteRecord['state']),
      ];
      await f.s.quotes.save([...kept, ...purged]);
      // Now = day 12 of this test's time, the reach 5 days: payments that ended on day 10 are within it, on day 1 not.
      const cutoff = new Date(at(12).getTime() - 3600_000);
      while ((await f.s.quotes.purgeExpired(cutoff, 100, at(7))) > 0);
      for (const k of kept) expect(await f.s.quotes.get(k.paymentId, k.optionId), `kept ${JSON.stringify(k.state).slice(0, 40)}`).toEqual(k);
      for (const p of purged) expect(await f.s.quotes.get(p.paymentId, p.optionId), `purged ${JSON.stringify(p.state).slice(0, 40)}`).toBeNull();
      // The watcher's long reach lists exactly those on the chain, by option id, a page at a time.
      const listed = await f.s.quotes.withinReach('eip155:1', '', at(7), at(12), 100);
      const mine = listed.filter((l) => kept.some((k) => k.optionId === l.optionId));
      expect(mine.map((m) => m.optionId)).toEqual(kept.map((k) => k.optionId).sort());
      const first = await f.s.quotes.withinReach('eip155:1', mine[1]!.optionId, at(7), at(12), 1);
      expect(first.every((x) => x.optionId > mine[1]!.optionId)).toBe(true);
      expect(await f.s.quotes.withinReach('eip155:2', '', at(7), at(12), 100)).toEqual([]);
      // Without a reach (as before), the purge takes them as any expired unchosen quote.
      while ((await f.s.quotes.purgeExpired(cutoff, 100)) > 0);
      for (const k of kept) expect(await f.s.quotes.get(k.paymentId, k.optionId)).toBeNull();
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
