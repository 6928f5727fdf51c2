import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { createPartner } from '../server/auth/provisioning.ts';
import { createManualClock } from '../server/ports/clock.ts';
import { createUser, OPERATOR } from '../server/domain/users/manage-users.ts';
import { launchBrowser } from '../server/pages/test-support/browser.ts';
import { storageBackends, type TestStorage } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { checkPage as check, watchedPage } from './helpers/dashboard-browser.ts';

/**
 * The dashboard in Debian's chromium against the whole app on PostgreSQL: sign in (a wrong
 * password refused, then throttled), create a key and read it once, call the API with it, revoke
 * it (the API answers 401), a viewer without the create button whose POST is refused, a form with
 * a forged CSRF token refused, and the audit log showing it all. Every page is checked for console
 * errors, CSP violations, requests leaving the service and axe-core's serious or critical
 * accessibility violations, and photographed at phone and desktop width into
 * docs/screenshots/dashboard/.
 */
const PASSWORD = 'correct horse battery staple';
const OWNER = 'owner@acme.example';
const VIEWER = 'viewer@acme.example';

let store: TestStorage & { dispose(): Promise<void> };
let t: TestApp;
let browser: Browser;
let partnerId = '';
const limiterClock = createManualClock(Date.now());

beforeAll(async () => {
  const backends = await storageBackends();
  store = await backends[backends.length - 1]!.open();
  t = await startTestApp(store, {
    dashboard: {
      signInLimiters: {
        perAccount: createMemoryRateLimiter({ perSecond: 1 / 60, burst: 4 }, limiterClock),
        perAddress: createMemoryRateLimiter({ perSecond: 1, burst: 100 }, limiterClock),
      },
    },
  });
  const acme = await createPartner(t.storage, { name: 'Acme Payments', version: '2026-02-18', live: false });
  partnerId = acme.partner.id;
  for (const [email, role] of [
    [OWNER, 'owner'],
    [VIEWER, 'viewer'],
  ] as const) {
    // Before anything the app's (manual) clock stamps, as in a real first start.
    const made = await createUser(t.storage, { partnerId, email, role, password: PASSWORD, actor: OPERATOR, now: new Date(t.clock.now() - 60_000) });
    if (!made.ok) throw new Error(made.problem);
  }
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await store?.dispose();
});

// A page answered with an error status (401, 403, 429) is expected in these steps; the browser
// reports each as a failed load. Anything else (a CSP violation, a script error) is not.
const open = () => watchedPage(browser, t.url, { expectedErrorStatuses: [401, 403, 429] });

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${t.url}/dashboard/sign-in`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  return Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]).then(([r]) => r);
}

describe('partner dashboard in chromium', () => {
  it('signs in, makes and revokes a key the API then refuses, keeps a viewer read-only, refuses a forged form, and logs it all', async () => {
    const owner = await open();
    const { page } = owner;

    // Sign in: a wrong password is refused with the generic message, then the account is throttled.
    await page.goto(`${t.url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await check(owner, 'sign-in');
    expect((await signIn(page, OWNER, 'not my password at all'))?.status()).toBe(401);
    expect(await page.textContent('[role=alert]')).toBe('Email or password is incorrect.');
    await check(owner, 'sign-in-refused');
    for (let i = 0; i < 3; i++) await signIn(page, OWNER, 'still not my password');
    expect((await signIn(page, OWNER, PASSWORD))?.status()).toBe(429);
    expect(await page.textContent('[role=alert]')).toMatch(/Too many sign-in attempts/);
    await check(owner, 'sign-in-throttled');
    limiterClock.advance(10 * 60_000);
    expect((await signIn(page, OWNER, PASSWORD))?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/dashboard/keys');
    await check(owner, 'keys');

    // Create a key, read it once, call the API with it. (The app's clock is manual: moved a second
    // per audited step, so the log's newest-first order has one answer.)
    t.clock.advance(1000);
    await page.fill('#key-name', 'Checkout server');
    await page.selectOption('#key-scope', 'partner');
    await Promise.all([page.waitForNavigation(), page.click('#create-key')]);
    const apiKey = (await page.textContent('#new-key-value'))!;
    expect(apiKey).toMatch(/^sk_test_[A-Za-z0-9_-]{32}$/);
    await page.click('[data-copy]');
    await expect.poll(() => page.textContent('#copy-status')).not.toBe('');
    await check(owner, 'key-created');
    expect((await t.call('GET', '/v1/merchants', { key: apiKey })).status).toBe(200);
    await page.goto(`${t.url}/dashboard/keys`);
    expect(await page.content()).not.toContain(apiKey);

    // Revoke it: this process's API forgets the key at once (no wait for its key cache's 1 s trust).
    const row = page.locator('tr', { hasText: 'Checkout server' });
    t.clock.advance(500); // still inside the 1 s the cache trusts the key it read for the call above
    await Promise.all([page.waitForNavigation(), row.locator('button', { hasText: 'Revoke' }).click()]);
    expect(await page.textContent('[role=status]')).toMatch(/revoked\. The API refuses it at once on this server, and within a second on any other/);
    expect(await row.textContent()).toMatch(/Revoked/);
    await check(owner, 'key-revoked');
    expect(await t.call('GET', '/v1/merchants', { key: apiKey })).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });

    // A form whose CSRF token was tampered with is refused.
    await page.goto(`${t.url}/dashboard/keys`);
    await page.fill('#key-name', 'Forged');
    await page.evaluate(() => document.querySelectorAll<HTMLInputElement>('input[name=_csrf]').forEach((i) => (i.value = 'forged-token')));
    const forged = await Promise.all([page.waitForNavigation(), page.click('#create-key')]).then(([r]) => r);
    expect(forged?.status()).toBe(403);
    await check(owner, 'csrf-refused');
    expect((await t.storage.apiKeys.listByPartner(partnerId)).some((k) => k.name === 'Forged')).toBe(false);

    await page.goto(`${t.url}/dashboard/users`);
    await check(owner, 'users');
    await page.goto(`${t.url}/dashboard/account`);
    await check(owner, 'account');

    // A viewer: no create button, and the POST (same origin, its own valid token) is refused.
    const viewer = await open();
    t.clock.advance(1000);
    expect((await signIn(viewer.page, VIEWER, PASSWORD))?.status()).toBe(200);
    expect(await viewer.page.locator('#create-key').count()).toBe(0);
    expect(await viewer.page.locator('button', { hasText: 'Revoke' }).count()).toBe(0);
    await check(viewer, 'keys-viewer');
    const refused = await viewer.page.evaluate(async () => {
      const csrf = document.querySelector<HTMLInputElement>('input[name=_csrf]')!.value;
      const r = await fetch('/dashboard/keys', { method: 'POST', body: new URLSearchParams({ _csrf: csrf, name: 'sneaky', scope: 'partner' }) });
      return r.status;
    });
    expect(refused).toBe(403);
    expect((await t.storage.apiKeys.listByPartner(partnerId)).some((k) => k.name === 'sneaky')).toBe(false);
    viewer.problems.length = 0; // the refused fetch's 403 is the point of the step
    await viewer.context.close();

    // The audit log shows each of these, newest first.
    await page.goto(`${t.url}/dashboard/audit`);
    const actions = await page
      .locator('tr[data-action]')
      .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-action')} ${r.querySelector('td[data-label=Who]')!.textContent.split(' ')[0]}`));
    expect(actions).toEqual([
      `session.sign_in ${VIEWER}`,
      `api_key.revoke ${OWNER}`,
      `api_key.create ${OWNER}`,
      `session.sign_in ${OWNER}`,
      'user.create server',
      'user.create server',
    ]);
    await check(owner, 'audit');
    await owner.context.close();
  }, 180_000);
});
