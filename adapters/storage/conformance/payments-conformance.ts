// Long because: create, reads, transitions, relayer transactions and refunds of one repository share one fixture set and one store per run.
import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';
import { paymentFixtures, seenBy, TOKEN_A, TOKEN_B } from './payment-fixtures.ts';

/**
 * PaymentRepository on every adapter: create's outcomes, the reads and their tenancy, transitions,
 * refunds and the transaction ids (quotes have their own suite; lists and stats too). Each
 * adapter's test file calls this with a factory for a fresh, empty store.
 */
export function runPaymentConformance(name: string, open: OpenStore): void {
  describe(`payment repository conformance: ${name}`, () => {
    const store = useStore(open);
    const f = paymentFixtures(() => store.s);
    const job = (paymentId: string) => ({ id: newId('job'), type: 'payment.expire', payload: { paymentId }, runAt: t0 });

    // Many creates at once share statements on a server (group commit); each must still be
    // judged on its own merchant, and one failing payment must not take the others with it.
    it('creates payments arriving together each on its own merits, with its own event, jobs and answer', async () => {
      const p = await f.partner();
      const other = await f.partner();
      const [live, deleted, unsettled, foreign] = [
        await f.merchant(p.id, { name: 'Live' }),
        await f.merchant(p.id),
        await f.merchant(p.id, { settle: [] }),
        await f.merchant(other.id),
      ];
      await store.s.merchants.softDelete(p.id, deleted.id, t0);
      const pay = (merchantId: string, i: number) =>
        f.payment({ id: merchantId, partnerId: p.id }, { unit: `caip19/${TOKEN_A}`, value: `${i}000000000000000000000000001`, ref: `r${i}` });
      const already = pay(live.id, 0);
      expect(await f.create(already)).toEqual({ ok: true });
      const cases = Array.from({ length: 40 }, (_, i) => {
        const target = [live, deleted, unsettled, foreign][i % 4]!;
        return {
          payment: pay(target.id, i + 1),
          job: job(`p${i}`),
          expect: i % 4 === 0 ? { ok: true } : { ok: false, reason: ['', 'merchant_deleted', 'merchant_not_payable', 'merchant_not_found'][i % 4] },
        };
      });
      for (const i of cases.keys()) await store.s.idempotency.claim(p.id, `together-${i}`, 'h', t0, 60_000);
      // The same id again fails its whole shared statement; only that caller may see the error.
      const results = await Promise.allSettled([
        ...cases.map((c, i) => f.create(c.payment, [c.job], { key: `together-${i}`, body: { paymentId: c.payment.id } })),
        f.create(already),
      ]);
      expect(results.at(-1)!.status).toBe('rejected');
      expect(results.slice(0, -1).map((r) => (r.status === 'fulfilled' ? r.value : r.reason))).toEqual(cases.map((c) => c.expect));
      for (const [i, c] of cases.entries()) {
        const made = c.expect.ok;
        expect(await store.s.payments.getForPartner(p.id, c.payment.id)).toEqual(made ? c.payment : null);
        const events = await store.s.payments.events(c.payment.id);
        expect(events).toEqual(
          made
            ? [
                {
                  id: events[0]?.id,
                  paymentId: c.payment.id,
                  partnerId: p.id,
                  type: 'payment.created',
                  stateVersion: 1,
                  createdAt: c.payment.createdAt,
                  data: seenBy(c.payment, live),
                  traceId: null,
                },
              ]
            : [],
        );
        expect((await store.s.jobs.get(c.job.id))?.payload ?? null).toEqual(made ? c.job.payload : null);
        expect(await store.s.idempotency.claim(p.id, `together-${i}`, 'h', t0, 60_000)).toEqual(
          made ? { kind: 'replay', statusCode: 201, body: { paymentId: c.payment.id } } : { kind: 'in_progress' },
        );
      }
    });

    // The event describes the merchant as it is when the payment is created, not as it was.
    it('builds the created event from the merchant read with the create, after renames and deletion', async () => {
      const p = await f.partner();
      const m = await f.merchant(p.id, { name: 'Before', iconUrl: 'https://shop.example/a.png' });
      const first = await f.stored(m);
      expect((await store.s.payments.events(first.id))[0]?.data).toEqual(seenBy(first, m));
      const renamed = await store.s.merchants.update(p.id, m.id, { name: 'After', iconUrl: null });
      const second = await f.stored(m);
      expect((await store.s.payments.events(second.id))[0]?.data).toEqual(seenBy(second, renamed!));
      await store.s.merchants.softDelete(p.id, m.id, t0);
      expect(await f.create(f.payment(m))).toEqual({ ok: false, reason: 'merchant_deleted' });
      // Nothing of a refused create is kept: no payment, event, job or answer.
      await store.s.idempotency.claim(p.id, 'refused', 'h', t0, 60_000);
      const refused = f.payment(m);
      const j = job(refused.id);
      expect(await f.create(refused, [j], { key: 'refused', body: {} })).toEqual({ ok: false, reason: 'merchant_deleted' });
      expect([await store.s.payments.get(refused.id), await store.s.payments.events(refused.id), await store.s.jobs.get(j.id)]).toEqual([null, [], null]);
      expect(await store.s.idempotency.claim(p.id, 'refused', 'h', t0, 60_000)).toEqual({ kind: 'in_progress' });
    });

    // A payment priced in a token is paid in that token only, so it needs a destination for it.
    it('creates a payment priced in a token only for a merchant settling in that token, fiat prices for any settled merchant', async () => {
      const p = await f.partner();
      const m = await f.merchant(p.id);
      const inB = f.payment(m, { unit: `caip19/${TOKEN_B}`, value: '1000000' });
      expect(await f.create(inB)).toEqual({ ok: false, reason: 'merchant_not_payable' });
      expect(await store.s.payments.get(inB.id)).toBeNull();
      const inA = f.payment(m, { unit: `caip19/${TOKEN_A}`, value: '1000000' });
      expect(await f.create(inA)).toEqual({ ok: true });
      expect((await store.s.payments.get(inA.id))?.price).toEqual({ kind: 'token', asset: TOKEN_A, value: 1_000_000n });
      const fiat = f.payment(m, { unit: 'iso4217/EUR', value: '1000000' });
      expect(await f.create(fiat)).toEqual({ ok: true });
      expect((await store.s.payments.get(fiat.id))?.price).toEqual({ kind: 'fiat', currency: 'EUR', value: 1_000_000n });
    });

    it('reads a payment with its merchant and settlements for the gateway, exact to the base unit', async () => {
      const p = await f.partner();
      const m = await f.merchant(p.id, { name: 'Gateway shop', iconUrl: 'https://shop.example/logo.png', settle: [TOKEN_A, TOKEN_B] });
      const pay = await f.stored(m, { unit: `caip19/${TOKEN_A}`, value: '123456789012345678901234567890' });
      const found = await store.s.payments.getForGateway(pay.id);
      expect(found?.payment).toEqual(pay);
      expect(found?.payment.price).toEqual({ kind: 'token', asset: TOKEN_A, value: 123456789012345678901234567890n });
      expect(found?.merchant).toEqual(m);
      const settlements = await store.s.settlements.listByMerchant(p.id, m.id);
      expect(found?.settlements).toEqual([...settlements].sort((x, y) => (x.id < y.id ? -1 : 1)));
      // A deleted merchant still names the payment's seller.
      await store.s.merchants.softDelete(p.id, m.id, t0);
      expect((await store.s.payments.getForGateway(pay.id))?.merchant?.deletedAt).toEqual(t0);
      expect(await store.s.payments.getForGateway('pay_missing')).toBeNull();
    });

    it('reads payments asked for together each within its own partner and merchant', async () => {
      const p = await f.partner();
      const other = await f.partner();
      const [m1, m2] = [await f.merchant(p.id), await f.merchant(p.id)];
      const [a, b, c] = [await f.stored(m1), await f.stored(m2), await f.stored(m1)];
      const asks: Array<[string, string, string | undefined, unknown]> = [
        [p.id, a.id, m1.id, a],
        [p.id, a.id, undefined, a],
        [p.id, a.id, m2.id, null],
        [other.id, a.id, undefined, null],
        [p.id, b.id, m2.id, b],
        [p.id, b.id, m1.id, null],
        [p.id, c.id, m1.id, c],
        [p.id, 'pay_missing', undefined, null],
      ];
      const rounds = await Promise.all(
        Array.from({ length: 5 }, () => Promise.all(asks.map(([partnerId, id, merchantId]) => store.s.payments.getForPartner(partnerId, id, merchantId)))),
      );
      for (const got of rounds) expect(got).toEqual(asks.map((x) => x[3]));
      // By id alone (the gateway side) whoever asks.
      expect(await Promise.all([a, b, c].map((x) => store.s.payments.get(x.id)))).toEqual([a, b, c]);
      expect(await store.s.payments.get('pay_missing')).toBeNull();
    });

    it('transitions only from the states named, writing the change, its event and its jobs in one unit', async () => {
      const p = await f.partner();
      const pay = await f.stored(await f.merchant(p.id));
      const j = job(pay.id);
      const at = new Date(t0.getTime() + 5000);
      const t = { to: 'processing' as const, patch: { optionId: 'opt_1', network: 'eip155:1', buyerAccount: 'eip155:1:0xb' }, at, jobs: [j] };
      const refused = await store.s.payments.transition(pay.id, { ...t, from: ['processing'], event: { id: newId('event'), type: 'payment.processing', snapshot: () => ({}) } });
      expect(refused).toEqual({ ok: false, current: pay });
      expect(await store.s.payments.get(pay.id)).toEqual(pay);
      expect((await store.s.payments.events(pay.id)).map((e) => e.type)).toEqual(['payment.created']);
      expect(await store.s.jobs.get(j.id)).toBeNull();
      const eventId = newId('event');
      const moved = await store.s.payments.transition(pay.id, {
        ...t,
        from: ['requires_action'],
        event: { id: eventId, type: 'payment.processing', snapshot: (x) => ({ v: x.stateVersion, o: x.optionId }) },
      });
      const expected = { ...pay, status: 'processing', stateVersion: 2, updatedAt: at, optionId: 'opt_1', network: 'eip155:1', buyerAccount: 'eip155:1:0xb' };
      expect(moved).toEqual({ ok: true, payment: expected });
      expect(await store.s.payments.get(pay.id)).toEqual(expected);
      expect((await store.s.payments.events(pay.id))[1]).toEqual({
        id: eventId,
        paymentId: pay.id,
        partnerId: p.id,
        type: 'payment.processing',
        stateVersion: 2,
        createdAt: at,
        data: { v: 2, o: 'opt_1' },
        traceId: null,
      });
      expect(await store.s.jobs.get(j.id)).toMatchObject({ type: 'payment.expire', payload: j.payload, runAt: t0, createdAt: at, relayedAt: null, completedAt: null });
      expect(await f.move('pay_missing', 'failed')).toEqual({ ok: false, current: null });
    });

    it('refuses a transaction id another payment was paid with, writing nothing', async () => {
      const p = await f.partner();
      const m = await f.merchant(p.id);
      const [a, b] = [await f.stored(m), await f.stored(m)];
      const paid = { network: 'eip155:1', txId: '0x' + 'd'.repeat(64), succeededAt: t0 };
      expect((await f.move(a.id, 'succeeded', paid)).ok).toBe(true);
      const j = job(b.id);
      const r = await store.s.payments.transition(b.id, {
        from: ['requires_action'],
        to: 'succeeded',
        patch: paid,
        at: t0,
        jobs: [j],
        event: { id: newId('event'), type: 'payment.succeeded', snapshot: () => ({}) },
      });
      expect(r).toEqual({ ok: false, current: b, duplicateTxId: true });
      expect([await store.s.payments.get(b.id), (await store.s.payments.events(b.id)).length, await store.s.jobs.get(j.id)]).toEqual([b, 1, null]);
      // The same hash on another chain is another transaction.
      expect((await f.move(b.id, 'succeeded', { ...paid, network: 'eip155:10' })).ok).toBe(true);
    });

    it('marks a succeeded payment refunded once, within its partner and merchant, with its event', async () => {
      const p = await f.partner();
      const other = await f.partner();
      const [m, m2] = [await f.merchant(p.id), await f.merchant(p.id)];
      const pay = await f.stored(m);
      const at = new Date(t0.getTime() + 60_000);
      // The event's type is the caller's: the store writes what it is given (a name no adapter
      // would write by itself, so one that hard-codes the domain's type fails here).
      const type = 'payment.refunded.conformance';
      const refund = (partnerId: string, merchantId: string) =>
        store.s.payments.markRefunded(partnerId, merchantId, pay.id, at, {
          id: newId('event'),
          type,
          snapshot: (x) => ({ refundedAt: x.refundedAt?.toISOString(), v: x.stateVersion }),
        });
      expect(await refund(p.id, m.id)).toEqual({ ok: false, current: pay });
      const succeeded = await f.move(pay.id, 'succeeded', { succeededAt: t0 });
      if (!succeeded.ok) throw new Error('not succeeded');
      expect(await refund(other.id, m.id)).toEqual({ ok: false, current: null });
      expect(await refund(p.id, m2.id)).toEqual({ ok: false, current: null });
      const refunded = { ...succeeded.payment, refundedAt: at, stateVersion: 3, updatedAt: at };
      expect(await refund(p.id, m.id)).toEqual({ ok: true, payment: refunded });
      expect(await refund(p.id, m.id)).toEqual({ ok: false, current: refunded });
      const events = await store.s.payments.events(pay.id);
      expect(events.map((e) => [e.type, e.stateVersion])).toEqual([
        ['payment.created', 1],
        ['payment.succeeded', 2],
        [type, 3],
      ]);
      expect(events[2]).toMatchObject({ type, partnerId: p.id, createdAt: at, data: { refundedAt: at.toISOString(), v: 3 } });
    });

    it('records the transaction of a processing payment once, and a transaction for one payment only', async () => {
      const p = await f.partner();
      const m = await f.merchant(p.id);
      const [a, b] = [await f.stored(m), await f.stored(m)];
      const tx = '0x' + 'e'.repeat(64);
      const at = new Date(t0.getTime() + 1000);
      expect(await store.s.payments.recordTxId(a.id, tx, at)).toBe(false);
      for (const x of [a, b]) await f.move(x.id, 'processing', { network: 'eip155:1' });
      expect(await store.s.payments.recordTxId(a.id, tx, at)).toBe(true);
      expect(await store.s.payments.get(a.id)).toMatchObject({ txId: tx, updatedAt: at, stateVersion: 2 });
      expect(await store.s.payments.recordTxId(a.id, '0x' + 'f'.repeat(64), at)).toBe(false);
      expect(await store.s.payments.recordTxId(b.id, tx, at)).toBe(false);
      expect((await store.s.payments.get(b.id))?.txId).toBeNull();
      expect(await store.s.payments.recordTxId('pay_missing', tx, at)).toBe(false);
    });

    // The EVM relayer records its signed transaction before broadcasting it; a replacement must
    // name the transaction it replaces, so two workers can never both record (and send) one.
    it('records a relayer transaction before broadcast, replaces it only conditionally, and forgets it on release', async () => {
      const p = await f.partner();
      const pay = await f.stored(await f.merchant(p.id));
      const a = { txId: '0x' + 'a'.repeat(64), rawTx: '0x02aa' };
      const b = { txId: '0x' + 'b'.repeat(64), rawTx: '0x02bb' };
      // Only a processing payment takes one.
      expect(await store.s.payments.recordRelayerTx(pay.id, a, null, t0)).toBe(false);
      await f.move(pay.id, 'processing', { optionId: 'opt_1', network: 'eip155:1' });
      expect(await store.s.payments.getRelayerTx(pay.id)).toBeNull();
      expect(await store.s.payments.recordRelayerTx(pay.id, a, 'tx_other', t0)).toBe(false);
      expect(await store.s.payments.recordRelayerTx(pay.id, a, null, t0)).toBe(true);
      expect(await store.s.payments.getRelayerTx(pay.id)).toEqual(a);
      expect((await store.s.payments.get(pay.id))?.txId).toBe(a.txId);
      // A second first record (another worker) loses; a replacement must name the current one.
      expect(await store.s.payments.recordRelayerTx(pay.id, b, null, t0)).toBe(false);
      expect(await store.s.payments.recordRelayerTx(pay.id, b, '0x' + 'c'.repeat(64), t0)).toBe(false);
      expect(await store.s.payments.recordRelayerTx(pay.id, b, a.txId, t0)).toBe(true);
      expect(await store.s.payments.getRelayerTx(pay.id)).toEqual(b);
      // Only the named payment's: another processing payment keeps nothing of it.
      const other = await f.stored(await f.merchant(p.id));
      await f.move(other.id, 'processing', { network: 'eip155:1' });
      expect(await store.s.payments.getRelayerTx(other.id)).toBeNull();
      // Released: the tx id and its bytes are gone; the next attempt records afresh.
      await f.move(pay.id, 'requires_action', { optionId: null, txId: null });
      expect(await store.s.payments.getRelayerTx(pay.id)).toBeNull();
      await f.move(pay.id, 'processing', { optionId: 'opt_2', network: 'eip155:1' });
      expect(await store.s.payments.getRelayerTx(pay.id)).toBeNull();
      expect(await store.s.payments.recordRelayerTx(pay.id, a, null, t0)).toBe(true);
      expect(await store.s.payments.getRelayerTx(pay.id)).toEqual(a);
      // No longer processing: no replacement.
      await f.move(pay.id, 'succeeded', { succeededAt: t0 }, ['processing']);
      expect(await store.s.payments.recordRelayerTx(pay.id, b, a.txId, t0)).toBe(false);
      expect(await store.s.payments.getRelayerTx('pay_missing')).toBeNull();
    });

    // A relayer batch (issue 32): one transaction pays several EIP-3009 payments, each judged by its
    // own authorization, so each records it. Any other transaction id stays one payment's.
    it("lets a relayer batch's payments share its transaction id, and keeps every other one on one payment", async () => {
      const p = await f.partner();
      const m = await f.merchant(p.id);
      const [a, b, c] = [await f.stored(m), await f.stored(m), await f.stored(m)];
      for (const x of [a, b, c]) await f.move(x.id, 'processing', { optionId: 'opt_1', network: 'eip155:1' });
      const batch = { txId: '0x' + '2b'.repeat(32), rawTx: '0x02ba', shared: true as const };
      expect(await store.s.payments.recordRelayerTx(a.id, batch, null, t0)).toBe(true);
      expect(await store.s.payments.recordRelayerTx(b.id, batch, null, t0)).toBe(true);
      expect(await store.s.payments.getRelayerTx(b.id)).toEqual({ txId: batch.txId, rawTx: batch.rawTx });
      expect((await f.move(a.id, 'succeeded', { txId: batch.txId, txShared: true, succeededAt: t0 }, ['processing'])).ok).toBe(true);
      expect((await f.move(b.id, 'succeeded', { txId: batch.txId, succeededAt: t0 }, ['processing'])).ok).toBe(true);
      // One not recorded (its row was busy) finds the batch paid it, and succeeds with it too.
      expect((await f.move(c.id, 'succeeded', { txId: batch.txId, txShared: true, succeededAt: t0 }, ['processing'])).ok).toBe(true);
      expect((await store.s.payments.get(c.id))?.txId).toBe(batch.txId);
      const own = '0x' + '3c'.repeat(32);
      const [e, g] = [await f.stored(m), await f.stored(m)];
      expect((await f.move(e.id, 'succeeded', { network: 'eip155:1', txId: own, succeededAt: t0 })).ok).toBe(true);
      expect(await f.move(g.id, 'succeeded', { network: 'eip155:1', txId: own, succeededAt: t0 })).toMatchObject({ ok: false, duplicateTxId: true });
      // What each transaction is counted as paying, shared rows and the unshared one alike; not on another network.
      expect((await store.s.payments.paidBy('eip155:1', batch.txId)).map((x) => x.id).sort()).toEqual([a.id, b.id, c.id].sort());
      expect((await store.s.payments.paidBy('eip155:1', own)).map((x) => x.id)).toEqual([e.id]);
      expect(await store.s.payments.paidBy('eip155:2', own)).toEqual([]);
      // A second payment of a batch wallet's transaction, recorded as shared beside its unshared first.
      expect((await f.move(g.id, 'succeeded', { network: 'eip155:1', txId: own, txShared: true, succeededAt: t0 })).ok).toBe(true);
      expect((await store.s.payments.paidBy('eip155:1', own)).map((x) => x.id).sort()).toEqual([e.id, g.id].sort());
      // A row that recorded a batch, then paid by another transaction not said to be shared, is under the guard again.
      const h = await f.stored(m);
      await f.move(h.id, 'processing', { optionId: 'opt_1', network: 'eip155:1' });
      expect(await store.s.payments.recordRelayerTx(h.id, { ...batch, txId: '0x' + '4d'.repeat(32) }, null, t0)).toBe(true);
      expect(await f.move(h.id, 'succeeded', { txId: own, succeededAt: t0 }, ['processing'])).toMatchObject({ ok: false, duplicateTxId: true });
    });

    // A succeeded payment's transaction is followed to finality (server/domain/payments/finality-job.ts):
    // its recorded bytes stay to be sent again after a reorg, and its finality moves only from
    // what the caller saw, a reversal with its event.
    it('keeps the recorded bytes of the transaction a payment succeeded with, and moves its finality conditionally', async () => {
      const p = await f.partner();
      const pay = await f.stored(await f.merchant(p.id));
      // Ids of their own: other cases of this store paid payments with the repeated-digit ones.
      const a = { txId: '0x' + '1d'.repeat(32), rawTx: '0x02dd' };
      const at = new Date(t0.getTime() + 60_000);
      const reversal = { id: newId('event'), type: 'payment.reversed.conformance', snapshot: (x: { finality?: string | null }) => ({ finality: x.finality }) };
      await f.move(pay.id, 'processing', { optionId: 'opt_1', network: 'eip155:1' });
      expect(await store.s.payments.recordRelayerTx(pay.id, a, null, t0)).toBe(true);
      // Not succeeded: no finality to move.
      expect((await store.s.payments.markFinality(pay.id, { from: 'pending', to: 'final', reason: null, at })).ok).toBe(false);
      const succeeded = await f.move(pay.id, 'succeeded', { succeededAt: t0, txId: a.txId, finality: 'pending' }, ['processing']);
      if (!succeeded.ok) throw new Error('not succeeded');
      expect(succeeded.payment.finality).toBe('pending');
      expect(await store.s.payments.getRelayerTx(pay.id)).toEqual(a);
      expect((await store.s.payments.markFinality(pay.id, { from: 'final', to: 'reversed', reason: 'x', at }, reversal)).ok).toBe(false);
      const reversed = await store.s.payments.markFinality(pay.id, { from: 'pending', to: 'reversed', reason: 'its block was dropped', at }, reversal);
      expect(reversed).toMatchObject({ ok: true, payment: { status: 'succeeded', finality: 'reversed', finalityReason: 'its block was dropped', stateVersion: 4 } });
      expect((await store.s.payments.get(pay.id))?.finality).toBe('reversed');
      expect((await store.s.payments.markFinality(pay.id, { from: 'pending', to: 'final', reason: null, at })).ok).toBe(false);
      const events = await store.s.payments.events(pay.id);
      expect(events.at(-1)).toMatchObject({ type: reversal.type, stateVersion: 4, data: { finality: 'reversed' } });
      // Without an event (final), the state version stays.
      const other = await f.stored(await f.merchant(p.id));
      await f.move(other.id, 'processing', { optionId: 'opt_1', network: 'eip155:1' });
      await f.move(other.id, 'succeeded', { succeededAt: t0, txId: '0x' + '1f'.repeat(32), finality: 'pending' }, ['processing']);
      expect(await store.s.payments.markFinality(other.id, { from: 'pending', to: 'final', reason: null, at })).toMatchObject({
        ok: true,
        payment: { finality: 'final', stateVersion: 3 },
      });
    });

    // Paid twice (server/domain/payments/late-funds-job.ts): each extra transaction once, with its event.
    it('records a transaction that paid a succeeded payment again once, with its event; never the one that paid it, never before success', async () => {
      const p = await f.partner();
      const pay = await f.stored(await f.merchant(p.id));
      const at = new Date(t0.getTime() + 90_000);
      const extra = { txId: '0x' + '2e'.repeat(32), network: 'eip155:1', asset: 'eip155:1/erc20:0xa', value: 123_456_789_012_345_678_901n, optionId: 'opt_2', foundAt: at };
      const told = (n: number) => ({
        id: newId('event'),
        type: `payment.paid_twice.conformance${n}`,
        snapshot: (x: { extraPayments?: unknown[] }) => ({ extra: x.extraPayments?.length ?? 0 }),
      });
      expect(await store.s.payments.recordExtraPayment(pay.id, extra, told(0))).toBe(false);
      await f.move(pay.id, 'succeeded', { succeededAt: t0, txId: '0x' + '2d'.repeat(32), optionId: 'opt_1', network: 'eip155:1' });
      expect(await store.s.payments.recordExtraPayment(pay.id, { ...extra, txId: '0x' + '2d'.repeat(32) }, told(1))).toBe(false);
      expect(await store.s.payments.recordExtraPayment(pay.id, extra, told(2))).toBe(true);
      expect(await store.s.payments.recordExtraPayment(pay.id, extra, told(3))).toBe(false);
      const second = { ...extra, txId: '0x' + '2f'.repeat(32) };
      expect(await store.s.payments.recordExtraPayment(pay.id, second, told(4))).toBe(true);
      const read = await store.s.payments.get(pay.id);
      expect(read?.extraPayments).toEqual([extra, second]);
      const events = (await store.s.payments.events(pay.id)).filter((e) => e.type.startsWith('payment.paid_twice'));
      expect(events.map((e) => [e.type, e.data])).toEqual([
        ['payment.paid_twice.conformance2', { extra: 1 }],
        ['payment.paid_twice.conformance4', { extra: 2 }],
      ]);
      expect(events[1]!.stateVersion).toBe(events[0]!.stateVersion + 1);
    });

    it('answers a payment’s events in state order', async () => {
      const p = await f.partner();
      const pay = await f.stored(await f.merchant(p.id));
      await f.move(pay.id, 'processing');
      await f.move(pay.id, 'requires_action');
      await f.move(pay.id, 'expired', {}, ['requires_action']);
      const events = await store.s.payments.events(pay.id);
      expect(events.map((e) => [e.type, e.stateVersion, e.data])).toEqual([
        ['payment.created', 1, seenBy(pay, (await store.s.merchants.get(p.id, pay.merchantId))!)],
        ['payment.processing', 2, { status: 'processing', v: 2 }],
        ['payment.requires_action', 3, { status: 'requires_action', v: 3 }],
        ['payment.expired', 4, { status: 'expired', v: 4 }],
      ]);
      expect(await store.s.payments.events('pay_missing')).toEqual([]);
    });
  });
}
