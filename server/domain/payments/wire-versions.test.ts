import { describe, expect, it } from 'vitest';
import { createAssetRegistry } from '../assets.ts';
import type { PaymentRecord } from './records.ts';
import { paymentDetailsView, paymentListItemView, statusView } from './view.ts';
import { declaresEvent, showsExtraPayments, showsFinality, snapshotFor } from './wire-versions.ts';

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

  it('a payment paid twice: `extraPayments` and payment.paid_twice from 2026-11-28 only; 2026-11-27 stays as published', () => {
    const versions = ['2026-02-18', '2026-02-19.preview', '2026-11-27', '2026-11-28'];
    const extra = { txId: '0xdef', network: 'eip155:1', asset: succeeded.asset!, value: 1_000_000n, optionId: 'opt_2', foundAt: at };
    const twice: PaymentRecord = { ...succeeded, finality: 'final', extraPayments: [extra] };
    expect(versions.map((v) => declaresEvent('payment.paid_twice', v))).toEqual([false, false, false, true]);
    expect(versions.map(showsExtraPayments)).toEqual([false, false, false, true]);
    for (const v of versions.slice(0, 3)) expect(paymentDetailsView(twice, undefined, assets, now, v)).not.toHaveProperty('extraPayments');
    expect(paymentDetailsView(twice, undefined, assets, now, '2026-11-28')).toMatchObject({
      extraPayments: [{ txId: '0xdef', network: 'eip155:1', amount: { unit: `caip19/${extra.asset}`, value: '1000000' }, foundAt: at.toISOString() }],
    });
    // Lists and status stay as they were: the extra transactions are on details (and in snapshots) only.
    expect(paymentListItemView(twice, undefined, assets, now, '2026-11-28')).not.toHaveProperty('extraPayments');
    expect(statusView(twice, assets, now, '2026-11-28')).not.toHaveProperty('extraPayments');
    const data = { paymentId: 'pay_1', finality: 'final', extraPayments: [{ txId: '0xdef' }] };
    expect(snapshotFor(data, '2026-11-27')).toEqual({ paymentId: 'pay_1', finality: 'final' });
    expect(snapshotFor(data, '2026-11-28')).toBe(data);
  });
});
