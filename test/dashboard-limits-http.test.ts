import { describe, expect, it } from 'vitest';
import { dashboardClient } from '../server/dashboard/test-support/dashboard-client.ts';
import { PASSWORD, useDashboardApp } from './helpers/dashboard-app.ts';

/** Issue 30 items 5 and 6: password checks the limiters hold, and limiters one address cannot spend for others. */
const env = useDashboardApp();

describe('dashboard password throttles', () => {
  it('an address refused by its own limit takes no account token: the account’s owner still signs in', async () => {
    // Before: each refused attempt still took a token from the victim's account, locking its owner out (429).
    const victim = await env.user('viewer');
    const sprayer = env.address();
    for (let i = 0; i < 12; i++) await dashboardClient(env.t.url, sprayer).signIn(`spray-${i}-${Math.random()}@example.test`, 'whatever whatever');
    for (let i = 0; i < 8; i++) expect((await dashboardClient(env.t.url, sprayer).signIn(victim, 'wrong wrong wrong')).status).toBe(429);
    expect((await dashboardClient(env.t.url, env.address()).signIn(victim, PASSWORD)).status).toBe(303);
  });

  it('throttles the change-password form’s current-password check like sign-in (429 after 5 wrong)', async () => {
    // Before: 60 wrong current passwords answered 400 each, never 429.
    const email = await env.user('developer');
    const c = dashboardClient(env.t.url, env.address());
    expect((await c.signIn(email, PASSWORD)).status).toBe(303);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      await c.get('/dashboard/account');
      statuses.push((await c.post('/dashboard/account/password', { current: `wrong guess ${i}`, next: 'another long passphrase' })).status);
    }
    // Five tries per account, as sign-in has (a bucket of its own: typos here do not lock sign-in).
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    await c.get('/dashboard/account');
    const right = await c.post('/dashboard/account/password', { current: PASSWORD, next: 'another long passphrase' });
    expect(right.status).toBe(429);
    expect(right.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
