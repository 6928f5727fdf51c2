import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import type { QuoteRecord } from '../../../server/domain/payments/quote-records.ts';
import type { StoragePort } from '../../../server/ports/storage/index.ts';
import type { WebhookEndpointRecord } from '../../../server/domain/webhooks/records.ts';
import { newPayment } from '../../../server/domain/payments/create-payment.ts';
import { newId } from '../../../server/domain/ids.ts';

/**
 * What keeps storage bounded, on every adapter: the webhook endpoint cap holds under concurrent
 * creates, live quotes are found for reuse, and the purges delete only what they may, a bounded
 * batch at a time. Each adapter's test file calls this with a factory for a fresh, empty store.
 */
export function runBoundedStorageConformance(name: string, open: () => Promise<StoragePort & { dispose(): Promise<void> }>): void {
  describe(`bounded storage conformance: ${name}`, () => {
    let s: StoragePort & { dispose(): Promise<void> };
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.dispose();
    });

    const t0 = new Date('2026-11-24T10:00:00.000Z');
    async function partner() {
      const p = { id: newId('partner'), name: 'P', defaultVersion: '2026-02-18', createdAt: t0 };
      await s.partners.create(p);
      return p;
    }
    const endpoint = (partnerId: string): WebhookEndpointRecord => ({
      id: newId('webhookEndpoint'), partnerId, url: 'https://hooks.example.com/in', enabledEvents: ['payment.created'], enabled: true, disabledReason: null,
      secret: 'whsec_x', previousSecret: null, previousSecretExpiresAt: null, createdAt: t0, updatedAt: t0, deletedAt: null,
    });

    it('creates webhook endpoints up to the limit of live ones, even when creates race', async () => {
      const p = await partner();
      const other = await partner();
      const made = await Promise.all(Array.from({ length: 7 }, () => s.webhooks.createEndpointWithinLimit(endpoint(p.id), 4)));
      expect(made.filter(Boolean)).toHaveLength(4);
      expect(await s.webhooks.listEndpoints(p.id)).toHaveLength(4);
      expect(await s.webhooks.createEndpointWithinLimit(endpoint(other.id), 4)).toBe(true);
      // A deleted endpoint no longer counts.
      const [first] = await s.webhooks.listEndpoints(p.id);
      expect(await s.webhooks.deleteEndpoint(p.id, first!.id, t0)).toBe(true);
      const again = endpoint(p.id);
      expect(await s.webhooks.createEndpointWithinLimit(again, 4)).toBe(true);
      expect(await s.webhooks.getEndpoint(p.id, again.id)).toEqual(again);
      expect(await s.webhooks.createEndpointWithinLimit(endpoint(p.id), 4)).toBe(false);
    });

    /** A payment with four quotes: expired long ago, expired and chosen, expired but recent, live. */
    async function quoted() {
      const p = await partner();
      const m = { id: newId('merchant'), partnerId: p.id, name: 'M', email: null, iconUrl: null, status: 'active' as const, createdAt: t0, deletedAt: null };
      await s.merchants.create(m);
      await s.settlements.createMany(p.id, m.id, [{ id: newId('cryptoSettlement'), partnerId: p.id, merchantId: m.id, asset: 'eip155:1/erc20:0xa', destination: 'eip155:1:0x1', createdAt: t0 }]);
      const pay = newPayment({ partnerId: p.id, merchantId: m.id, amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'r', expiresAt: null }, t0.getTime(), { defaultTtlS: 86_400, maxTtlS: 86_400 });
      await s.payments.create(pay, { event: { id: newId('event'), type: 'payment.created', snapshot: () => ({}) }, jobs: [] });
      const quote = (deadlineOffsetMs: number): QuoteRecord => ({
        optionId: newId('option'), paymentId: pay.id, account: 'eip155:1:0xb', asset: 'eip155:1/erc20:0xa', amount: 10n ** 30n, destination: 'eip155:1:0x1',
        deadline: new Date(t0.getTime() + deadlineOffsetMs), state: { flow: 'transfer' }, createdAt: t0, collectData: false, collected: null,
      });
      const [old, chosen, recent, live] = [quote(-7_200_000), quote(-7_200_000), quote(-60_000), quote(300_000)];
      await s.quotes.save([old!, chosen!, recent!, live!]);
      return { pay, old: old!, chosen: chosen!, recent: recent!, live: live! };
    }

    it('finds a payment’s quotes still live after a time, exact to the base unit', async () => {
      const q = await quoted();
      expect(await s.quotes.live(q.pay.id, t0)).toEqual([q.live]);
      expect((await s.quotes.live(q.pay.id, new Date(t0.getTime() - 120_000))).map((x) => x.optionId)).toEqual([q.recent.optionId, q.live.optionId].sort());
      expect(await s.quotes.live('pay_missing', t0)).toEqual([]);
    });

    it('purges expired quotes in bounded batches, never one a payment chose or a processing payment’s', async () => {
      const q = await quoted();
      const processing = await quoted();
      const at = new Date(t0.getTime() + 1000);
      const chose = await s.payments.transition(q.pay.id, { from: ['requires_action'], to: 'succeeded', patch: { optionId: q.chosen.optionId }, at, event: { id: newId('event'), type: 'payment.succeeded', snapshot: () => ({}) } });
      expect(chose.ok).toBe(true);
      await s.payments.transition(processing.pay.id, { from: ['requires_action'], to: 'processing', patch: { optionId: processing.live.optionId }, at, event: { id: newId('event'), type: 'payment.processing', snapshot: () => ({}) } });
      const before = new Date(t0.getTime() - 3_600_000);
      // Other tests' quotes may be purgeable too: delete in batches of one until nothing is left.
      let total = 0;
      for (let n = -1; n !== 0; total += n) {
        n = await s.quotes.purgeExpired(before, 1);
        expect(n).toBeLessThanOrEqual(1);
      }
      expect(total).toBeGreaterThanOrEqual(1);
      expect(await s.quotes.get(q.pay.id, q.old.optionId)).toBeNull();
      for (const kept of [q.chosen, q.recent, q.live]) expect(await s.quotes.get(q.pay.id, kept.optionId)).toEqual(kept);
      for (const kept of [processing.old, processing.chosen, processing.recent, processing.live]) expect(await s.quotes.get(processing.pay.id, kept.optionId)).toEqual(kept);
      // Later, the recent one goes too; the chosen one never.
      while ((await s.quotes.purgeExpired(t0, 100)) > 0);
      expect(await s.quotes.get(q.pay.id, q.recent.optionId)).toBeNull();
      expect(await s.quotes.get(q.pay.id, q.chosen.optionId)).toEqual(q.chosen);
    });

    it('purges idempotency keys created before a time, a bounded batch at a time', async () => {
      const p = await partner();
      const old = new Date(t0.getTime() - 25 * 3_600_000);
      for (let i = 0; i < 5; i++) await s.idempotency.claim(p.id, `old-${i}`, 'h', old, 60_000);
      await s.idempotency.claim(p.id, 'fresh', 'h', t0, 60_000);
      const cutoff = new Date(t0.getTime() - 24 * 3_600_000);
      const first = await s.idempotency.purgeCreatedBeforeBatch(cutoff, 2);
      expect(first).toBe(2);
      let rest = 0;
      for (let n = -1; n !== 0; rest += n) n = await s.idempotency.purgeCreatedBeforeBatch(cutoff, 2);
      expect(first + rest).toBeGreaterThanOrEqual(5);
      for (let i = 0; i < 5; i++) expect(await s.idempotency.claim(p.id, `old-${i}`, 'h2', t0, 60_000)).toEqual({ kind: 'claimed' });
      expect(await s.idempotency.claim(p.id, 'fresh', 'h2', t0, 60_000)).toEqual({ kind: 'conflict' });
    });
  });
}
