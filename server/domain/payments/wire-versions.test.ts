import { describe, expect, it } from 'vitest';
import { createAssetRegistry } from '../assets.ts';
import type { PaymentRecord } from './records.ts';
import { paymentDetailsView, paymentListItemView, statusView } from './view.ts';
import { declaresEvent, showsFinality, snapshotFor } from './wire-versions.ts';

const at = new Date('2026-11-27T09:00:00.000Z');
const succeeded: PaymentRecord = {
  id: 'pay_1',
  partnerId: 'ptn_1',
  merchantId: 'mrch_1',
  referenceId: 'order-1',
  price: { kind: 'fiat', currency: 'USD', value: 100n },
  status: 'succeeded',
  stateVersion: 4,
  expiresAt: new Date(at.getTime() + 300_000),
  createdAt: at,
  updatedAt: at,
  checkout: null,
  failureCode: null,
  cancelledReason: null,
  cancelledAt: null,
  refundedAt: null,
  optionId: 'opt_1',
  buyerAccount: 'eip155:1:0x0000000000000000000000000000000000000001',
  asset: 'eip155:1/erc20:0x0000000000000000000000000000000000000002',
  tokenValue: 1_000_000n,
  network: 'eip155:1',
  txId: '0xabc',
  succeededAt: at,
  finality: 'reversed',
  finalityReason: 'its block was dropped',
};
const assets = createAssetRegistry([]);
const now = at.getTime();

describe('what each API version says of a succeeded payment’s finality', () => {
  it('2026-11-27 shows `finality` on status, details and list items; the first versions never do', () => {
    for (const v of ['2026-02-18', '2026-02-19.preview']) {
      expect(showsFinality(v)).toBe(false);
      expect(statusView(succeeded, assets, now, v)).not.toHaveProperty('finality');
      expect(paymentDetailsView(succeeded, undefined, assets, now, v)).not.toHaveProperty('finality');
      expect(paymentListItemView(succeeded, undefined, assets, now, v)).not.toHaveProperty('finality');
    }
    expect(statusView(succeeded, assets, now, '2026-11-27')).toMatchObject({ status: 'succeeded', finality: 'reversed' });
    expect(paymentDetailsView(succeeded, undefined, assets, now, '2026-11-27')).toMatchObject({ finality: 'reversed' });
    expect(paymentListItemView(succeeded, undefined, assets, now, '2026-11-27')).toMatchObject({ finality: 'reversed' });
    // Not followed (null), or not succeeded: no field, in any version.
    expect(statusView({ ...succeeded, finality: null }, assets, now, '2026-11-27')).not.toHaveProperty('finality');
    expect(statusView({ ...succeeded, status: 'processing' }, assets, now, '2026-11-27')).not.toHaveProperty('finality');
  });

  it('payment.reversed is an event of 2026-11-27 only, and snapshots lose `finality` under older versions', () => {
    expect(['2026-02-18', '2026-02-19.preview', '2026-11-27'].map((v) => declaresEvent('payment.reversed', v))).toEqual([false, false, true]);
    expect(declaresEvent('payment.succeeded', '2026-02-18')).toBe(true);
    const data = { paymentId: 'pay_1', finality: 'reversed', payment_state_version: 4 };
    expect(snapshotFor(data, '2026-02-18')).toEqual({ paymentId: 'pay_1', payment_state_version: 4 });
    expect(snapshotFor(data, '2026-11-27')).toBe(data);
    expect(snapshotFor('not an object', '2026-02-18')).toBe('not an object');
    expect(() => snapshotFor(data, '2099-01-01')).toThrow(/no wire vocabulary/);
  });
});
