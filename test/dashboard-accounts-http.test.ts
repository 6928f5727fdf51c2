import { describe, expect, it } from 'vitest';
import { changePassword, createUser, OPERATOR } from '../server/domain/users/manage-users.ts';
import { newSession, DEFAULT_SESSION_POLICY } from '../server/domain/users/sessions.ts';
import { dashboardClient } from '../server/dashboard/test-support/dashboard-client.ts';
import { PASSWORD, useDashboardApp } from './helpers/dashboard-app.ts';

/**
 * Issue 30 item 5, dashboard accounts: an address is unique per partner (another partner's user
 * with it changes no answer, and sign-in finds the account whose password matches), and temporary
 * passwords end and are replaced before anything else.
 */
const env = useDashboardApp();
const { address, user, signedIn } = env;
const fresh = (tag: string) => `${tag}-${Math.random().toString(36).slice(2)}@example.test`;
const saltOf = (hash: string) => hash.split('$')[4];
const partnerName = async (id: string) => (await env.t.storage.partners.get(id))!.name;

async function invite(owner: Awaited<ReturnType<typeof signedIn>>, email: string, role = 'developer') {
  await owner.get('/dashboard/users');
  const r = await owner.post('/dashboard/users', { email, role });
  return { status: r.status, temp: /id="temp-password">([^<]+)</.exec(r.text)?.[1], error: /class="error"[^>]*>([^<]+)</.exec(r.text)?.[1] };
}

describe('dashboard accounts', () => {
  it('an owner invites an address another partner has a user for with the same answer as a new one; each account signs in with its own password', async () => {
    // Before: 400 "A user with this email already exists." for the address partner b had, 201 for a new one.
    const elsewhere = await user('viewer', env.t.b.id);
    const owner = await signedIn('owner');
    const [taken, unknown] = [await invite(owner, elsewhere), await invite(owner, fresh('new'))];
    expect([taken.status, taken.error, typeof taken.temp]).toEqual([201, undefined, 'string']);
    expect([unknown.status, unknown.error, typeof unknown.temp]).toEqual([taken.status, taken.error, typeof taken.temp]);
    // Only this partner's own users collide, and they are on its users page already.
    expect(await invite(owner, (await user('viewer')).toUpperCase())).toMatchObject({ status: 400, error: 'This partner already has a user with this email.' });

    const accounts = await env.t.storage.users.listByEmail(elsewhere, 10);
    expect(accounts.map((u) => u.partnerId).sort()).toEqual([env.t.b.id, env.t.a.id].sort());
    // One salt per address: sign-in derives one key whichever account (or none) it opens.
    expect(saltOf(accounts[1]!.passwordHash)).toBe(saltOf(accounts[0]!.passwordHash));

    const atA = dashboardClient(env.t.url, address());
    const inA = await atA.signIn(elsewhere, taken.temp!);
    expect([inA.status, inA.headers.get('location')]).toEqual([303, '/dashboard/account']);
    expect((await atA.get('/dashboard/account')).text).toContain(await partnerName(env.t.a.id));
    const atB = dashboardClient(env.t.url, address());
    expect((await atB.signIn(elsewhere, PASSWORD)).headers.get('location')).toBe('/dashboard/keys');
    expect((await atB.get('/dashboard/keys')).text).toContain(await partnerName(env.t.b.id));
    // A wrong password is one answer, whatever the address has.
    for (const email of [elsewhere, fresh('nobody')]) {
      const wrong = await dashboardClient(env.t.url, address()).signIn(email, 'not the password at all');
      expect([wrong.status, /Email or password is incorrect\./.test(wrong.text)]).toEqual([401, true]);
    }
  });

  it('the same password at two partners: the person chooses which to sign in to', async () => {
    const email = fresh('both');
    for (const partnerId of [env.t.a.id, env.t.b.id]) {
      expect((await createUser(env.t.storage, { partnerId, email, role: 'viewer', password: PASSWORD, actor: OPERATOR })).ok).toBe(true);
    }
    const c = dashboardClient(env.t.url, address());
    const choose = await c.signIn(email, PASSWORD);
    expect(choose.status).toBe(200);
    expect([...choose.text.matchAll(/data-partner="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual([env.t.a.id, env.t.b.id].sort());
    expect(choose.headers.get('cache-control')).toBe('no-store');
    const chosen = await c.post('/dashboard/sign-in', { email, password: PASSWORD, partner: env.t.b.id });
    expect(chosen.headers.get('location')).toBe('/dashboard/keys');
    expect((await c.get('/dashboard/keys')).text).toContain(await partnerName(env.t.b.id));
  });

  it('an invited user replaces the temporary password before anything else', async () => {
    // Before: the temporary password signed in to the keys page and never had to be changed.
    const owner = await signedIn('owner');
    const email = fresh('invitee');
    const { temp } = await invite(owner, email, 'owner');
    const them = dashboardClient(env.t.url, address());
    expect((await them.signIn(email, temp!)).headers.get('location')).toBe('/dashboard/account');
    for (const page of ['/dashboard/keys', '/dashboard/payments', '/dashboard/users', '/dashboard/settings']) {
      const r = await them.get(page);
      expect([page, r.status, r.headers.get('location')]).toEqual([page, 303, '/dashboard/account']);
    }
    const account = await them.get('/dashboard/account');
    expect(account.text).toContain('id="temporary-password"');
    expect((await them.post('/dashboard/keys', { name: 'Before changing', scope: 'partner' })).status).toBe(403);
    expect((await them.post('/dashboard/users', { email: fresh('x'), role: 'owner' })).status).toBe(403);
    expect((await env.t.storage.apiKeys.listByPartner(env.t.a.id)).some((k) => k.name === 'Before changing')).toBe(false);

    await them.get('/dashboard/account');
    const changed = await them.post('/dashboard/account/password', { current: temp!, next: 'chosen by the invitee' });
    expect([changed.status, changed.headers.get('location')]).toEqual([303, '/dashboard/keys']);
    expect((await them.get('/dashboard/keys')).status).toBe(200);
    const [stored] = (await env.t.storage.users.listByEmail(email, 1)).filter((u) => u.partnerId === env.t.a.id);
    expect(stored?.passwordExpiresAt).toBeUndefined();
    expect((await dashboardClient(env.t.url, address()).signIn(email, temp!)).status).toBe(401);
  });

  it('a temporary password ends after its age: no sign-in, no change of password with it; inviting again gives a new one', async () => {
    const owner = await signedIn('owner');
    const email = fresh('late');
    const { temp } = await invite(owner, email);
    const invited = (await env.t.storage.users.listByPartner(env.t.a.id)).find((u) => u.email === email);
    // 72 hours by default (TEMPORARY_PASSWORD_HOURS).
    expect(invited!.passwordExpiresAt!.getTime() - invited!.createdAt.getTime()).toBe(72 * 3_600_000);
    const before = env.t.clock.now();
    try {
      env.t.clock.set(invited!.passwordExpiresAt!.getTime() + 1000);
      // Before: 303, signed in.
      const late = await dashboardClient(env.t.url, address()).signIn(email, temp!);
      expect(late.status).toBe(401);
      expect(late.text).toContain('This temporary password has expired.');
      // A session begun before the end is no way around it.
      const now = new Date(env.t.clock.now());
      const { record } = newSession(invited!, now, DEFAULT_SESSION_POLICY);
      expect(await changePassword(env.t.storage, { user: invited!, current: temp!, next: 'too late for this one', keepSession: record, now })).toEqual({
        ok: false,
        problem: 'This temporary password has expired. Ask an owner of your partner to invite you again.',
      });
      // Invited again: a new temporary password (the old one stays dead), the users page says until when.
      const owner2 = await signedIn('owner');
      const again = await invite(owner2, email, 'viewer');
      expect([again.status, again.temp === temp]).toEqual([201, false]);
      expect((await owner2.get('/dashboard/users')).text).toMatch(new RegExp(`${email.replace(/[.]/g, '\\.')}<br><span class="muted" data-temporary>temporary password until`));
      const back = dashboardClient(env.t.url, address());
      expect((await back.signIn(email, again.temp!)).headers.get('location')).toBe('/dashboard/account');
      expect((await dashboardClient(env.t.url, address()).signIn(email, temp!)).status).toBe(401);
      expect((await env.t.storage.users.listByPartner(env.t.a.id)).filter((u) => u.email === email).map((u) => [u.id, u.role])).toEqual([[invited!.id, 'viewer']]);
    } finally {
      env.t.clock.set(before);
    }
  });
});
