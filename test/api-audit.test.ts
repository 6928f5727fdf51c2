import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, TEST_ASSETS, type TestApp } from './helpers/test-app.ts';
import { createPayment, EVM_DEST, payableMerchant, USDC_BASE } from './helpers/payments.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { transitionPayment } from '../server/domain/payments/transition.ts';
import type { AuditEntry } from '../server/domain/audit/records.ts';

const backends = await storageBackends();

const lookup = async (host: string) => {
  if (host === 'hooks.example.com') return [{ address: '93.184.216.34' }];
  throw new Error('ENOTFOUND');
};

/**
 * What the API changes reaches the audit log with the calling key as the actor (its prefix and
 * last characters, never the key), once per action, and nothing for a refused request.
 */
describe.each(backends)('the API audits its own actions on $name', (backend) => {
  let t: TestApp;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const storage = await backend.open();
    dispose = storage.dispose;
    t = await startTestApp(storage, { webhookLookup: lookup });
  });
  afterAll(async () => {
    await t?.close();
    await dispose?.();
  });

  const entries = async (partnerId: string) => (await t.storage.auditLog.listByPartner(partnerId, { limit: 200 })).reverse();
  // Sorted: the test clock stands still, so entries of one instant have no order between them.
  const about = (all: AuditEntry[], id: string) =>
    all
      .filter((e) => e.target.id === id)
      .map((e) => e.action)
      .sort();
  const idem = () => ({ 'Idempotency-Key': `a-${Math.random()}` });

  it('merchants and settlements: create, update, delete; add, change, remove', async () => {
    const p = await t.newPartner();
    const m = await t.call('POST', '/v1/merchants', { key: p.key, headers: idem(), body: { merchantName: 'Audited', merchantEmail: 'a@audited.co' } });
    const id = m.body.merchant.id as string;
    expect((await t.call('PATCH', `/v1/merchants/${id}`, { key: p.key, body: { merchantName: 'Audited 2' } })).status).toBe(200);
    const s = await t.call('POST', `/v1/merchants/${id}/settlements/crypto`, { key: p.key, headers: idem(), body: { settlements: [{ asset: USDC_BASE, destination: EVM_DEST }] } });
    expect(s.status).toBe(201);
    const sid = s.body.settlements[0].id as string;
    const other = 'eip155:8453:0x00000000000000000000000000000000000000c2';
    expect((await t.call('PUT', `/v1/merchants/${id}/settlements/crypto/${sid}`, { key: p.key, body: { destination: other } })).status).toBe(200);
    expect((await t.call('DELETE', `/v1/merchants/${id}/settlements/crypto/${sid}`, { key: p.key })).status).toBe(200);
    // Refused requests change nothing and record nothing.
    expect((await t.call('DELETE', `/v1/merchants/${id}`, { key: t.a.key })).status).toBe(404);
    expect((await t.call('DELETE', `/v1/merchants/${id}`, { key: p.key })).status).toBe(200);
    expect((await t.call('PATCH', `/v1/merchants/${id}`, { key: t.a.key, body: { merchantName: 'Not yours' } })).status).toBe(404);

    const all = await entries(p.id);
    expect(about(all, id)).toEqual(['merchant.create', 'merchant.delete', 'merchant.update']);
    expect(about(all, sid)).toEqual(['settlement.add', 'settlement.change', 'settlement.remove']);
    expect(all.find((e) => e.action === 'settlement.change')!.detail).toMatchObject({ merchantId: id, destination: other });
    for (const e of all) {
      expect(e.actor.kind).toBe('api_key');
      expect(e.actor.display).toBe(`sk_…${p.key.slice(-4)}`);
      expect(JSON.stringify(e)).not.toContain(p.key);
    }
    expect(new Set(all.map((e) => e.actor.id)).size).toBe(1);
    expect(await entries(t.a.id)).not.toContainEqual(expect.objectContaining({ target: { type: 'merchant', id } }));
  });

  it('webhook endpoints: create, update, disable, enable, rotate, delete', async () => {
    const p = await t.newPartner();
    const created = await t.call('POST', '/v1/webhook-endpoints', { key: p.key, body: { url: 'https://hooks.example.com/in', enabledEvents: ['payment.succeeded'] } });
    expect(created.status).toBe(201);
    const id = created.body.endpoint.id as string;
    const patch = (body: unknown) => t.call('PATCH', `/v1/webhook-endpoints/${id}`, { key: p.key, body });
    expect((await patch({ url: 'https://hooks.example.com/v2' })).status).toBe(200);
    expect((await patch({ enabled: false })).status).toBe(200);
    expect((await patch({ enabled: true })).status).toBe(200);
    expect((await patch({})).status).toBe(400);
    expect((await t.call('POST', `/v1/webhook-endpoints/${id}/rotate-secret`, { key: p.key })).status).toBe(200);
    expect((await t.call('DELETE', `/v1/webhook-endpoints/${id}`, { key: p.key })).status).toBe(200);

    const all = await entries(p.id);
    expect(about(all, id)).toEqual([
      'webhook_endpoint.create',
      'webhook_endpoint.delete',
      'webhook_endpoint.disable',
      'webhook_endpoint.enable',
      'webhook_endpoint.rotate_secret',
      'webhook_endpoint.update',
    ]);
    expect(all.every((e) => e.actor.kind === 'api_key')).toBe(true);
    // The secret never reaches the log.
    expect(JSON.stringify(all)).not.toContain('whsec_');
  });

  it('refunds and cancels', async () => {
    const p = await t.newPartner();
    const merchant = await payableMerchant(t, p.key);
    const asMerchant = { 'Merchant-Id': merchant };
    const toCancel = await createPayment(t, p.key, merchant);
    expect((await t.call('POST', `/v1/payments/${toCancel.body.paymentId}/cancel`, { key: p.key, headers: asMerchant })).status).toBe(200);
    const toRefund = await createPayment(t, p.key, merchant);
    const refund = () => t.call('POST', '/v1/refunds', { key: p.key, headers: asMerchant, body: { paymentId: toRefund.body.paymentId } });
    expect((await refund()).status).toBe(400); // not succeeded yet: no entry
    const payment = (await t.storage.payments.get(toRefund.body.paymentId))!;
    const paid = await transitionPayment({ storage: t.storage, clock: t.clock, assets: createAssetRegistry(TEST_ASSETS) }, payment, 'succeeded', {
      optionId: 'opt_1',
      buyerAccount: 'eip155:8453:0x00000000000000000000000000000000000000b1',
      asset: USDC_BASE,
      tokenValue: 10_500_000n,
      network: 'eip155:8453',
      txId: `0x${'ab'.repeat(32)}`,
      succeededAt: new Date(t.clock.now()),
    });
    expect(paid.ok).toBe(true);
    expect((await refund()).status).toBe(200);
    expect((await refund()).status).toBe(409);

    const all = await entries(p.id);
    expect(about(all, toCancel.body.paymentId)).toEqual(['payment.cancel']);
    expect(about(all, toRefund.body.paymentId)).toEqual(['payment.refund']);
    expect(all.find((e) => e.action === 'payment.refund')!.detail).toEqual({ merchantId: merchant });
  });
});
