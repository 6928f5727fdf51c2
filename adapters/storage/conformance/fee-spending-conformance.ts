import { describe, expect, it } from 'vitest';
import type { FeeSpendRecord } from '../../../server/domain/fees/records.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';

/**
 * What every storage adapter's fee-spending repository does: a transaction is charged once
 * whoever reports it, to its partner only; sums are exact in base units (wei exceed 2^53) and
 * cover only the period asked, one chain at a time.
 */
export function runFeeSpendingConformance(name: string, open: OpenStore): void {
  describe(`fee spending conformance: ${name}`, () => {
    const f = useStore(open);
    let seq = 0;
    const spend = (partnerId: string, extra: Partial<FeeSpendRecord> = {}): FeeSpendRecord => ({
      partnerId,
      paymentId: `pay_fee_${++seq}`,
      chain: 'eip155:8453',
      account: '0xfD7aa51dF9AF77977F29126c82fBC5D00437b37e',
      txId: `0x${seq.toString(16).padStart(64, '0')}`,
      amount: 10n ** 18n + 123_456_789n,
      at: t0,
      ...extra,
    });

    it('charges a transaction once, however often it is reported, and sums exactly per partner and chain', async () => {
      const a = await f.partner();
      const b = await f.partner();
      const first = spend(a.id);
      expect(await f.s.feeSpending.record(first)).toBe(true);
      expect(await f.s.feeSpending.record({ ...first, amount: 1n })).toBe(false);
      expect(await f.s.feeSpending.record(spend(a.id, { amount: 7n }))).toBe(true);
      expect(await f.s.feeSpending.record(spend(a.id, { chain: 'solana:sandbox', amount: 5_000n }))).toBe(true);
      expect(await f.s.feeSpending.record(spend(b.id, { amount: 999n }))).toBe(true);
      expect(await f.s.feeSpending.spentSince(a.id, 'eip155:8453', t0)).toBe(10n ** 18n + 123_456_796n);
      expect(await f.s.feeSpending.spentSince(b.id, 'eip155:8453', t0)).toBe(999n);
      expect(await f.s.feeSpending.spentSince(b.id, 'solana:sandbox', t0)).toBe(0n);
      expect(await f.s.feeSpending.totals(a.id, t0)).toEqual([
        { chain: 'eip155:8453', amount: 10n ** 18n + 123_456_796n, transactions: 2 },
        { chain: 'solana:sandbox', amount: 5_000n, transactions: 1 },
      ]);
    });

    it('charges each payment of a batch its share once: one transaction, two payments, counted as one transaction', async () => {
      const p = await f.partner();
      const one = spend(p.id, { amount: 40n });
      const other = { ...one, paymentId: `${one.paymentId}_b`, amount: 41n };
      expect(await f.s.feeSpending.record(one)).toBe(true);
      expect(await f.s.feeSpending.record(other)).toBe(true);
      expect(await f.s.feeSpending.record(other)).toBe(false);
      expect(await f.s.feeSpending.spentSince(p.id, 'eip155:8453', t0)).toBe(81n);
      expect(await f.s.feeSpending.totals(p.id, t0)).toEqual([{ chain: 'eip155:8453', amount: 81n, transactions: 1 }]);
    });

    it('counts only what was spent since the period began', async () => {
      const p = await f.partner();
      const hour = 3_600_000;
      await f.s.feeSpending.record(spend(p.id, { amount: 100n, at: new Date(t0.getTime() - 25 * hour) }));
      await f.s.feeSpending.record(spend(p.id, { amount: 20n, at: new Date(t0.getTime() - hour) }));
      await f.s.feeSpending.record(spend(p.id, { amount: 3n, at: t0 }));
      const since = new Date(t0.getTime() - 24 * hour);
      expect(await f.s.feeSpending.spentSince(p.id, 'eip155:8453', since)).toBe(23n);
      expect(await f.s.feeSpending.spentSince(p.id, 'eip155:8453', t0)).toBe(3n);
      expect(await f.s.feeSpending.totals(p.id, since)).toEqual([{ chain: 'eip155:8453', amount: 23n, transactions: 2 }]);
      expect(await f.s.feeSpending.totals(p.id, new Date(t0.getTime() + hour))).toEqual([]);
    });
  });
}
