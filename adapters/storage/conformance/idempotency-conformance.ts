import { describe, expect, it } from 'vitest';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';
import { paymentFixtures } from './payment-fixtures.ts';

/**
 * What every storage adapter's idempotency repository does: one request at a time holds a key
 * (within its partner), a completed key replays its answer, a dead claim is taken over, and
 * purges delete only keys older than asked, a bounded batch at a time.
 */
export function runIdempotencyConformance(name: string, open: OpenStore): void {
  describe(`idempotency conformance: ${name}`, () => {
    const f = useStore(open);
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const payments = paymentFixtures(() => f.s);

    it('claims keys: claim, in progress, replay, conflict, release', async () => {
      const p = await f.partner();
      const claim = (key: string, hash: string, now = t0) => f.s.idempotency.claim(p.id, key, hash, now, 60_000);
      expect(await claim('k1', 'h1')).toEqual({ kind: 'claimed' });
      expect(await claim('k1', 'h1')).toEqual({ kind: 'in_progress' });
      expect(await claim('k1', 'h2')).toEqual({ kind: 'conflict' });
      await f.s.idempotency.complete({ partnerId: p.id, key: 'k1', statusCode: 201, body: { big: '12345678901234567890', nested: { list: [1, null, 'x'] } } });
      expect(await claim('k1', 'h1')).toEqual({ kind: 'replay', statusCode: 201, body: { big: '12345678901234567890', nested: { list: [1, null, 'x'] } } });
      expect(await claim('k1', 'h2')).toEqual({ kind: 'conflict' });
      expect(await claim('k2', 'h')).toEqual({ kind: 'claimed' });
      await f.s.idempotency.release(p.id, 'k2');
      expect(await claim('k2', 'other hash')).toEqual({ kind: 'claimed' });
    });

    // Keys in an order no store sorts into: longer before shorter, reverse alphabetical, nested.
    const ordered = { paymentId: 'pay_1', zeta: 'z', a: 1, amount: { value: '1050', unit: 'iso4217/USD' }, list: [{ yy: true, x: null }], é: 'ü', '': 0 };
    const replayedText = async (partnerId: string, key: string) => {
      const replay = await f.s.idempotency.claim(partnerId, key, 'h', t0, 60_000);
      return replay.kind === 'replay' ? JSON.stringify(replay.body) : replay.kind;
    };

    it('replays an answer as the same JSON text, object key order included', async () => {
      const p = await f.partner();
      await f.s.idempotency.claim(p.id, 'ordered', 'h', t0, 60_000);
      await f.s.idempotency.complete({ partnerId: p.id, key: 'ordered', statusCode: 201, body: ordered });
      expect(await replayedText(p.id, 'ordered')).toBe(JSON.stringify(ordered));
    });

    it('replays the answer stored with a created payment as the same JSON text', async () => {
      const p = await f.partner();
      const m = await payments.merchant(p.id);
      await f.s.idempotency.claim(p.id, 'created', 'h', t0, 60_000);
      expect(await payments.create(payments.payment(m), [], { key: 'created', body: ordered })).toEqual({ ok: true });
      expect(await replayedText(p.id, 'created')).toBe(JSON.stringify(ordered));
    });

    it('keeps each partner’s keys apart: the same key is claimed, completed and released per partner', async () => {
      const [a, b] = [await f.partner(), await f.partner()];
      expect(await f.s.idempotency.claim(a.id, 'shared', 'ha', t0, 60_000)).toEqual({ kind: 'claimed' });
      expect(await f.s.idempotency.claim(b.id, 'shared', 'hb', t0, 60_000)).toEqual({ kind: 'claimed' });
      await f.s.idempotency.complete({ partnerId: a.id, key: 'shared', statusCode: 200, body: { who: 'a' } });
      expect(await f.s.idempotency.claim(b.id, 'shared', 'hb', t0, 60_000)).toEqual({ kind: 'in_progress' });
      // Another partner's release and completion touch nothing of a's.
      await f.s.idempotency.release(b.id, 'shared');
      expect(await f.s.idempotency.claim(a.id, 'shared', 'ha', t0, 60_000)).toEqual({ kind: 'replay', statusCode: 200, body: { who: 'a' } });
      expect(await f.s.idempotency.claim(b.id, 'shared', 'hb', t0, 60_000)).toEqual({ kind: 'claimed' });
    });

    it('never releases a completed key', async () => {
      const p = await f.partner();
      await f.s.idempotency.claim(p.id, 'done', 'h', t0, 60_000);
      await f.s.idempotency.complete({ partnerId: p.id, key: 'done', statusCode: 201, body: { ok: true } });
      await f.s.idempotency.release(p.id, 'done');
      expect(await f.s.idempotency.claim(p.id, 'done', 'h', t0, 60_000)).toEqual({ kind: 'replay', statusCode: 201, body: { ok: true } });
      // Releasing a key never claimed does nothing either.
      await f.s.idempotency.release(p.id, 'never');
      expect(await f.s.idempotency.claim(p.id, 'never', 'h', t0, 60_000)).toEqual({ kind: 'claimed' });
    });

    it('takes over a claim older than the stale window, once, and never a completed one', async () => {
      const p = await f.partner();
      const claim = (key: string, now: Date) => f.s.idempotency.claim(p.id, key, 'h', now, 60_000);
      expect(await claim('dead', t0)).toEqual({ kind: 'claimed' });
      expect(await claim('dead', at(59_000))).toEqual({ kind: 'in_progress' });
      expect(await claim('dead', at(61_000))).toEqual({ kind: 'claimed' });
      // The takeover is a fresh claim: its own window starts again.
      expect(await claim('dead', at(100_000))).toEqual({ kind: 'in_progress' });
      expect(await claim('dead', at(122_000))).toEqual({ kind: 'claimed' });
      // A stale takeover still needs the same request.
      expect(await f.s.idempotency.claim(p.id, 'dead', 'other', at(999_000), 60_000)).toEqual({ kind: 'conflict' });
      await f.s.idempotency.complete({ partnerId: p.id, key: 'dead', statusCode: 201, body: {} });
      expect(await claim('dead', at(3_600_000))).toEqual({ kind: 'replay', statusCode: 201, body: {} });
    });

    it('gives a key to exactly one of many concurrent claims', async () => {
      const p = await f.partner();
      const results = await Promise.all(Array.from({ length: 8 }, () => f.s.idempotency.claim(p.id, 'race', 'h', t0, 60_000)));
      expect(results.filter((r) => r.kind === 'claimed')).toHaveLength(1);
      expect(results.filter((r) => r.kind === 'in_progress')).toHaveLength(7);
    });

    // Purges run over every partner’s keys: each test below uses times no other test uses, the
    // second earlier than the first, so what the first keeps is not before the second’s cutoff.
    it('purges every key created before a time, completed or not, keeping those created at or after it', async () => {
      const p = await f.partner();
      const base = new Date('2020-01-01T00:00:00.000Z');
      const old = (i: number) => new Date(base.getTime() + i);
      for (let i = 0; i < 3; i++) await f.s.idempotency.claim(p.id, `purge-${i}`, 'h', old(i), 60_000);
      await f.s.idempotency.complete({ partnerId: p.id, key: 'purge-0', statusCode: 201, body: {} });
      await f.s.idempotency.claim(p.id, 'purge-edge', 'h', old(3), 60_000);
      expect(await f.s.idempotency.purgeCreatedBefore(old(3))).toBe(3);
      expect(await f.s.idempotency.purgeCreatedBefore(old(3))).toBe(0);
      for (let i = 0; i < 3; i++) expect(await f.s.idempotency.claim(p.id, `purge-${i}`, 'h2', t0, 60_000)).toEqual({ kind: 'claimed' });
      expect(await f.s.idempotency.claim(p.id, 'purge-edge', 'h2', t0, 60_000)).toEqual({ kind: 'conflict' });
    });

    it('purges keys created before a time a bounded batch at a time, batches never overlapping', async () => {
      const p = await f.partner();
      const base = new Date('2019-01-01T00:00:00.000Z');
      for (let i = 0; i < 5; i++) await f.s.idempotency.claim(p.id, `old-${i}`, 'h', new Date(base.getTime() + i), 60_000);
      await f.s.idempotency.claim(p.id, 'fresh', 'h', new Date(base.getTime() + 10), 60_000);
      const cutoff = new Date(base.getTime() + 5);
      expect(await f.s.idempotency.purgeCreatedBeforeBatch(cutoff, 2)).toBe(2);
      // Concurrent batches delete disjoint keys: together with a drain, exactly the rest.
      const together = await Promise.all([f.s.idempotency.purgeCreatedBeforeBatch(cutoff, 2), f.s.idempotency.purgeCreatedBeforeBatch(cutoff, 2)]);
      let rest = together[0] + together[1];
      for (let n = -1; n !== 0; rest += n) {
        n = await f.s.idempotency.purgeCreatedBeforeBatch(cutoff, 2);
        expect(n).toBeLessThanOrEqual(2);
      }
      expect(rest).toBe(3);
      for (let i = 0; i < 5; i++) expect(await f.s.idempotency.claim(p.id, `old-${i}`, 'h2', t0, 60_000)).toEqual({ kind: 'claimed' });
      expect(await f.s.idempotency.claim(p.id, 'fresh', 'h2', t0, 60_000)).toEqual({ kind: 'conflict' });
    });
  });
}
