import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

const backends = await storageBackends();

/** Names tests resolve without DNS: one public host, one that points into a private network. */
const lookup = async (host: string) => {
  if (host === 'hooks.example.com') return [{ address: '93.184.216.34' }];
  if (host === 'internal.example.com') return [{ address: '93.184.216.34' }, { address: '10.1.2.3' }];
  throw new Error('ENOTFOUND');
};

/** The endpoints API in production mode (no loopback allowance): CRUD, secrets shown once, SSRF refusals, tenancy. */
describe.each(backends)('webhook endpoints API on $name', (backend) => {
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

  it('creates, lists, gets, updates and deletes an endpoint; the secret is shown only on create', async () => {
    const created = await t.call('POST', '/v1/webhook-endpoints', {
      key: t.a.key,
      body: { url: 'https://hooks.example.com/in', enabledEvents: ['payment.succeeded', 'payment.failed'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const id = created.body.endpoint.id as string;
    expect(id).toMatch(/^whep_/);
    expect(created.body.endpoint).toMatchObject({ url: 'https://hooks.example.com/in', enabled: true, disabledReason: null, previousSecretExpiresAt: null });
    const got = await t.call('GET', `/v1/webhook-endpoints/${id}`, { key: t.a.key });
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain(created.body.secret);
    const list = await t.call('GET', '/v1/webhook-endpoints', { key: t.a.key });
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(id);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const updated = await t.call('PATCH', `/v1/webhook-endpoints/${id}`, { key: t.a.key, body: { enabledEvents: ['payment.refunded'], enabled: false } });
    expect(updated.status).toBe(200);
    expect(updated.body.endpoint).toMatchObject({ enabledEvents: ['payment.refunded'], enabled: false });
    expect((await t.call('PATCH', `/v1/webhook-endpoints/${id}`, { key: t.a.key, body: {} })).status).toBe(400);
    expect((await t.call('DELETE', `/v1/webhook-endpoints/${id}`, { key: t.a.key })).body).toEqual({ id, deleted: true });
    expect((await t.call('GET', `/v1/webhook-endpoints/${id}`, { key: t.a.key })).status).toBe(404);
    expect((await t.call('DELETE', `/v1/webhook-endpoints/${id}`, { key: t.a.key })).status).toBe(404);
  });

  it('keeps each partner to its own endpoints', async () => {
    const created = await t.call('POST', '/v1/webhook-endpoints', { key: t.a.key, body: { url: 'https://hooks.example.com/a', enabledEvents: ['payment.created'] } });
    const id = created.body.endpoint.id as string;
    expect((await t.call('GET', `/v1/webhook-endpoints/${id}`, { key: t.b.key })).status).toBe(404);
    expect((await t.call('POST', `/v1/webhook-endpoints/${id}/rotate-secret`, { key: t.b.key })).status).toBe(404);
    expect((await t.call('GET', `/v1/webhook-endpoints/${id}/deliveries`, { key: t.b.key })).status).toBe(404);
    expect((await t.call('GET', '/v1/webhook-endpoints', { key: t.b.key })).body.data.map((e: { id: string }) => e.id)).not.toContain(id);
  });

  it.each([
    ['a private address', 'https://10.0.0.5/hook'],
    ['cloud metadata', 'https://169.254.169.254/latest'],
    ['loopback outside sandbox mode', 'https://127.0.0.1:8443/hook'],
    ['localhost outside sandbox mode', 'http://localhost:3000/hook'],
    ['a name resolving into a private network', 'https://internal.example.com/hook'],
    ['plain http', 'http://hooks.example.com/hook'],
    ['a name that does not resolve', 'https://nowhere.invalid/hook'],
  ])('refuses an endpoint URL pointing at %s', async (_what, url) => {
    const r = await t.call('POST', '/v1/webhook-endpoints', { key: t.a.key, body: { url, enabledEvents: ['payment.created'] } });
    expect(r.status).toBe(400);
    expect(r.body.issues[0].field).toBe('body.url');
  });

  it('refuses a private address on update too, and an unknown event type', async () => {
    const created = await t.call('POST', '/v1/webhook-endpoints', { key: t.a.key, body: { url: 'https://hooks.example.com/u', enabledEvents: ['payment.created'] } });
    const id = created.body.endpoint.id as string;
    expect((await t.call('PATCH', `/v1/webhook-endpoints/${id}`, { key: t.a.key, body: { url: 'https://192.168.1.1/x' } })).status).toBe(400);
    expect((await t.call('POST', '/v1/webhook-endpoints', { key: t.a.key, body: { url: 'https://hooks.example.com/u', enabledEvents: ['payment.exploded'] } })).status).toBe(400);
  });
});
