import { describe, expect, it } from 'vitest';
import { createKey } from '../server/auth/provisioning.ts';
import { useDashboardApp } from './helpers/dashboard-app.ts';

/** An App-Id's allowed origins edited from the dashboard's keys page, as the API then enforces them. */
const env = useDashboardApp();
const { signedIn } = env;

async function appId(partnerId = env.t.a.id) {
  return createKey(env.t.storage, { partnerId, scope: 'app', live: false, name: `wallet web ${Math.random().toString(36).slice(2, 6)}` });
}

// Any payment id: auth passes or fails before the payment is looked up, so a passing App-Id
// earns 404 (no such payment) and a refused one 403.
const GATEWAY_PATH = '/v1/gateway/payment/pay_00000000000000000000000000/status';

describe('dashboard: App-Id allowed origins', () => {
  it('a developer sets origins; the API enforces them at once; clearing them allows any origin; the audit log has both', async () => {
    const { record, apiKey } = await appId();
    const c = await signedIn('developer');
    const page = await c.get('/dashboard/keys');
    expect(page.text).toContain(`action="/dashboard/keys/${record.id}/origins"`);
    const call = (origin?: string) => env.t.call('GET', GATEWAY_PATH, { headers: { 'App-Id': apiKey, 'Client-Id': 'c1', ...(origin ? { Origin: origin } : {}) } });
    // Warm the API's key cache first: the change must still apply at once.
    expect((await call('https://evil.example')).status).toBe(404);

    const set = await c.post(`/dashboard/keys/${record.id}/origins`, { origins: 'https://wallet.example\nhttps://pay.example:8443' });
    expect(set.status).toBe(303);
    expect((await c.get('/dashboard/keys')).text).toContain('<code>https://pay.example:8443</code>');
    expect(await call('https://evil.example')).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect((await call('https://wallet.example')).status).toBe(404);
    expect((await call()).status).toBe(404);

    await c.get('/dashboard/keys');
    expect((await c.post(`/dashboard/keys/${record.id}/origins`, { origins: '' })).status).toBe(303);
    expect((await call('https://evil.example')).status).toBe(404);

    const audit = await env.t.storage.auditLog.listByPartner(env.t.a.id, { limit: 20 });
    const entries = audit.filter((e) => e.action === 'api_key.origins' && e.target.id === record.id);
    // Both at the same instant on the test clock, so compared without their order.
    expect(entries.map((e) => [e.detail.from, e.detail.to]).sort()).toEqual([
      ['any', 'https://wallet.example https://pay.example:8443'],
      ['https://wallet.example https://pay.example:8443', 'any'],
    ]);
  });

  it.each(['https://Wallet.example', 'https://wallet.example/', 'https://wallet.example/path', 'https://*.example', 'http://wallet.example', 'javascript:alert(1)'])(
    'refuses %j with 400 and the list unchanged',
    async (origin) => {
      const { record } = await appId();
      const c = await signedIn('owner');
      await c.get('/dashboard/keys');
      const r = await c.post(`/dashboard/keys/${record.id}/origins`, { origins: `https://ok.example\n${origin}` });
      expect(r.status).toBe(400);
      expect(r.text).toContain('role="alert"');
      expect((await env.t.storage.apiKeys.listByPartner(env.t.a.id)).find((k) => k.id === record.id)).not.toHaveProperty('allowedOrigins');
    },
  );

  it('refuses a viewer (no form, POST 403), a POST without the CSRF token, another partner’s App-Id and a secret key', async () => {
    const { record } = await appId();
    const viewer = await signedIn('viewer');
    const page = await viewer.get('/dashboard/keys');
    expect(page.text).not.toContain('/origins"');
    expect((await viewer.post(`/dashboard/keys/${record.id}/origins`, { origins: 'https://x.example' })).status).toBe(403);

    const dev = await signedIn('developer');
    await dev.get('/dashboard/keys');
    expect((await dev.post(`/dashboard/keys/${record.id}/origins`, { origins: 'https://x.example', _csrf: '' })).status).toBe(403);
    const theirs = await appId(env.t.b.id);
    expect((await dev.post(`/dashboard/keys/${theirs.record.id}/origins`, { origins: 'https://x.example' })).status).toBe(404);
    const secret = (await env.t.storage.apiKeys.listByPartner(env.t.a.id)).find((k) => k.scope === 'partner')!;
    await dev.get('/dashboard/keys');
    expect((await dev.post(`/dashboard/keys/${secret.id}/origins`, { origins: 'https://x.example' })).status).toBe(404);
    const after = await env.t.storage.apiKeys.listByPartner(env.t.a.id);
    expect(after.find((k) => k.id === record.id)).not.toHaveProperty('allowedOrigins');
    expect(after.find((k) => k.id === secret.id)).not.toHaveProperty('allowedOrigins');
    expect((await env.t.storage.apiKeys.listByPartner(env.t.b.id)).find((k) => k.id === theirs.record.id)).not.toHaveProperty('allowedOrigins');
  });
});
