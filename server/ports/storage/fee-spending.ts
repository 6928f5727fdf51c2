import type { FeeSpendRecord, FeeSpendTotal } from '../../domain/fees/records.ts';

/**
 * What the service's shared fee accounts spent for each partner's payments. A transaction is
 * charged once per payment it served, whatever reports it (a job step repeated, two workers):
 * recorded by (chain, txId, paymentId); a batch's payments each carry their share.
 */
export interface FeeSpendingRepository {
  /** Records one transaction's spend for one payment; false, writing nothing, when (chain, txId, paymentId) is recorded already. */
  record(entry: FeeSpendRecord): Promise<boolean>;
  /** What the partner's payments spent on `chain` since `since` (inclusive), base units. */
  spentSince(partnerId: string, chain: string, since: Date): Promise<bigint>;
  /** The partner's spending per chain since `since`, chains in name order (dashboard, doctor). */
  totals(partnerId: string, since: Date): Promise<FeeSpendTotal[]>;
}
