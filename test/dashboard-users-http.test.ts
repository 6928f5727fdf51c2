import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { loadConfig } from '../server/config.ts';
import { openDashboard } from '../server/composition/dashboard.ts';
import { startTestApp } from './helpers/test-app.ts';
import { dashboardClient } from '../server/dashboard/test-support/dashboard-client.ts';
import { PASSWORD, useDashboardApp } from './helpers/dashboard-app.ts';

/** The dashboard's users page (owners) and audit log over HTTP, and the DASHBOARD switch. */
const env = useDashboardApp();
const { address, user, signedIn } = env;

describe('dashboard users and audit log', () => {
  it('an owner invites a user (temporary password shown once), changes the role (signing them out), removes them', async () => {
    const owner = await signedIn('owner');
    await owner.get('/dashboard/users');
    const email = `invited-${Math.random().toString(36).slice(2)}@example.test`;
    const invited = await owner.post('/dashboard/users', { email, role: 'developer' });
    expect(invited.status).toBe(201);
    const temp = /id="temp-password">([^<]+)</.exec(invited.text)![1]!;
    const them = dashboardClient(env.t.url, address());
    expect((await them.signIn(email, temp)).status).toBe(303);
    // The temporary password is replaced first (dashboard-accounts-http.test.ts has the rest).
    await them.get('/dashboard/account');
    const own = 'my very own passphrase';
    expect((await them.post('/dashboard/account/password', { current: temp, next: own })).headers.get('location')).toBe('/dashboard/keys');
    expect((await them.get('/dashboard/keys')).text).toContain('id="create-key"');

    const id = (await env.t.storage.users.listByEmail(email, 1))[0]!.id;
    await owner.get('/dashboard/users');
    expect((await owner.post(`/dashboard/users/${id}/role`, { role: 'viewer' })).status).toBe(303);
    expect((await them.get('/dashboard/keys')).status).toBe(303); // signed out by the change
    expect((await them.signIn(email, own)).status).toBe(303);
    expect((await them.get('/dashboard/keys')).text).not.toContain('id="create-key"');

    await owner.get('/dashboard/users');
    expect((await owner.post(`/dashboard/users/${id}/remove`)).status).toBe(303);
    expect((await them.get('/dashboard/keys')).status).toBe(303);
    expect((await them.signIn(email, own)).status).toBe(401);

    await owner.get('/dashboard/users');
    expect((await owner.post('/dashboard/users', { email, role: 'superuser' })).status).toBe(400);
  });

  it('an owner cannot remove or demote themselves, nor touch another partner’s users', async () => {
    const email = await user('owner');
    const owner = dashboardClient(env.t.url, address());
    await owner.signIn(email, PASSWORD);
    const me = (await env.t.storage.users.listByEmail(email, 1))[0]!;
    const theirs = (await env.t.storage.users.listByEmail(await user('viewer', env.t.b.id), 1))[0]!;
    await owner.get('/dashboard/users');
    expect((await owner.post(`/dashboard/users/${me.id}/role`, { role: 'viewer' })).text).toContain('You cannot change your own role.');
    expect((await owner.post(`/dashboard/users/${me.id}/remove`)).text).toContain('You cannot remove yourself.');
    expect((await owner.post(`/dashboard/users/${theirs.id}/remove`)).status).toBe(400);
    expect((await owner.post(`/dashboard/users/${theirs.id}/role`, { role: 'owner' })).status).toBe(400);
    expect(await env.t.storage.users.get(env.t.b.id, theirs.id)).toEqual(theirs);
    expect((await env.t.storage.users.get(env.t.a.id, me.id))?.role).toBe('owner');
  });

  it('records key and user actions with who did them, shown newest first to owners', async () => {
    const p = await env.t.newPartner();
    const ownerEmail = await user('owner', p.id);
    const owner = dashboardClient(env.t.url, address());
    // Each action a second apart on the app's clock, so "newest first" has one answer.
    const tick = () => env.t.clock.set(Math.max(env.t.clock.now(), Date.now()) + 1000);
    tick();
    await owner.signIn(ownerEmail, PASSWORD);
    tick();
    await owner.get('/dashboard/keys');
    await owner.post('/dashboard/keys', { name: 'Audited', scope: 'wallet' });
    tick();
    const key = (await env.t.storage.apiKeys.listByPartner(p.id)).find((k) => k.name === 'Audited')!;
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
    expect(await openDashboard({ dashboard: false, temporaryPasswordHours: 72 }, pino({ level: 'silent' }))).toBeUndefined();
    const on = await openDashboard({ dashboard: true, temporaryPasswordHours: 72 }, pino({ level: 'silent' }));
    expect(on?.options.signInLimiters.perAccount).toBeDefined();
    await on?.close();
  });

  it('answers 404 at /dashboard when the app is built without it (DASHBOARD=off)', async () => {
    const off = await startTestApp(env.store);
    try {
      expect((await fetch(`${off.url}/dashboard`)).status).toBe(404);
      expect((await fetch(`${off.url}/dashboard/sign-in`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('dashboard account', () => {
  it('a user replaces a password after proving the current one; other sessions end, this one stays', async () => {
    const email = await user('viewer');
    const [here, elsewhere] = [dashboardClient(env.t.url, address()), dashboardClient(env.t.url, address())];
    await here.signIn(email, PASSWORD);
    await elsewhere.signIn(email, PASSWORD);
    await here.get('/dashboard/account');
    expect((await here.post('/dashboard/account/password', { current: 'not the password', next: 'a brand new passphrase' })).status).toBe(400);
    expect((await here.post('/dashboard/account/password', { current: PASSWORD, next: 'short' })).text).toContain('at least 12 characters');
    const done = await here.post('/dashboard/account/password', { current: PASSWORD, next: 'a brand new passphrase' });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Password changed');
    expect((await here.get('/dashboard/keys')).status).toBe(200);
    expect((await elsewhere.get('/dashboard/keys')).status).toBe(303);
    expect((await dashboardClient(env.t.url, address()).signIn(email, PASSWORD)).status).toBe(401);
    expect((await dashboardClient(env.t.url, address()).signIn(email, 'a brand new passphrase')).status).toBe(303);
  });
});
