import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import type { StoragePort } from '../../../server/ports/storage/index.ts';
import type { WebhookEndpointRecord } from '../../../server/domain/webhooks/records.ts';
import { newId } from '../../../server/domain/ids.ts';

/**
 * What keeps storage bounded, on every adapter: the webhook endpoint cap holds under concurrent
 * creates. (The bounded purges of quotes and idempotency keys are in quotes-conformance.ts and
 * idempotency-conformance.ts.) Each adapter's test file calls this with a factory for a fresh,
 * empty store.
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
      id: newId('webhookEndpoint'),
      partnerId,
      url: 'https://hooks.example.com/in',
      enabledEvents: ['payment.created'],
      enabled: true,
      disabledReason: null,
      secret: 'whsec_x',
      previousSecret: null,
      previousSecretExpiresAt: null,
      createdAt: t0,
      updatedAt: t0,
      deletedAt: null,
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
  });
}
