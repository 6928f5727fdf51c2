import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { loadConfig } from '../server/config.ts';
import { openDashboard } from '../server/composition/dashboard.ts';
import { systemClock } from '../server/ports/clock.ts';
import { createUser, OPERATOR } from '../server/domain/users/manage-users.ts';
import type { Role } from '../server/domain/users/records.ts';
import { dashboardClient } from '../server/dashboard/test-support/dashboard-client.ts';
import { storageBackends, type TestStorage } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * The dashboard over HTTP against the real app on PostgreSQL (PGlite when no server answers):
 * sessions and their cookies, CSRF and origin checks, sign-in throttling, role checks, key
 * creation and revocation as the API sees them, users and the audit log.
 */
const PASSWORD = 'a long enough passphrase';
let store: TestStorage & { dispose(): Promise<void> };
let t: TestApp;
let n = 0;
/** Each test its own client address (the app trusts one proxy hop), so per-address buckets do not mix. */
const address = () => ({ 'X-Forwarded-For': `10.0.${Math.floor(++n / 250)}.${n % 250}` });

async function user(role: Role, partnerId = t.a.id): Promise<string> {
  const email = `${role}-${++n}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const made = await createUser(t.storage, { partnerId, email, role, password: PASSWORD, actor: OPERATOR });
  if (!made.ok) throw new Error(made.problem);
  return email;
}

async function signedIn(role: Role, partnerId?: string) {
  const c = dashboardClient(t.url, address());
  const r = await c.signIn(await user(role, partnerId), PASSWORD);
  expect(r.status).toBe(303);
  return c;
}

beforeAll(async () => {
  const backends = await storageBackends();
  store = await backends[backends.length - 1]!.open();
  t = await startTestApp(store, {
    trustProxyHops: 1,
    dashboard: {
      signInLimiters: {
        perAccount: createMemoryRateLimiter({ perSecond: 1 / 60, burst: 5 }, systemClock),
        perAddress: createMemoryRateLimiter({ perSecond: 1 / 60, burst: 12 }, systemClock),
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await store?.dispose();
});

describe('dashboard sign-in and sessions', () => {
  it('refuses a wrong password and an unknown email with one generic message, then signs in with HttpOnly SameSite=Strict cookies', async () => {
    const email = await user('owner');
    const c = dashboardClient(t.url, address());
    const wrong = await c.signIn(email, 'not the password at all');
    const unknown = await c.signIn('nobody-here@example.test', PASSWORD);
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.text).toContain('Email or password is incorrect.');
    expect(unknown.text).toContain('Email or password is incorrect.');
    expect(c.jar.has('mps_session')).toBe(false);

    const ok = await c.signIn(email.toUpperCase(), PASSWORD);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/dashboard/keys');
    const cookie = ok.headers.getSetCookie().find((x) => x.startsWith('mps_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/); // plain HTTP: a Secure cookie would never come back
    const page = await c.get('/dashboard/keys');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(page.headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);
    expect(page.text).toContain(email);
  });

  it('over HTTPS (behind the trusted proxy) the cookie is Secure and __Host- prefixed', async () => {
    const email = await user('viewer');
    const https = { ...address(), 'X-Forwarded-Proto': 'https' };
    const c = dashboardClient(t.url, https);
    const r = await c.signIn(email, PASSWORD);
    expect(r.status).toBe(303);
    const cookie = r.headers.getSetCookie().find((x) => x.startsWith('__Host-mps_session='))!;
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/Path=\//);
    expect((await c.get('/dashboard/keys')).status).toBe(200);
  });

  it('sends a visitor without a session to sign in, and refuses their POSTs', async () => {
    const c = dashboardClient(t.url, address());
    const r = await c.get('/dashboard/keys');
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/dashboard/sign-in');
    expect((await c.post('/dashboard/keys', { name: 'x', scope: 'partner' })).status).toBe(403);
    // A forged session cookie is no session.
    const forged = await fetch(`${t.url}/dashboard/keys`, { headers: { Cookie: `mps_session=${'A'.repeat(43)}` }, redirect: 'manual' });
    expect(forged.status).toBe(303);
  });

  it('ends a session after 30 idle minutes, and after 12 hours however active', async () => {
    const idle = await signedIn('viewer');
    t.clock.advance(29 * 60_000);
    expect((await idle.get('/dashboard/keys')).status).toBe(200);
    t.clock.advance(31 * 60_000);
    expect((await idle.get('/dashboard/keys')).status).toBe(303);

    const busy = await signedIn('viewer');
    for (let h = 0; h < 11.5 * 3; h++) {
      t.clock.advance(20 * 60_000);
      expect((await busy.get('/dashboard/keys')).status).toBe(200);
    }
    t.clock.advance(40 * 60_000);
    expect((await busy.get('/dashboard/keys')).status).toBe(303);
  });

  it('signs out one session, or every session of the user', async () => {
    const email = await user('developer');
    const [laptop, phone, tablet] = [dashboardClient(t.url, address()), dashboardClient(t.url, address()), dashboardClient(t.url, address())];
    for (const c of [laptop, phone, tablet]) expect((await c.signIn(email, PASSWORD)).status).toBe(303);
    await laptop.get('/dashboard/keys');
    expect((await laptop.post('/dashboard/sign-out')).status).toBe(303);
    expect((await laptop.get('/dashboard/keys')).status).toBe(303);
    expect((await phone.get('/dashboard/keys')).status).toBe(200);
    expect((await phone.post('/dashboard/sign-out-everywhere')).status).toBe(303);
    expect((await phone.get('/dashboard/keys')).status).toBe(303);
    expect((await tablet.get('/dashboard/keys')).status).toBe(303);
  });

  it('throttles sign-in per account (the right password refused too) and per address, answering 429', async () => {
    const email = await user('viewer');
    const from = address();
    for (let i = 0; i < 5; i++) expect((await dashboardClient(t.url, address()).signIn(email, 'wrong wrong wrong')).status).toBe(401);
    const locked = await dashboardClient(t.url, from).signIn(email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many sign-in attempts');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);

    // One address trying many accounts: stopped after its burst, whichever account.
    const sprayer = address();
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) statuses.push((await dashboardClient(t.url, sprayer).signIn(`spray-${i}@example.test`, 'whatever whatever')).status);
    expect(statuses.slice(0, 12).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(12)).toEqual([429, 429]);
  });
});

describe('dashboard CSRF', () => {
  it('refuses a POST without the token, with a wrong one, or from another origin; accepts the page’s own', async () => {
    const c = await signedIn('owner');
    await c.get('/dashboard/keys');
    const form = { name: 'csrf probe', scope: 'partner' };
    expect((await c.post('/dashboard/keys', { ...form, _csrf: '' })).status).toBe(403);
    expect((await c.post('/dashboard/keys', { ...form, _csrf: 'x'.repeat(43) })).status).toBe(403);
    await c.get('/dashboard/keys');
    expect((await c.post('/dashboard/keys', form, { Origin: 'https://evil.example' })).status).toBe(403);
    await c.get('/dashboard/keys');
    expect((await c.post('/dashboard/keys', form, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    await c.get('/dashboard/keys');
    expect((await c.post('/dashboard/keys', form, { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    await c.get('/dashboard/keys');
    expect((await c.post('/dashboard/keys', form, { Origin: 'null' })).status).toBe(403);
    await c.get('/dashboard/keys');
    // What Chromium sends for a form of a no-referrer page: Origin null, Fetch Metadata same-origin.
    expect((await c.post('/dashboard/keys', form, { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' })).status).toBe(201);
    await c.get('/dashboard/keys');
    expect((await c.post('/dashboard/keys', form, { Origin: t.url })).status).toBe(201);
    // Another session's token is not this session's.
    const other = await signedIn('owner');
    await other.get('/dashboard/keys');
    await c.get('/dashboard/keys');
    expect((await c.post('/dashboard/keys', { ...form, _csrf: other.csrf })).status).toBe(403);
  });

  it('refuses a sign-in form posted without its pre-session token or from another origin', async () => {
    const email = await user('viewer');
    const c = dashboardClient(t.url, address());
    await c.get('/dashboard/sign-in');
    expect((await c.post('/dashboard/sign-in', { email, password: PASSWORD, _csrf: 'nope' })).status).toBe(403);
    await c.get('/dashboard/sign-in');
    expect((await c.post('/dashboard/sign-in', { email, password: PASSWORD }, { Origin: 'https://evil.example' })).status).toBe(403);
    const bare = await fetch(`${t.url}/dashboard/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `email=${email}&password=${PASSWORD}`,
      redirect: 'manual',
    });
    expect(bare.status).toBe(403);
  });
});

describe('dashboard keys and roles', () => {
  it('creates a named key shown once, which the API accepts; revoking it makes the API answer 401', async () => {
    const c = await signedIn('developer');
    await c.get('/dashboard/keys');
    const created = await c.post('/dashboard/keys', { name: 'Checkout <prod>', scope: 'partner' });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const apiKey = /id="new-key-value">([^<]+)</.exec(created.text)![1]!;
    expect(apiKey).toMatch(/^sk_test_/);
    expect(created.text).toContain('Checkout &lt;prod&gt;');
    expect((await t.call('GET', '/v1/merchants', { key: apiKey })).status).toBe(200);

    const list = await c.get('/dashboard/keys');
    expect(list.text).not.toContain(apiKey);
    expect(list.text).toContain(`…${apiKey.slice(-4)}`);
    const keyId = new RegExp(`data-key-id="(key_[^"]+)">\\s*<td data-label="Name">Checkout &lt;prod&gt;`).exec(list.text)![1]!;
    const revoked = await c.post(`/dashboard/keys/${keyId}/revoke`);
    expect(revoked.status).toBe(303);
    expect((await c.get(revoked.headers.get('location')!)).text).toContain('The API refuses it within a second');
    // The API's key cache trusts a key for keyTrustMs (1 s here) on the app's clock.
    t.clock.advance(1001);
    expect(await t.call('GET', '/v1/merchants', { key: apiKey })).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
  });

  it('cannot revoke another partner’s key, and refuses bad names and types', async () => {
    const c = await signedIn('owner');
    const theirs = (await t.storage.apiKeys.listByPartner(t.b.id))[0]!;
    await c.get('/dashboard/keys');
    expect((await c.post(`/dashboard/keys/${theirs.id}/revoke`)).status).toBe(404);
    expect((await t.storage.apiKeys.listByPartner(t.b.id))[0]!.revokedAt).toBeNull();
    await c.get('/dashboard/keys');
    expect((await c.post('/dashboard/keys', { name: '', scope: 'partner' })).status).toBe(400);
    await c.get('/dashboard/keys');
    expect((await c.post('/dashboard/keys', { name: 'x', scope: 'root' })).status).toBe(400);
  });

  it('a viewer sees keys without create or revoke buttons, and its POSTs are refused', async () => {
    const c = await signedIn('viewer');
    const page = await c.get('/dashboard/keys');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('id="create-key"');
    expect(page.text).not.toContain('/revoke');
    const target = (await t.storage.apiKeys.listByPartner(t.a.id))[0]!;
    expect((await c.post('/dashboard/keys', { name: 'sneaky', scope: 'partner' })).status).toBe(403);
    expect((await c.post(`/dashboard/keys/${target.id}/revoke`)).status).toBe(403);
    expect((await t.storage.apiKeys.listByPartner(t.a.id)).find((k) => k.id === target.id)!.revokedAt).toBeNull();
    expect((await c.get('/dashboard/users')).status).toBe(403);
    expect((await c.get('/dashboard/audit')).status).toBe(403);
  });

  it('a developer manages keys but not users or the audit log', async () => {
    const c = await signedIn('developer');
    expect((await c.get('/dashboard/keys')).text).toContain('id="create-key"');
    expect((await c.get('/dashboard/users')).status).toBe(403);
    await c.get('/dashboard/keys');
    expect((await c.post('/dashboard/users', { email: 'x@example.test', role: 'owner' })).status).toBe(403);
    expect((await c.get('/dashboard/audit')).status).toBe(403);
  });
});

describe('dashboard users and audit log', () => {
  it('an owner invites a user (temporary password shown once), changes the role (signing them out), removes them', async () => {
    const owner = await signedIn('owner');
    await owner.get('/dashboard/users');
    const email = `invited-${Math.random().toString(36).slice(2)}@example.test`;
    const invited = await owner.post('/dashboard/users', { email, role: 'developer' });
    expect(invited.status).toBe(201);
    const temp = /id="temp-password">([^<]+)</.exec(invited.text)![1]!;
    const them = dashboardClient(t.url, address());
    expect((await them.signIn(email, temp)).status).toBe(303);
    expect((await them.get('/dashboard/keys')).text).toContain('id="create-key"');

    const id = (await t.storage.users.findByEmail(email))!.id;
    await owner.get('/dashboard/users');
    expect((await owner.post(`/dashboard/users/${id}/role`, { role: 'viewer' })).status).toBe(303);
    expect((await them.get('/dashboard/keys')).status).toBe(303); // signed out by the change
    expect((await them.signIn(email, temp)).status).toBe(303);
    expect((await them.get('/dashboard/keys')).text).not.toContain('id="create-key"');

    await owner.get('/dashboard/users');
    expect((await owner.post(`/dashboard/users/${id}/remove`)).status).toBe(303);
    expect((await them.get('/dashboard/keys')).status).toBe(303);
    expect((await them.signIn(email, temp)).status).toBe(401);

    await owner.get('/dashboard/users');
    expect((await owner.post('/dashboard/users', { email, role: 'superuser' })).status).toBe(400);
  });

  it('an owner cannot remove or demote themselves, nor touch another partner’s users', async () => {
    const email = await user('owner');
    const owner = dashboardClient(t.url, address());
    await owner.signIn(email, PASSWORD);
    const me = (await t.storage.users.findByEmail(email))!;
    const theirs = (await t.storage.users.findByEmail(await user('viewer', t.b.id)))!;
    await owner.get('/dashboard/users');
    expect((await owner.post(`/dashboard/users/${me.id}/role`, { role: 'viewer' })).text).toContain('You cannot change your own role.');
    expect((await owner.post(`/dashboard/users/${me.id}/remove`)).text).toContain('You cannot remove yourself.');
    expect((await owner.post(`/dashboard/users/${theirs.id}/remove`)).status).toBe(400);
    expect((await owner.post(`/dashboard/users/${theirs.id}/role`, { role: 'owner' })).status).toBe(400);
    expect(await t.storage.users.get(t.b.id, theirs.id)).toEqual(theirs);
    expect((await t.storage.users.get(t.a.id, me.id))?.role).toBe('owner');
  });

  it('records key and user actions with who did them, shown newest first to owners', async () => {
    const p = await t.newPartner();
    const ownerEmail = await user('owner', p.id);
    const owner = dashboardClient(t.url, address());
    // Each action a second apart on the app's clock, so "newest first" has one answer.
    const tick = () => t.clock.set(Math.max(t.clock.now(), Date.now()) + 1000);
    tick();
    await owner.signIn(ownerEmail, PASSWORD);
    tick();
    await owner.get('/dashboard/keys');
    await owner.post('/dashboard/keys', { name: 'Audited', scope: 'wallet' });
    tick();
    const key = (await t.storage.apiKeys.listByPartner(p.id)).find((k) => k.name === 'Audited')!;
    await owner.get('/dashboard/keys');
    await owner.post(`/dashboard/keys/${key.id}/revoke`);
    tick();
    await owner.get('/dashboard/users');
    await owner.post('/dashboard/users', { email: `aud-${Math.random().toString(36).slice(2)}@example.test`, role: 'viewer' });
    const page = await owner.get('/dashboard/audit');
    expect(page.status).toBe(200);
    const actions = [...page.text.matchAll(/data-action="([^"]+)"/g)].map((m) => m[1]);
    expect(actions).toEqual(['user.invite', 'api_key.revoke', 'api_key.create', 'session.sign_in', 'user.create']);
    expect(page.text).toContain(ownerEmail);
    expect(page.text).toContain('name: Audited');
  });
});

describe('dashboard switched off', () => {
  it('DASHBOARD is on by default, off when set so, and refuses anything else', async () => {
    expect(loadConfig({}).dashboard).toBe(true);
    expect(loadConfig({ DASHBOARD: 'off' }).dashboard).toBe(false);
    expect(() => loadConfig({ DASHBOARD: 'no' })).toThrow(/DASHBOARD must be on or off/);
    expect(await openDashboard({ dashboard: false }, pino({ level: 'silent' }))).toBeUndefined();
    const on = await openDashboard({ dashboard: true }, pino({ level: 'silent' }));
    expect(on?.options.signInLimiters.perAccount).toBeDefined();
    await on?.close();
  });

  it('answers 404 at /dashboard when the app is built without it (DASHBOARD=off)', async () => {
    const off = await startTestApp(store);
    try {
      expect((await fetch(`${off.url}/dashboard`)).status).toBe(404);
      expect((await fetch(`${off.url}/dashboard/sign-in`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
