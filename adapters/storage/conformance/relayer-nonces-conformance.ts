import { describe, expect, it } from 'vitest';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';
import { paymentFixtures } from './payment-fixtures.ts';
import type { SignedAt } from '../../../server/ports/storage/relayer-nonces.ts';

/**
 * What every storage adapter's relayer nonce counter does: a nonce is given once, only to a
 * transaction some processing payment's row took in the same transaction, in order, moved up to the
 * chain's count when the chain is ahead; gaps are filled once and forgotten once the chain passed
 * them; a batch's replacement at its nonce moves every row that held the old one.
 */
export function runRelayerNoncesConformance(name: string, open: OpenStore): void {
  describe(`relayer nonces conformance: ${name}`, () => {
    const store = useStore(open);
    const f = paymentFixtures(() => store.s);
    let seq = 0;
    const key = () => ({ chain: 'eip155:8453', relayer: `0x${(++seq).toString(16).padStart(40, 'A')}` });
    const signer =
      (label: string) =>
      async (nonce: number): Promise<SignedAt> => ({ txId: `0x${label}${nonce.toString(16).padStart(60, '0')}`, rawTx: `0x02${label}${nonce}` });
    async function processing(): Promise<string> {
      const p = await f.partner();
      const pay = await f.stored(await f.merchant(p.id));
      await f.move(pay.id, 'processing', { optionId: 'opt_1', network: 'eip155:8453' });
      return pay.id;
    }

    it('gives nonces in order, each recorded in every row that took it, moved up when the chain is ahead, and keeps a nonce no row took', async () => {
      const k = key();
      const [a, b, c] = [await processing(), await processing(), await processing()];
      const first = await store.s.relayerNonces.signAndRecord(
        k,
        5,
        signer('aa'),
        [
          { paymentId: a, replaces: null, shared: true },
          { paymentId: b, replaces: null, shared: true },
        ],
        t0,
      );
      expect([first.nonce, first.took.sort()]).toEqual([5, [a, b].sort()]);
      expect((await store.s.payments.getRelayerTx(a))?.txId).toBe(first.tx!.txId);
      expect((await store.s.payments.getRelayerTx(b))?.txId).toBe(first.tx!.txId);
      // A row that moved on takes nothing, and the nonce is given to the next one instead.
      const none = await store.s.relayerNonces.signAndRecord(k, 5, signer('bb'), [{ paymentId: a, replaces: null }], t0);
      expect([none.tx, none.nonce, none.took]).toEqual([null, null, []]);
      expect((await store.s.relayerNonces.signAndRecord(k, 5, signer('cc'), [{ paymentId: c, replaces: null }], t0)).nonce).toBe(6);
      // The chain counted more (the key used elsewhere): never below its count.
      const d = await processing();
      expect((await store.s.relayerNonces.signAndRecord(k, 40, signer('dd'), [{ paymentId: d, replaces: null }], t0)).nonce).toBe(40);
      // Another key, another order.
      const e = await processing();
      expect((await store.s.relayerNonces.signAndRecord(key(), 0, signer('ee'), [{ paymentId: e, replaces: null }], t0)).nonce).toBe(0);
    });

    it('never gives one nonce twice to signers racing on one key', async () => {
      const k = key();
      const ids = await Promise.all(Array.from({ length: 12 }, () => processing()));
      const results = await Promise.all(ids.map((id) => store.s.relayerNonces.signAndRecord(k, 0, signer('ff'), [{ paymentId: id, replaces: null }], t0)));
      expect(results.map((r) => r.nonce).sort((x, y) => x! - y!)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    });

    it('answers the recorded transactions of the nonces the chain has not counted yet, in order, without an abandoned one', async () => {
      const k = key();
      const ids = await Promise.all(Array.from({ length: 4 }, () => processing()));
      const take = (i: number, pending: number) => store.s.relayerNonces.signAndRecord(k, pending, signer('ab'), [{ paymentId: ids[i]!, replaces: null }], t0);
      expect((await take(0, 0)).earlier).toEqual([]);
      expect((await take(1, 0)).earlier).toEqual(['0x02ab0']);
      expect(await store.s.relayerNonces.abandon(k, 1, async (n) => `0xfill${n}`)).toBe('0xfill1');
      expect((await take(2, 0)).earlier).toEqual(['0x02ab0']);
      expect((await take(3, 1)).earlier).toEqual(['0x02ab2']);
    });

    it('fills a given nonce once, answers the filler with later nonces until the chain passes it, and fills no nonce it never gave', async () => {
      const k = key();
      const [a, b, c] = [await processing(), await processing(), await processing()];
      await store.s.relayerNonces.signAndRecord(k, 0, signer('aa'), [{ paymentId: a, replaces: null }], t0);
      expect(await store.s.relayerNonces.abandon(k, 1, async (n) => `0xfill${n}`)).toBeNull();
      expect(await store.s.relayerNonces.abandon(k, 0, async (n) => `0xfill${n}`)).toBe('0xfill0');
      expect(await store.s.relayerNonces.abandon(k, 0, async (n) => `0xagain${n}`)).toBeNull();
      expect((await store.s.relayerNonces.signAndRecord(k, 0, signer('bb'), [{ paymentId: b, replaces: null }], t0)).fillers).toEqual(['0xfill0']);
      expect((await store.s.relayerNonces.signAndRecord(k, 1, signer('cc'), [{ paymentId: c, replaces: null }], t0)).fillers).toEqual([]);
    });

    it("moves every row holding a shared transaction to its replacement at the same nonce, and only this row's for one at a new nonce", async () => {
      const [a, b, lone] = [await processing(), await processing(), await processing()];
      const batch = { txId: '0x' + '1'.repeat(64), rawTx: '0x0211', shared: true as const };
      for (const id of [a, b]) expect(await store.s.payments.recordRelayerTx(id, batch, null, t0)).toBe(true);
      const fresh = { txId: '0x' + '2'.repeat(64), rawTx: '0x0222', shared: true as const };
      expect(await store.s.payments.recordRelayerTx(a, fresh, batch.txId, t0)).toBe(true);
      expect((await store.s.payments.get(b))?.txId).toBe(batch.txId);
      const bumped = { txId: '0x' + '3'.repeat(64), rawTx: '0x0233', shared: true as const, everyHolder: true as const };
      expect(await store.s.payments.recordRelayerTx(b, bumped, batch.txId, t0)).toBe(true);
      expect((await store.s.payments.get(b))?.txId).toBe(bumped.txId);
      expect((await store.s.payments.get(a))?.txId).toBe(fresh.txId);
      expect((await store.s.payments.get(lone))?.txId).toBeNull();
    });
  });
}
