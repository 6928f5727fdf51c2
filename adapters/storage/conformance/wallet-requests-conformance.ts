import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import type { QuoteRecord } from '../../../server/domain/payments/quote-records.ts';
import type { SplQuoteState } from '../../../server/ports/chain-state-solana.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';

/**
 * What Solana Pay transaction requests need of storage to answer two scans in two processes with
 * one transaction: one option per (payment, account, asset), set by one request of any number
 * racing, replaced only by a request that read the option being replaced; a quote's state
 * replaced only by a request that read the state being replaced.
 */
export function runWalletRequestsConformance(name: string, open: OpenStore): void {
  describe(`wallet requests conformance: ${name}`, () => {
    const f = useStore(open);
    const spl: SplQuoteState = { flow: 'spl', mint: 'Mint', decimals: 6, destinationOwner: 'Shop', amount: '5' };
    const quote = (paymentId: string, state: QuoteRecord['state'] = spl): QuoteRecord => ({
      optionId: newId('option'),
      paymentId,
      account: 'solana:x:Buyer',
      asset: 'solana:x/token:Mint',
      amount: 5n,
      destination: 'solana:x:Shop',
      deadline: new Date(t0.getTime() + 300_000),
      state,
      createdAt: t0,
      collectData: false,
      collected: null,
    });
    async function payment() {
      const p = await f.partner();
      const m = await f.payableMerchant(p.id);
      return f.payment(p.id, m.id);
    }

    it('of requests racing to set the option, exactly one sets it and every one answers that one', async () => {
      const pay = await payment();
      const quotes = Array.from({ length: 6 }, () => quote(pay.id));
      await f.s.quotes.save(quotes);
      expect(await f.s.quotes.walletRequestOption(pay.id, 'Buyer', 'A')).toBeNull();
      const answers = await Promise.all(quotes.map((q) => f.s.quotes.claimWalletRequest(pay.id, 'Buyer', 'A', q.optionId, null)));
      expect(new Set(answers).size).toBe(1);
      expect(quotes.map((q) => q.optionId)).toContain(answers[0]);
      expect(await f.s.quotes.walletRequestOption(pay.id, 'Buyer', 'A')).toBe(answers[0]);
      // Another account, or asset, has an option of its own.
      expect(await f.s.quotes.claimWalletRequest(pay.id, 'Other', 'A', quotes[0]!.optionId, null)).toBe(quotes[0]!.optionId);
      expect(await f.s.quotes.walletRequestOption(pay.id, 'Buyer', 'B')).toBeNull();
    });

    it('replaces the option only for a request that read the one being replaced; goes with its quote', async () => {
      const pay = await payment();
      const [spent, fresh, late] = [quote(pay.id), quote(pay.id), quote(pay.id)];
      await f.s.quotes.save([spent, fresh, late]);
      await f.s.quotes.claimWalletRequest(pay.id, 'Buyer', 'A', spent.optionId, null);
      expect(await f.s.quotes.claimWalletRequest(pay.id, 'Buyer', 'A', fresh.optionId, spent.optionId)).toBe(fresh.optionId);
      // A second request that also read `spent` does not replace `fresh` (nor does one that read nothing).
      expect(await f.s.quotes.claimWalletRequest(pay.id, 'Buyer', 'A', late.optionId, spent.optionId)).toBe(fresh.optionId);
      expect(await f.s.quotes.claimWalletRequest(pay.id, 'Buyer', 'A', late.optionId, null)).toBe(fresh.optionId);
      await f.s.quotes.purgeExpired(new Date(t0.getTime() + 600_000), 10_000);
      expect(await f.s.quotes.get(pay.id, fresh.optionId)).toBeNull();
      expect(await f.s.quotes.walletRequestOption(pay.id, 'Buyer', 'A')).toBeNull();
    });

    it('replaces a quote’s state only when it is still the state read', async () => {
      const pay = await payment();
      const read: SplQuoteState = { ...spl, walletBuilds: [] };
      const q = quote(pay.id, read);
      await f.s.quotes.save([q]);
      const mine = { ...read, walletBuilds: [{ messageBase64: 'AQ==', lastValidBlockHeight: 7 }] };
      const theirs = { ...read, walletBuilds: [{ messageBase64: 'Ag==', lastValidBlockHeight: 8 }] };
      const later = new Date(t0.getTime() + 400_000);
      const wins = await Promise.all([f.s.quotes.updateStateIf(q.optionId, read, mine, later), f.s.quotes.updateStateIf(q.optionId, read, theirs, later)]);
      expect(wins.filter(Boolean)).toHaveLength(1);
      const stored = await f.s.quotes.get(pay.id, q.optionId);
      expect(stored!.state).toEqual(wins[0] ? mine : theirs);
      expect(stored!.deadline).toEqual(later);
      // The state as read back is the state: a second build on top of it is stored.
      expect(await f.s.quotes.updateStateIf(q.optionId, stored!.state, read, later)).toBe(true);
    });
  });
}
