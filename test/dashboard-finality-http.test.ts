// The dashboard shows a payment a reorg reversed after it succeeded (server/domain/payments/finality-job.ts), and one paid twice (late-funds-job.ts).
import { expect, it } from 'vitest';
import { useDashboardApp } from './helpers/dashboard-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { TEST_ASSETS } from './helpers/test-app.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { transitionPayment } from '../server/domain/payments/transition.ts';

const env = useDashboardApp();
const { signedIn } = env;

it('shows a payment a reorg reversed after it succeeded: its finality and reason, a tag in the list, the event in its timeline', async () => {
  const p = await env.t.newPartner();
  const merchant = await payableMerchant(env.t, p.key);
  const paid = (await createPayment(env.t, p.key, merchant, { referenceId: 'order-reorg' })).body.paymentId as string;
  const before = (await env.t.storage.payments.get(paid))!;
  await transitionPayment({ storage: env.t.storage, clock: env.t.clock, assets: createAssetRegistry(TEST_ASSETS) }, before, 'succeeded', {
    network: 'eip155:8453',
    txId: `0x${paid.slice(-8).padStart(64, 'c')}`,
    succeededAt: new Date(env.t.clock.now()),
    finality: 'pending',
  });
  const at = new Date(env.t.clock.now());
  const reason = 'the authorization lapsed before the relayer could send a transaction that pays with it';
  const r = await env.t.storage.payments.markFinality(
    paid,
    { from: 'pending', to: 'reversed', reason, at },
    { id: `event_${paid}_r`, type: 'payment.reversed', snapshot: () => ({}) },
  );
  expect(r.ok).toBe(true);
  const owner = await signedIn('owner', p.id);
  const page = await owner.get(`/dashboard/payments/${paid}`);
  expect(page.text).toContain('reversed by a reorg');
  expect(page.text).toContain(reason);
  expect([...page.text.matchAll(/data-event="([^"]+)"/g)].map((m) => m[1])).toEqual(['payment.created', 'payment.succeeded', 'payment.reversed']);
  const list = await owner.get('/dashboard/payments');
  expect(list.text).toMatch(new RegExp(`data-payment-id="${paid}"[\\s\\S]*?<span class="tag bad">reversed</span>`));
});

it('shows a payment paid twice: each extra transaction with its amount, a tag in the list, the event in its timeline', async () => {
  const p = await env.t.newPartner();
  const merchant = await payableMerchant(env.t, p.key);
  const paid = (await createPayment(env.t, p.key, merchant, { referenceId: 'order-twice' })).body.paymentId as string;
  const before = (await env.t.storage.payments.get(paid))!;
  const txId = `0x${paid.slice(-8).padStart(64, 'a')}`;
  await transitionPayment({ storage: env.t.storage, clock: env.t.clock, assets: createAssetRegistry(TEST_ASSETS) }, before, 'succeeded', {
    network: 'eip155:8453',
    txId,
    succeededAt: new Date(env.t.clock.now()),
    finality: 'final',
  });
  const asset = TEST_ASSETS.find((a) => a.id.startsWith('eip155:8453') && a.symbol === 'USDC')!.id;
  const extra = { txId: `0x${paid.slice(-8).padStart(64, 'b')}`, network: 'eip155:8453', asset, value: 1_050_000n, optionId: 'opt_x', foundAt: new Date(env.t.clock.now()) };
  const event = { id: `event_${paid}_t`, type: 'payment.paid_twice', snapshot: () => ({}) };
  expect(await env.t.storage.payments.recordExtraPayment(paid, extra, event)).toBe(true);
  // Once per transaction, and never the one that paid it.
  expect(await env.t.storage.payments.recordExtraPayment(paid, extra, { ...event, id: `${event.id}2` })).toBe(false);
  expect(await env.t.storage.payments.recordExtraPayment(paid, { ...extra, txId }, { ...event, id: `${event.id}3` })).toBe(false);
  const owner = await signedIn('owner', p.id);
  const page = await owner.get(`/dashboard/payments/${paid}`);
  expect(page.text).toMatch(/id="paid-again"[\s\S]*paid twice[\s\S]*1\.05 USDC/);
  expect(page.text).toContain(extra.txId);
  expect([...page.text.matchAll(/data-event="([^"]+)"/g)].map((m) => m[1])).toEqual(['payment.created', 'payment.succeeded', 'payment.paid_twice']);
  const list = await owner.get('/dashboard/payments');
  expect(list.text).toMatch(new RegExp(`data-payment-id="${paid}"[\\s\\S]*?<span class="tag bad">paid twice</span>`));
});
