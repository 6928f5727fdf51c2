import { afterAll, beforeAll } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import type { MerchantRecord } from '../../../server/domain/merchants/records.ts';
import type { PartnerRecord } from '../../../server/domain/partners/records.ts';
import { newPayment } from '../../../server/domain/payments/create-payment.ts';
import type { PaymentRecord } from '../../../server/domain/payments/records.ts';
import type { StoragePort } from '../../../server/ports/storage/index.ts';

/** A factory for a fresh, empty store; `dispose` closes it and removes what it left behind. */
export type OpenStore = () => Promise<StoragePort & { dispose(): Promise<void> }>;

/** The time every conformance record is made at, unless a test says otherwise. */
export const t0 = new Date('2026-11-22T10:00:00.000Z');

/**
 * One fresh store for the suite it is called in (opened before its first test, disposed after
 * its last), with builders for the records most tests need. Tests share the store, so each
 * makes its own partner and never counts on a table being empty.
 */
export function useStore(open: OpenStore) {
  let store: (StoragePort & { dispose(): Promise<void> }) | undefined;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store?.dispose();
  });
  // Ids of one millisecond sort at random among themselves; each merchant gets its own
  // millisecond so "newest first" is defined.
  let made = 0;
  const fixtures = {
    get s(): StoragePort {
      if (!store) throw new Error('store not open yet');
      return store;
    },
    async partner(extra: Partial<PartnerRecord> = {}): Promise<PartnerRecord> {
      const p: PartnerRecord = { id: newId('partner'), name: 'P', defaultVersion: '2026-02-18', createdAt: t0, ...extra };
      await fixtures.s.partners.create(p);
      return p;
    },
    /** A merchant record, not yet stored. */
    merchant(partnerId: string, name = 'M'): MerchantRecord {
      return { id: newId('merchant', t0.getTime() + ++made), partnerId, name, email: 'm@x.co', iconUrl: null, status: 'active', createdAt: t0, deletedAt: null };
    },
    /** A stored merchant that can be paid (it settles in one asset). */
    async payableMerchant(partnerId: string): Promise<MerchantRecord> {
      const m = fixtures.merchant(partnerId);
      await fixtures.s.merchants.create(m);
      const settled = await fixtures.s.settlements.createMany(partnerId, m.id, [
        { id: newId('cryptoSettlement'), partnerId, merchantId: m.id, asset: 'eip155:1/erc20:0xa', destination: 'eip155:1:0x1', createdAt: t0 },
      ]);
      if (!settled.ok) throw new Error(`fixture settlement failed: ${settled.reason}`);
      return m;
    },
    /** A stored USD payment of a payable merchant, requiring action. */
    async payment(partnerId: string, merchantId: string): Promise<PaymentRecord> {
      const pay = newPayment({ partnerId, merchantId, amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'r', expiresAt: null }, t0.getTime(), {
        defaultTtlS: 86_400,
        maxTtlS: 86_400,
      });
      const created = await fixtures.s.payments.create(pay, { event: { id: newId('event'), type: 'payment.created', snapshot: () => ({}) }, jobs: [] });
      if (!created.ok) throw new Error(`fixture payment failed: ${created.reason}`);
      return pay;
    },
  };
  return fixtures;
}
