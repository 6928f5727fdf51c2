import { describe, expect, it } from 'vitest';
import { hashSessionToken } from '../server/domain/users/sessions.ts';
import { dashboardClient } from '../server/dashboard/test-support/dashboard-client.ts';
import { PASSWORD, useDashboardApp } from './helpers/dashboard-app.ts';

/**
 * The dashboard over HTTP against the real app on PostgreSQL (PGlite when no server answers):
 * sessions and their cookies, CSRF and origin checks, sign-in throttling, role checks, key
 * creation and revocation as the API sees them, users and the audit log.
 */
const env = useDashboardApp();
const { address, user, signedIn } = env;

describe('dashboard sign-in and sessions', () => {
  it('refuses a wrong password and an unknown email with one generic message, then signs in with HttpOnly SameSite=Strict cookies', async () => {
    const email = await user('owner');
    const c = dashboardClient(env.t.url, address());
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
    const c = dashboardClient(env.t.url, https);
    const r = await c.signIn(email, PASSWORD);
    expect(r.status).toBe(303);
    const cookie = r.headers.getSetCookie().find((x) => x.startsWith('__Host-mps_session='))!;
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/Path=\//);
    expect((await c.get('/dashboard/keys')).status).toBe(200);
  });

  it('sends a visitor without a session to sign in, and refuses their POSTs', async () => {
    const c = dashboardClient(env.t.url, address());
    const r = await c.get('/dashboard/keys');
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/dashboard/sign-in');
    expect((await c.post('/dashboard/keys', { name: 'x', scope: 'partner' })).status).toBe(403);
    // A forged session cookie is no session.
    const forged = await fetch(`${env.t.url}/dashboard/keys`, { headers: { Cookie: `mps_session=${'A'.repeat(43)}` }, redirect: 'manual' });
    expect(forged.status).toBe(303);
  });

  it('ends a session after 30 idle minutes, and after 12 hours however active', async () => {
    const idle = await signedIn('viewer');
    env.t.clock.advance(29 * 60_000);
    expect((await idle.get('/dashboard/keys')).status).toBe(200);
    env.t.clock.advance(31 * 60_000);
    expect((await idle.get('/dashboard/keys')).status).toBe(303);

    const busy = await signedIn('viewer');
    for (let h = 0; h < 11.5 * 3; h++) {
      env.t.clock.advance(20 * 60_000);
      expect((await busy.get('/dashboard/keys')).status).toBe(200);
    }
    env.t.clock.advance(40 * 60_000);
    expect((await busy.get('/dashboard/keys')).status).toBe(303);
  });

  it('signs out one session, or every session of the user', async () => {
    const email = await user('developer');
    const [laptop, phone, tablet] = [dashboardClient(env.t.url, address()), dashboardClient(env.t.url, address()), dashboardClient(env.t.url, address())];
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
    for (let i = 0; i < 5; i++) expect((await dashboardClient(env.t.url, address()).signIn(email, 'wrong wrong wrong')).status).toBe(401);
    const locked = await dashboardClient(env.t.url, from).signIn(email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many sign-in attempts');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);

    // One address trying many accounts: stopped after its burst, whichever account.
    const sprayer = address();
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) statuses.push((await dashboardClient(env.t.url, sprayer).signIn(`spray-${i}@example.test`, 'whatever whatever')).status);
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
    expect((await c.post('/dashboard/keys', form, { Origin: env.t.url })).status).toBe(201);
    // Another session's token is not this session's.
    const other = await signedIn('owner');
    await other.get('/dashboard/keys');
    await c.get('/dashboard/keys');
    expect((await c.post('/dashboard/keys', { ...form, _csrf: other.csrf })).status).toBe(403);
  });

  it('refuses a sign-in form posted without its pre-session token or from another origin', async () => {
    const email = await user('viewer');
    const c = dashboardClient(env.t.url, address());
    await c.get('/dashboard/sign-in');
    expect((await c.post('/dashboard/sign-in', { email, password: PASSWORD, _csrf: 'nope' })).status).toBe(403);
    await c.get('/dashboard/sign-in');
    expect((await c.post('/dashboard/sign-in', { email, password: PASSWORD }, { Origin: 'https://evil.example' })).status).toBe(403);
    const bare = await fetch(`${env.t.url}/dashboard/sign-in`, {
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
    expect((await env.t.call('GET', '/v1/merchants', { key: apiKey })).status).toBe(200);

    const list = await c.get('/dashboard/keys');
    expect(list.text).not.toContain(apiKey);
    expect(list.text).toContain(`…${apiKey.slice(-4)}`);
    const keyId = new RegExp(`data-key-id="(key_[^"]+)">\\s*<td data-label="Name">Checkout &lt;prod&gt;`).exec(list.text)![1]!;
    const revoked = await c.post(`/dashboard/keys/${keyId}/revoke`);
    expect(revoked.status).toBe(303);
    expect((await c.get(revoked.headers.get('location')!)).text).toContain('The API refuses it at once on this server, and within a second on any other');
    // At once: the key cache trusted it for 1 s (on the app's clock, which has not moved), but the
    // dashboard told it of the revocation.
    expect(await env.t.call('GET', '/v1/merchants', { key: apiKey })).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
  });

  it('cannot revoke another partner’s key, and refuses bad names and types', async () => {
    const c = await signedIn('owner');
    const theirs = (await env.t.storage.apiKeys.listByPartner(env.t.b.id))[0]!;
    await c.get('/dashboard/keys');
    expect((await c.post(`/dashboard/keys/${theirs.id}/revoke`)).status).toBe(404);
    expect((await env.t.storage.apiKeys.listByPartner(env.t.b.id))[0]!.revokedAt).toBeNull();
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
    const target = (await env.t.storage.apiKeys.listByPartner(env.t.a.id))[0]!;
    expect((await c.post('/dashboard/keys', { name: 'sneaky', scope: 'partner' })).status).toBe(403);
    expect((await c.post(`/dashboard/keys/${target.id}/revoke`)).status).toBe(403);
    expect((await env.t.storage.apiKeys.listByPartner(env.t.a.id)).find((k) => k.id === target.id)!.revokedAt).toBeNull();
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

describe('dashboard hostile input', () => {
  it('answers an oversized or over-long form with a page (never JSON or a stack), and reads repeated fields as empty', async () => {
    const c = await signedIn('owner');
    await c.get('/dashboard/keys');
    const big = await c.post('/dashboard/keys', { name: 'x'.repeat(20_000), scope: 'partner' });
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toMatch(/text\/html/);
    expect(big.text).not.toMatch(/at .*\.ts:\d+/);
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, 'v']));
    expect((await c.post('/dashboard/keys', { ...many, name: 'n', scope: 'partner' })).status).toBe(413);
    await c.get('/dashboard/keys');
    const repeated = await fetch(`${env.t.url}/dashboard/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '), ...address() },
      body: `_csrf=${c.csrf}&name=a&name=b&scope=partner`,
      redirect: 'manual',
    });
    expect(repeated.status).toBe(400);
    expect((await c.get('/dashboard/audit?before=garbage')).status).toBe(200);
    expect((await c.get('/dashboard/no-such-page')).status).toBe(404);
  });

  it('sweeps sessions nobody came back to at the next sign-in', async () => {
    const gone = await signedIn('viewer');
    const token = gone.jar.get('mps_session')!;
    expect(await env.t.storage.sessions.find(hashSessionToken(token))).not.toBeNull();
    env.t.clock.advance(31 * 60_000);
    await signedIn('viewer');
    expect(await env.t.storage.sessions.find(hashSessionToken(token))).toBeNull();
  });
});
