// The moves out of a final state (expired/failed → succeeded, for late funds) are taken only by a
// caller that read the payment in that state: a success decided on a payment read while it was
// still open never overturns the expiry or failure that won the race (transition.ts).
import { expect, it } from 'vitest';
import { useStore } from '../adapters/storage/conformance/store-fixtures.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { transitionPayment } from '../server/domain/payments/transition.ts';
import { createManualClock } from '../server/ports/clock.ts';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';

const f = useStore(async () => {
  const s = await openEmbeddedStorage();
  return Object.assign(s, { dispose: () => s.close() });
});
const deps = () => ({ storage: f.s, clock: createManualClock(), assets: createAssetRegistry([]) });

it('a success decided on an open payment loses to the expiry that won; one decided on the expired payment wins', async () => {
  const p = await f.partner();
  const m = await f.payableMerchant(p.id);
  const open = await f.payment(p.id, m.id);
  const expired = await transitionPayment(deps(), open, 'expired');
  expect(expired.ok).toBe(true);
  // Read while open (the stale record): refused, the payment stays expired.
  const stale = await transitionPayment(deps(), open, 'succeeded', { txId: '0xstale' });
  expect(stale).toMatchObject({ ok: false, current: { status: 'expired' } });
  // Read as expired (late funds found): it moves, with its event.
  const late = await transitionPayment(deps(), expired.ok ? expired.payment : open, 'succeeded', { txId: '0xlate' });
  expect(late).toMatchObject({ ok: true, payment: { status: 'succeeded', txId: '0xlate' } });
  expect((await f.s.payments.events(open.id)).map((e) => e.type)).toEqual(['payment.created', 'payment.expired', 'payment.succeeded']);
});
