import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { createInlineQueue } from '../adapters/queue/inline/index.ts';
import { createPartner } from '../server/auth/provisioning.ts';
import { systemClock } from '../server/ports/clock.ts';
import { createUser, OPERATOR } from '../server/domain/users/manage-users.ts';
import { launchBrowser } from '../server/pages/test-support/browser.ts';
import { storageBackends } from './helpers/backends.ts';
import type { TestApp } from './helpers/test-app.ts';
import { checkPage as check, watchedPage } from './helpers/dashboard-browser.ts';
import { eventually, startReceiver, startWebhookStack } from './webhooks-support.ts';

/**
 * The webhook pages in Debian's chromium, with the delivery path running and a real receiver on
 * 127.0.0.1: add an endpoint (its secret shown once), send a test event and see the delivery in
 * the endpoint's log with the receiver's status, then the audit log naming it. Every page is
 * checked for console errors, CSP violations, requests leaving the service and axe-core's
 * serious or critical violations, and photographed at phone and desktop width.
 */
const PASSWORD = 'correct horse battery staple';
const OWNER = 'hooks-owner@acme.example';

let t: TestApp;
let stack: Awaited<ReturnType<typeof startWebhookStack>>;
let dispose: () => Promise<void>;
let browser: Browser;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  const backends = await storageBackends();
  const storage = await backends[backends.length - 1]!.open();
  dispose = storage.dispose;
  const limiter = () => createMemoryRateLimiter({ perSecond: 1, burst: 50 }, systemClock);
  stack = await startWebhookStack(storage, {
    queue: createInlineQueue({ clock: systemClock }),
    schedule: [0, 300],
    concurrency: 2,
    app: { dashboard: { signInLimiters: { perAccount: limiter(), perAddress: limiter() } } },
  });
  t = stack.t;
  const acme = await createPartner(t.storage, { name: 'Acme Payments', version: '2026-02-18', live: false });
  const made = await createUser(t.storage, { partnerId: acme.partner.id, email: OWNER, role: 'owner', password: PASSWORD, actor: OPERATOR });
  if (!made.ok) throw new Error(made.problem);
  receiver = await startReceiver();
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.stop();
  await stack?.close();
  await dispose?.();
});

it('adds an endpoint, reads its secret once, sends a test event and sees the delivery, then the settings and the audit log', async () => {
  const w = await watchedPage(browser, t.url);
  const { page } = w;
  await page.goto(`${t.url}/dashboard/sign-in`);
  await page.fill('#email', OWNER);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);

  await page.goto(`${t.url}/dashboard/webhooks`);
  expect(await page.textContent('main')).toContain('No endpoints yet.');
  await check(w, 'webhooks');
  await page.fill('#hook-url', receiver.url('/acme'));
  await page.check('input[name=events][value="payment.refunded"]');
  await Promise.all([page.waitForNavigation(), page.click('#create-endpoint')]);
  const secret = (await page.textContent('#new-secret-value'))!;
  expect(secret).toMatch(/^whsec_/);
  await check(w, 'webhook-secret');

  await Promise.all([page.waitForNavigation(), page.click('text=Done, see the endpoint')]);
  expect(await page.content()).not.toContain(secret);
  await Promise.all([page.waitForNavigation(), page.click('button:has-text("Send a test event")')]);
  expect(await page.textContent('[role=status]')).toContain('Test event queued');
  expect(await eventually(() => receiver.received.length >= 1)).toBe(true);
  expect(
    await eventually(async () => {
      await page.reload();
      return (await page.locator('tr[data-status="delivered"]').count()) === 1;
    }),
  ).toBe(true);
  expect(await page.textContent('tr[data-status="delivered"]')).toContain('HTTP 200');
  await check(w, 'webhook-endpoint');

  await page.goto(`${t.url}/dashboard/settings`);
  expect(await page.textContent('#pinned-version')).toBe('2026-02-18');
  await page.fill('#zone', 'Europe/Berlin');
  await Promise.all([page.waitForNavigation(), page.click('#save-zone')]);
  expect(await page.textContent('[role=status]')).toContain('Time zone saved.');
  await check(w, 'settings');

  await page.goto(`${t.url}/dashboard/audit`);
  expect(await page.locator('tr[data-action="webhook_endpoint.create"]').count()).toBe(1);
  expect(await page.textContent('tr[data-action="webhook_endpoint.create"]')).toContain(OWNER);
  expect(await page.locator('tr[data-action="settings.time_zone"]').count()).toBe(1);
  await check(w, 'webhooks-audit');
  await w.context.close();
}, 120_000);
