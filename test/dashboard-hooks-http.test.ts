import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { createInlineQueue } from '../adapters/queue/inline/index.ts';
import { systemClock } from '../server/ports/clock.ts';
import { createUser, OPERATOR } from '../server/domain/users/manage-users.ts';
import type { Role } from '../server/domain/users/records.ts';
import { dashboardClient } from '../server/dashboard/test-support/dashboard-client.ts';
import { storageBackends } from './helpers/backends.ts';
import type { TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { eventually, startReceiver, startWebhookStack } from './webhooks-support.ts';

const PASSWORD = 'a long enough passphrase';

/**
 * The dashboard's webhook pages over HTTP, with the whole delivery path running (dispatcher, job
 * runner, a real receiver on 127.0.0.1): endpoints, secrets shown once, the delivery log, test
 * events and redelivery, roles and CSRF, and the audit log of dashboard and API actions.
 */
let t: TestApp;
let stack: Awaited<ReturnType<typeof startWebhookStack>>;
let dispose: () => Promise<void>;
beforeAll(async () => {
  const backends = await storageBackends();
  const storage = await backends[backends.length - 1]!.open();
  dispose = storage.dispose;
  const limiter = () => createMemoryRateLimiter({ perSecond: 1, burst: 50 }, systemClock);
  stack = await startWebhookStack(storage, {
    queue: createInlineQueue({ clock: systemClock }),
    schedule: [0, 300, 300],
    concurrency: 4,
    app: {
      dashboard: { signInLimiters: { perAccount: limiter(), perAddress: limiter() } },
      feeBudget: { budget: (chain: string) => (chain.startsWith('solana:') ? 5_000_000_000n : 10n ** 16n), periodS: 86_400 },
    },
  });
  t = stack.t;
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await dispose?.();
});

let n = 0;
async function signedIn(role: Role, partnerId: string) {
  const email = `${role}-${++n}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const made = await createUser(t.storage, { partnerId, email, role, password: PASSWORD, actor: OPERATOR });
  if (!made.ok) throw new Error(made.problem);
  const c = dashboardClient(t.url);
  expect((await c.signIn(email, PASSWORD)).status).toBe(303);
  expect((await c.get('/dashboard/webhooks')).status).toBe(200); // a page, for its CSRF token
  return Object.assign(c, { email });
}

const endpointIdIn = (html: string) => /\/dashboard\/webhooks\/(whep_[0-9A-Z]+)/.exec(html)![1]!;
const secretIn = (html: string) => /(whsec_[A-Za-z0-9+/=]+)/.exec(html)?.[1];

describe('dashboard webhooks', () => {
  it('creates an endpoint (secret shown once), edits, disables, enables, rotates and deletes it; each step in the audit log', async () => {
    const p = await t.newPartner();
    const dev = await signedIn('developer', p.id);
    const rx = await startReceiver();
    const created = await dev.post('/dashboard/webhooks', { url: rx.url(), events: 'payment.succeeded' });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toMatch(/no-store/);
    const secret = secretIn(created.text)!;
    expect(secret).toMatch(/^whsec_/);
    const id = endpointIdIn(created.text);
    const page = await dev.get(`/dashboard/webhooks/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(secret);
    expect((await dev.get('/dashboard/webhooks')).text).not.toContain('whsec_');

    const saved = await dev.post(`/dashboard/webhooks/${id}`, { url: rx.url('/v2'), events: 'payment.refunded' });
    expect(saved.status).toBe(303);
    const after = await t.call('GET', `/v1/webhook-endpoints/${id}`, { key: p.key });
    expect(after.body.endpoint).toMatchObject({ url: rx.url('/v2'), enabledEvents: ['payment.refunded'], enabled: true });
    expect((await dev.post(`/dashboard/webhooks/${id}/disable`)).status).toBe(303);
    expect((await t.call('GET', `/v1/webhook-endpoints/${id}`, { key: p.key })).body.endpoint.enabled).toBe(false);
    expect((await dev.get(`/dashboard/webhooks/${id}?done=disabled`)).text).toContain('Endpoint disabled');
    expect((await dev.post(`/dashboard/webhooks/${id}/enable`)).status).toBe(303);
    const rotated = await dev.post(`/dashboard/webhooks/${id}/rotate`);
    expect(rotated.status).toBe(200);
    const second = secretIn(rotated.text)!;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(secret);
    expect((await dev.get(`/dashboard/webhooks/${id}`)).text).not.toContain(second);
    const deleted = await dev.post(`/dashboard/webhooks/${id}/delete`);
    expect(deleted.headers.get('location')).toBe(`/dashboard/webhooks?deleted=${id}`);
    expect((await t.call('GET', `/v1/webhook-endpoints/${id}`, { key: p.key })).status).toBe(404);
    expect((await dev.get(`/dashboard/webhooks/${id}`)).status).toBe(404);

    const log = (await t.storage.auditLog.listByPartner(p.id, { limit: 50 })).filter((e) => e.target.id === id);
    expect(log.map((e) => e.action).sort()).toEqual([
      'webhook_endpoint.create',
      'webhook_endpoint.delete',
      'webhook_endpoint.disable',
      'webhook_endpoint.enable',
      'webhook_endpoint.rotate_secret',
      'webhook_endpoint.update',
    ]);
    expect(log.every((e) => e.actor.kind === 'user' && e.actor.display === dev.email)).toBe(true);
    expect(JSON.stringify(log)).not.toContain('whsec_');
    await rx.stop();
  });

  it('sends a test event to a local receiver and shows the delivery with its attempt and response code', async () => {
    const p = await t.newPartner();
    const dev = await signedIn('developer', p.id);
    const rx = await startReceiver(() => 204);
    const id = endpointIdIn((await dev.post('/dashboard/webhooks', { url: rx.url(), events: 'payment.succeeded' })).text);
    expect((await dev.post(`/dashboard/webhooks/${id}/test`)).headers.get('location')).toBe(`/dashboard/webhooks/${id}?done=test`);
    expect(await eventually(() => rx.received.length >= 1)).toBe(true);
    expect(JSON.parse(rx.received[0]!.body)).toMatchObject({ type: 'webhook.test' });
    expect(await eventually(async () => (await dev.get(`/dashboard/webhooks/${id}`)).text.includes('data-status="delivered"'))).toBe(true);
    const page = (await dev.get(`/dashboard/webhooks/${id}`)).text;
    expect(page).toContain('webhook.test');
    expect(page).toContain('HTTP 204');
  });

  it('redelivers an event: the receiver gets it again with the same event id', async () => {
    const p = await t.newPartner();
    const dev = await signedIn('developer', p.id);
    const rx = await startReceiver();
    const id = endpointIdIn((await dev.post('/dashboard/webhooks', { url: rx.url(), events: 'payment.created' })).text);
    const merchant = await payableMerchant(t, p.key);
    await createPayment(t, p.key, merchant);
    expect(await eventually(() => rx.received.length >= 1)).toBe(true);
    const eventId = JSON.parse(rx.received[0]!.body).id as string;
    expect(await eventually(async () => (await dev.get(`/dashboard/webhooks/${id}`)).text.includes(`/deliveries/${eventId}/redeliver`))).toBe(true);
    const r = await dev.post(`/dashboard/webhooks/${id}/deliveries/${eventId}/redeliver`);
    expect(r.headers.get('location')).toBe(`/dashboard/webhooks/${id}?done=redelivered`);
    expect(await eventually(() => rx.received.length >= 2)).toBe(true);
    expect(JSON.parse(rx.received[1]!.body).id).toBe(eventId);
    // An event id that is not this partner's is refused as unknown.
    expect((await dev.post(`/dashboard/webhooks/${id}/deliveries/evt_01ZZZZZZZZZZZZZZZZZZZZZZZZ/redeliver`)).status).toBe(404);
  });

  it('refuses a bad URL with the reason, keeping what was typed', async () => {
    const p = await t.newPartner();
    const dev = await signedIn('owner', p.id);
    const r = await dev.post('/dashboard/webhooks', { url: 'ftp://example.com/x', events: 'payment.succeeded' });
    expect(r.status).toBe(400);
    expect(r.text).toContain('role="alert"');
    expect(r.text).toContain('ftp://example.com/x');
    const none = await dev.post('/dashboard/webhooks', { url: 'https://example.com/<script>' });
    expect(none.status).toBe(400);
    expect(none.text).not.toContain('<script>');
    expect((await t.call('GET', '/v1/webhook-endpoints', { key: p.key })).body.data).toEqual([]);
  });

  it('lets a viewer read but refuses every change (403), and another partner sees nothing (404)', async () => {
    const p = await t.newPartner();
    const owner = await signedIn('owner', p.id);
    const rx = await startReceiver();
    const id = endpointIdIn((await owner.post('/dashboard/webhooks', { url: rx.url(), events: 'payment.succeeded' })).text);
    const viewer = await signedIn('viewer', p.id);
    const list = await viewer.get('/dashboard/webhooks');
    expect(list.status).toBe(200);
    expect(list.text).toContain(rx.url());
    expect(list.text).not.toContain('id="create-endpoint"');
    const page = await viewer.get(`/dashboard/webhooks/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('/rotate');
    for (const path of [
      '/dashboard/webhooks',
      `/dashboard/webhooks/${id}`,
      `/dashboard/webhooks/${id}/rotate`,
      `/dashboard/webhooks/${id}/delete`,
      `/dashboard/webhooks/${id}/test`,
      `/dashboard/webhooks/${id}/disable`,
    ]) {
      expect((await viewer.post(path, { url: 'https://example.com/x', events: 'payment.succeeded' })).status).toBe(403);
    }
    const stranger = await signedIn('owner', t.a.id);
    expect((await stranger.get(`/dashboard/webhooks/${id}`)).status).toBe(404);
    expect((await stranger.post(`/dashboard/webhooks/${id}/delete`)).status).toBe(404);
    expect((await stranger.post(`/dashboard/webhooks/${id}/rotate`)).status).toBe(404);
    expect((await t.call('GET', `/v1/webhook-endpoints/${id}`, { key: p.key })).body.endpoint.enabled).toBe(true);
  });

  it('refuses a POST without the CSRF token', async () => {
    const p = await t.newPartner();
    const owner = await signedIn('owner', p.id);
    await owner.get('/dashboard/webhooks');
    const r = await owner.post('/dashboard/webhooks', { _csrf: '', url: 'https://example.com/x', events: 'payment.succeeded' });
    expect(r.status).toBe(403);
    expect((await t.call('GET', '/v1/webhook-endpoints', { key: p.key })).body.data).toEqual([]);
  });

  it("the audit page shows the API's actions (by key) beside the dashboard's (by user)", async () => {
    const p = await t.newPartner();
    const owner = await signedIn('owner', p.id);
    const api = await t.call('POST', '/v1/webhook-endpoints', { key: p.key, body: { url: 'http://127.0.0.1:9/api', enabledEvents: ['payment.succeeded'] } });
    expect(api.status).toBe(201);
    const dash = endpointIdIn((await owner.post('/dashboard/webhooks', { url: 'http://127.0.0.1:9/dash', events: 'payment.succeeded' })).text);
    const audit = await owner.get('/dashboard/audit');
    expect(audit.status).toBe(200);
    expect(audit.text).toContain(api.body.endpoint.id);
    expect(audit.text).toContain(dash);
    expect(audit.text).toContain(`sk_…${p.key.slice(-4)}`);
    expect(audit.text).toContain('(API key)');
    expect(audit.text).toContain(owner.email);
  });
});

describe('dashboard settings', () => {
  it('owners only: a developer and a viewer get 403 on the page and its POSTs', async () => {
    const p = await t.newPartner();
    for (const role of ['developer', 'viewer'] as const) {
      const c = await signedIn(role, p.id);
      expect((await c.get('/dashboard/settings')).status).toBe(403);
      expect((await c.get('/dashboard/webhooks')).text).not.toContain('href="/dashboard/settings"');
      expect((await c.post('/dashboard/settings/api-version', { version: '2026-02-19.preview' })).status).toBe(403);
      expect((await c.post('/dashboard/settings/time-zone', { timeZone: 'Europe/Berlin' })).status).toBe(403);
    }
    expect((await t.storage.partners.get(p.id))!.defaultVersion).toBe('2026-02-18');
  });

  it('upgrades the pinned API version with a note of what changes, never back; the API then answers in it', async () => {
    const p = await t.newPartner('2026-02-18');
    const owner = await signedIn('owner', p.id);
    const page = await owner.get('/dashboard/settings');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<code id="pinned-version">2026-02-18</code>');
    expect(page.text).toContain('checkout');
    expect((await owner.post('/dashboard/settings/api-version', { version: '2026-01-01' })).status).toBe(400);
    expect((await owner.post('/dashboard/settings/api-version', { version: '2026-02-19.preview' })).headers.get('location')).toBe('/dashboard/settings?done=version');
    expect((await t.storage.partners.get(p.id))!.defaultVersion).toBe('2026-02-19.preview');
    expect(await eventually(async () => (await t.call('GET', '/v1/merchants', { key: p.key })).headers.get('svc-version') === '2026-02-19.preview', 5000)).toBe(true);
    // The dated version after the preview is offered with its note, and taken.
    expect((await owner.get('/dashboard/settings')).text).toContain('payment.reversed');
    expect((await owner.post('/dashboard/settings/api-version', { version: '2026-11-27' })).headers.get('location')).toBe('/dashboard/settings?done=version');
    expect((await owner.get('/dashboard/settings')).text).toContain('payment.paid_twice');
    expect((await owner.post('/dashboard/settings/api-version', { version: '2026-11-28' })).headers.get('location')).toBe('/dashboard/settings?done=version');
    // Back is refused: the newest version offers no upgrade, and a forged POST is a 400.
    expect((await owner.get('/dashboard/settings')).text).toContain('This is the newest version.');
    const back = await owner.post('/dashboard/settings/api-version', { version: '2026-11-27' });
    expect(back.status).toBe(400);
    expect((await t.storage.partners.get(p.id))!.defaultVersion).toBe('2026-11-28');
    const log = await t.storage.auditLog.listByPartner(p.id, { limit: 10 });
    expect(log.filter((e) => e.action === 'settings.api_version').map((e) => e.detail)).toEqual([
      { from: '2026-11-27', to: '2026-11-28' },
      { from: '2026-02-19.preview', to: '2026-11-27' },
      { from: '2026-02-18', to: '2026-02-19.preview' },
    ]);
  });

  it('shows what the shared fee accounts spent for this partner’s payments per chain, against its budget, and no other partner’s', async () => {
    const p = await t.newPartner();
    const other = await t.newPartner();
    const owner = await signedIn('owner', p.id);
    expect((await owner.get('/dashboard/settings')).text).toContain('id="fee-spending-none"');
    const at = new Date();
    const spend = (partnerId: string, chain: string, amount: bigint, n: number) =>
      t.storage.feeSpending.record({ partnerId, paymentId: `pay_${n}`, chain, account: 'relayer', txId: `0x${partnerId}${n}`, amount, at });
    await spend(p.id, 'eip155:8453', 6n * 10n ** 15n, 1);
    await spend(p.id, 'eip155:8453', 4n * 10n ** 15n, 2);
    await spend(p.id, 'solana:sandbox', 10_000n, 3);
    await spend(other.id, 'eip155:1', 10n ** 18n, 4);
    const page = (await owner.get('/dashboard/settings')).text;
    const table = /<table id="fee-spending-table">([\s\S]*?)<\/table>/.exec(page)![1]!;
    expect(table).toContain(
      '<code>eip155:8453</code></td><td data-label="Transactions">2</td><td data-label="Spent">0.01</td><td data-label="Budget">0.01</td><td data-label="Gasless"><strong>paused</strong>',
    );
    expect(table).toContain(
      '<code>solana:sandbox</code></td><td data-label="Transactions">1</td><td data-label="Spent">0.00001</td><td data-label="Budget">5</td><td data-label="Gasless">offered',
    );
    expect(table).not.toContain('eip155:1<');
  });

  it('sets the time zone (an IANA name, checked) and the pages show times in it', async () => {
    const p = await t.newPartner();
    const owner = await signedIn('owner', p.id);
    for (const bad of ['Mars/Olympus', 'Europe/Berlin<script>', '', 'x'.repeat(100)]) {
      const r = await owner.post('/dashboard/settings/time-zone', { timeZone: bad });
      expect(r.status, bad).toBe(400);
      expect(r.text).not.toContain('<script>');
    }
    expect((await t.storage.partners.get(p.id))!.timeZone).toBeUndefined();
    expect((await owner.post('/dashboard/settings/time-zone', { timeZone: 'asia/tokyo' })).status).toBe(303);
    expect((await t.storage.partners.get(p.id))!.timeZone).toBe('Asia/Tokyo');
    const rx = await startReceiver();
    const id = endpointIdIn((await owner.post('/dashboard/webhooks', { url: rx.url(), events: 'payment.succeeded' })).text);
    const created = (await t.storage.webhooks.getEndpoint(p.id, id))!.createdAt;
    const tokyo = new Date(created.getTime() + 9 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect((await owner.get('/dashboard/webhooks')).text).toContain(`${tokyo} Asia/Tokyo`);
    const audit = (await owner.get('/dashboard/audit')).text;
    expect(audit).toContain('times in Asia/Tokyo');
    expect(audit).not.toMatch(/\d\d:\d\d UTC/);
    expect((await owner.get('/dashboard/keys')).text).toContain('Asia/Tokyo');
    expect((await owner.post('/dashboard/settings/time-zone', { timeZone: 'UTC' })).status).toBe(303);
    expect((await t.storage.partners.get(p.id))!.timeZone).toBeUndefined();
    await rx.stop();
  });
});
