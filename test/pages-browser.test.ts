import { Wallet } from 'ethers';
import type { RequestHandler } from 'express';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxChains, createSandboxRouter, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { desktopPage, launchBrowser, phonePage } from '../server/pages/test-support/browser.ts';
import { payOnSandbox } from '../tools/demo-wallet/pay.ts';
import { startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * The payment page in Debian's chromium, on a phone-sized screen, against the whole service on
 * the sandbox chains: a demo wallet pays while the page is open and the page follows the payment
 * to succeeded (then the preview checkout redirect); an expiring link counts down to expired; an
 * unknown id shows the 404 page. Every page must load without script errors, CSP violations or
 * requests outside the service. Screenshots land in test-results/pages/.
 */
const LOGO_ORIGIN = 'https://logo.example.test';
/** A wide two-colour logo: center-cropping to a square keeps the middle (red) band only. */
const WIDE_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100"><rect width="300" height="100" fill="#2a6"/><rect x="100" width="100" height="100" fill="#c33"/></svg>`;

let chains: SandboxChains;
let env: GatewayEnv;
let browser: Browser;
let usdc = '';

beforeAll(async () => {
  chains = await createSandboxChains();
  const holder: { routes?: RequestHandler } = {};
  env = await startGatewayEnv({ chains, extraRoutes: (req, res, next) => (holder.routes ? holder.routes(req, res, next) : next()) });
  holder.routes = createSandboxRouter(chains, { publicBaseUrl: env.t.url });
  usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155:'))!.id;
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await env?.close();
  await chains?.close();
});

async function newPayment(opts: { expiresAt?: number | null; checkout?: { successUrl: string; errorUrl: string }; iconUrl?: string } = {}) {
  const { t } = env;
  const m = await t.call('POST', '/v1/merchants', {
    key: t.a.key,
    headers: { 'Idempotency-Key': `pm-${Math.random()}` },
    body: { merchantName: 'Corner Coffee Roasters', merchantEmail: 'hi@coffee.test', ...(opts.iconUrl ? { iconUrl: opts.iconUrl } : {}) },
  });
  const merchantId = m.body.merchant.id as string;
  const destination = `${usdc.split('/')[0]}:${Wallet.createRandom().address}`;
  await t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
    key: t.a.key,
    headers: { 'Idempotency-Key': `ps-${Math.random()}` },
    body: { settlements: [{ asset: usdc, destination }] },
  });
  const p = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId, ...(opts.checkout ? { 'Svc-Version': '2026-02-19.preview' } : {}) },
    body: {
      amount: { unit: 'iso4217/USD', value: '1050' },
      referenceId: `b-${Math.random()}`,
      expiresAt: opts.expiresAt ?? null,
      ...(opts.checkout ? { checkout: opts.checkout } : {}),
    },
  });
  expect(p.status).toBe(201);
  return p.body.paymentId as string;
}

describe('payment page in chromium', () => {
  it('follows a sandbox wallet payment from requires_action to succeeded, then the checkout redirect', async () => {
    const successUrl = `${env.t.url}/healthz?paid=1`;
    const id = await newPayment({ checkout: { successUrl, errorUrl: `${env.t.url}/healthz?failed=1` }, iconUrl: `${LOGO_ORIGIN}/wide.svg` });
    const w = await phonePage(browser, env.t.url, [LOGO_ORIGIN]);
    await w.page.route(`${LOGO_ORIGIN}/**`, (route) => route.fulfill({ contentType: 'image/svg+xml', body: WIDE_LOGO }));
    await w.page.goto(`${env.t.url}/${id}`);
    await expect.poll(() => w.page.locator('#status-title').textContent()).toBe('Waiting for payment');
    expect(await w.page.locator('h1').textContent()).toBe('Corner Coffee Roasters');
    expect(await w.page.locator('.amount').textContent()).toBe('$10.50');
    expect(await w.page.locator('.accepted').textContent()).toBe('USDC on Sandbox EVM');
    expect(await w.page.locator('.qr svg').isVisible()).toBe(true);
    expect(await w.page.locator('#wallet-link').getAttribute('href')).toBe(`https://pay.example.test/${id}`);
    // The countdown runs: it reads m:ss and changes.
    const first = await w.page.locator('#countdown').textContent();
    expect(first).toMatch(/^[45]:\d\d$/);
    await expect.poll(() => w.page.locator('#countdown').textContent(), { timeout: 3000 }).not.toBe(first);
    const logo = await w.page.locator('img.logo').boundingBox();
    expect(logo).toMatchObject({ width: 64, height: 64 });
    await w.shot('payment-requires-action');

    const paid = payOnSandbox({ paymentId: id, baseUrl: env.t.url, apiKey: env.t.a.walletKey, maxPollMs: 0, timeoutMs: 60_000 }, () => {});
    // The first poll after confirm usually catches processing; the page must end at succeeded.
    await expect.poll(() => w.page.locator('#payment').getAttribute('data-status'), { timeout: 30_000, interval: 100 }).not.toBe('requires_action');
    await w.shot('payment-after-confirm');
    expect((await paid).status).toBe('succeeded');
    await expect.poll(() => w.page.locator('#status-title').textContent(), { timeout: 15_000 }).toBe('Paid');
    expect(await w.page.locator('.qr').isVisible()).toBe(false);
    await w.shot('payment-succeeded');
    await w.page.waitForURL(successUrl, { timeout: 10_000 });
    expect(w.problems).toEqual([]);
    expect(w.foreign).toEqual([]);
  }, 120_000);

  it('an expiring link counts down and shows expired', async () => {
    // 10 s: long enough that a loaded machine still opens the page before expiry (4 s was not, under CI load).
    const id = await newPayment({ expiresAt: Math.floor(Date.now() / 1000) + 10 });
    const w = await phonePage(browser, env.t.url);
    await w.page.goto(`${env.t.url}/?pid=${id}`);
    expect(await w.page.locator('#payment').getAttribute('data-status')).toBe('requires_action');
    await expect.poll(() => w.page.locator('#status-title').textContent(), { timeout: 25_000 }).toBe('This payment link has expired');
    expect(await w.page.locator('#countdown').isVisible()).toBe(false);
    await w.shot('payment-expired');
    expect(w.problems).toEqual([]);
  }, 45_000);

  it('an unknown id shows the not-found page with a 404', async () => {
    const w = await phonePage(browser, env.t.url);
    const res = await w.page.goto(`${env.t.url}/pay_00000000000000000000000000`);
    expect(res?.status()).toBe(404);
    expect(await w.page.locator('h1').textContent()).toBe('Payment not found');
    await w.shot('payment-not-found');
    // The one console error is the document's own 404.
    expect(w.problems).toEqual(['Failed to load resource: the server responded with a status of 404 (Not Found)']);
  });

  it('the API reference: Redoc from this service renders markdown, every operation and its examples, with no CDN or error', async () => {
    const w = await desktopPage(browser, env.t.url);
    await w.page.goto(`${env.t.url}/docs`);
    await w.shot('docs-index');
    await w.page.getByRole('link', { name: '2026-02-18' }).first().click();
    await expect.poll(() => w.page.locator('[data-section-id^="operation/"]').count(), { timeout: 30_000 }).toBeGreaterThan(30);
    expect(await w.page.locator('h1').first().textContent()).toContain('Merchant Payments Service');
    // Markdown rendered, not shown raw: the Payments tag's `gatewayUrl` is code.
    expect(await w.page.locator('code', { hasText: 'gatewayUrl' }).count()).toBeGreaterThan(0);
    // Partner operations first: the first tag in the menu is Merchants, the gateway last.
    const menu = await w.page.locator('[data-item-id^="tag/"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-item-id')));
    expect(menu.filter((id) => /^tag\/[^/]+$/.test(id ?? ''))).toEqual(['tag/Merchants', 'tag/Settlements', 'tag/Payments', 'tag/Refunds', 'tag/Webhooks', 'tag/Gateway']);
    await w.shot('docs-version', { fullPage: false });
    await w.page.locator('[data-section-id="operation/createPayment"]').scrollIntoViewIfNeeded();
    // The operation's request and response examples from the TypeSpec.
    await expect.poll(() => w.page.locator('[data-section-id="operation/createPayment"]').textContent()).toContain('order-1042');
    await w.shot('docs-create-payment', { fullPage: false });
    expect(w.problems).toEqual([]);
    expect(w.foreign).toEqual([]);
  }, 90_000);
});
