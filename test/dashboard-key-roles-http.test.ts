import { describe, expect, it } from 'vitest';
import { dashboardClient } from '../server/dashboard/test-support/dashboard-client.ts';
import { EVM_DEST, USDC_BASE } from './helpers/payments.ts';
import { PASSWORD, useDashboardApp } from './helpers/dashboard-app.ts';

/** Issue 30 item 1: what a role may not do in the dashboard it may not do with a key it makes. */
const env = useDashboardApp();
const idem = () => ({ 'Idempotency-Key': `kr-${Math.random()}` });
const keyOf = (text: string) => /id="new-key-value">([^<]+)</.exec(text)![1]!;

async function merchantWithSettlement(key: string) {
  const m = await env.t.call('POST', '/v1/merchants', { key, headers: idem(), body: { merchantName: 'Roles', merchantEmail: 'r@roles.co' } });
  const id = m.body.merchant.id as string;
  const s = await env.t.call('POST', `/v1/merchants/${id}/settlements/crypto`, { key, headers: idem(), body: { settlements: [{ asset: USDC_BASE, destination: EVM_DEST }] } });
  return { id, sid: s.body.settlements[0].id as string };
}
const ATTACKER = 'eip155:8453:0x00000000000000000000000000000000000000c2';

describe('keys hold their maker’s role', () => {
  it('a developer’s partner key cannot change settlements (403), and a developer cannot ask for that power', async () => {
    // Before: the developer's partner key answered 200 to this PUT (any destination of their choice).
    const { id, sid } = await merchantWithSettlement(env.t.a.key);
    const dev = await env.signedIn('developer');
    await dev.get('/dashboard/keys');
    const made = await dev.post('/dashboard/keys', { name: 'Dev key', scope: 'partner' });
    expect(made.status).toBe(201);
    const key = keyOf(made.text);
    const put = await env.t.call('PUT', `/v1/merchants/${id}/settlements/crypto/${sid}`, { key, body: { destination: ATTACKER } });
    expect(put.status).toBe(403);
    expect(put.body.code).toBe('forbidden');
    expect((await env.t.call('POST', `/v1/refunds`, { key, headers: idem(), body: { paymentId: 'pay_x', amount: '1' } })).status).toBe(403);
    // What a developer may do still works with it.
    expect((await env.t.call('GET', `/v1/merchants/${id}/settlements`, { key })).status).toBe(200);
    expect((await env.t.call('GET', '/v1/webhook-endpoints', { key })).status).toBe(200);

    // Before: no such check, the key had every power; after: refused, no key made.
    await dev.get('/dashboard/keys');
    const before = (await env.t.storage.apiKeys.listByPartner(env.t.a.id)).length;
    const admin = await dev.post('/dashboard/keys', { name: 'Admin key', scope: 'partner', permissions: 'merchants:write' });
    expect(admin.status).toBe(400);
    expect(admin.text).toContain('cannot give a key the permission');
    expect((await env.t.storage.apiKeys.listByPartner(env.t.a.id)).length).toBe(before);
  });

  it('an owner’s key limited to read gets 403 on writes; its own unlimited key still writes', async () => {
    const owner = await env.signedIn('owner');
    await owner.get('/dashboard/keys');
    const made = await owner.post('/dashboard/keys', { name: 'Reader', scope: 'partner', permissions: 'read' });
    expect(made.status).toBe(201);
    const reader = keyOf(made.text);
    expect((await env.t.call('GET', '/v1/merchants', { key: reader })).status).toBe(200);
    const w = await env.t.call('POST', '/v1/merchants', { key: reader, headers: idem(), body: { merchantName: 'No', merchantEmail: 'n@o.co' } });
    expect(w.status).toBe(403);
    expect(w.body.code).toBe('forbidden');
    await owner.get('/dashboard/keys');
    const full = keyOf((await owner.post('/dashboard/keys', { name: 'Full', scope: 'partner' })).text);
    expect((await env.t.storage.apiKeys.listByPartner(env.t.a.id)).find((k) => k.name === 'Full')?.permissions).toBeUndefined();
    const { id, sid } = await merchantWithSettlement(full);
    expect((await env.t.call('PUT', `/v1/merchants/${id}/settlements/crypto/${sid}`, { key: full, body: { destination: ATTACKER } })).status).toBe(200);
  });

  it('demoting a user revokes the keys their new role cannot hold, removing them revokes all, each with an audit entry', async () => {
    const p = await env.t.newPartner();
    const ownerEmail = await env.user('owner', p.id);
    const owner = dashboardClient(env.t.url, env.address());
    await owner.signIn(ownerEmail, PASSWORD);
    const devEmail = await env.user('owner', p.id);
    const dev = dashboardClient(env.t.url, env.address());
    await dev.signIn(devEmail, PASSWORD);
    await dev.get('/dashboard/keys');
    const full = keyOf((await dev.post('/dashboard/keys', { name: 'Owner-made', scope: 'partner' })).text);
    await dev.get('/dashboard/keys');
    const wallet = keyOf((await dev.post('/dashboard/keys', { name: 'Wallet', scope: 'wallet' })).text);
    const devId = (await env.t.storage.users.listByEmail(devEmail, 1))[0]!.id;
    expect((await env.t.call('GET', '/v1/merchants', { key: full })).status).toBe(200);

    // Before: the demoted owner's full key kept answering 200.
    await owner.get('/dashboard/users');
    expect((await owner.post(`/dashboard/users/${devId}/role`, { role: 'developer' })).status).toBe(303);
    expect((await env.t.call('GET', '/v1/merchants', { key: full })).status).toBe(401);
    const keys = await env.t.storage.apiKeys.listByPartner(p.id);
    expect(keys.find((k) => k.name === 'Wallet')?.revokedAt).toBeNull();

    // Removed: the wallet key goes too.
    await owner.get('/dashboard/users');
    expect((await owner.post(`/dashboard/users/${devId}/remove`)).status).toBe(303);
    expect((await env.t.storage.apiKeys.listByPartner(p.id)).every((k) => k.revokedAt || k.createdBy !== devId)).toBe(true);
    expect(wallet).toMatch(/^wk_/);
    const audit = await owner.get('/dashboard/audit');
    expect(audit.text).toContain('creator&#39;s role is now developer');
    expect(audit.text).toContain('creator removed');
  });
});
