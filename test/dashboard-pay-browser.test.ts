import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { Wallet } from 'ethers';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { createUser, OPERATOR } from '../server/domain/users/manage-users.ts';
import { launchBrowser } from '../server/pages/test-support/browser.ts';
import { systemClock } from '../server/ports/clock.ts';
import { signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import { checkPage, watchedPage } from './helpers/dashboard-browser.ts';

/**
 * The dashboard's merchants and payments in Debian's chromium, on the sandbox chains: create a
 * merchant and its settlement, a payment made through the API appears with its timeline once a
 * sandbox wallet pays it, refund it, export the CSV and parse it. Every page is checked for
 * console errors, CSP violations, foreign requests and serious axe violations, and photographed
 * at 1280×800 and 390×844 into docs/screenshots/dashboard/.
 */
const PASSWORD = 'correct horse battery staple';
const OWNER = 'pay-owner@acme.example';

let env: GatewayEnv;
let browser: Browser;

beforeAll(async () => {
  env = await startGatewayEnv({
    dashboard: {
      signInLimiters: {
        perAccount: createMemoryRateLimiter({ perSecond: 1, burst: 20 }, systemClock),
        perAddress: createMemoryRateLimiter({ perSecond: 1, burst: 20 }, systemClock),
      },
    },
  });
  const made = await createUser(env.t.storage, { partnerId: env.t.a.id, email: OWNER, role: 'owner', password: PASSWORD, actor: OPERATOR });
  if (!made.ok) throw new Error(made.problem);
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await env?.close();
});

describe('dashboard merchants and payments in chromium', () => {
  it('creates a merchant and settlement, sees a sandbox-paid payment with its timeline, refunds it, exports CSV', async () => {
    const { t, chains } = env;
    const usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
    const w = await watchedPage(browser, t.url, { acceptDownloads: true });
    const { page } = w;

    await page.goto(`${t.url}/dashboard/sign-in`);
    await page.fill('#email', OWNER);
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);

    // A merchant and its settlement, made in the pages.
    await page.goto(`${t.url}/dashboard/merchants`);
    await page.fill('#new-name', 'Corner Café');
    await page.fill('#new-email', 'hello@corner.example');
    await Promise.all([page.waitForNavigation(), page.click('#create-merchant')]);
    const merchantId = /mrch_[0-9A-Z]{26}/.exec(page.url())![0];
    expect(await page.textContent('[role=status]')).toBe('Merchant created.');
    const destination = Wallet.createRandom().address;
    await page.selectOption('#st-asset', usdc);
    await page.fill('#st-dest', `eip155:31337:${destination}`);
    await Promise.all([page.waitForNavigation(), page.click('#add-settlement')]);
    expect(await page.locator('tr[data-settlement-id]').count()).toBe(1);
    await checkPage(w, 'merchant');
    await page.goto(`${t.url}/dashboard/merchants`);
    await checkPage(w, 'merchants');

    // A payment through the API, paid by a sandbox wallet (EIP-3009: one signature, the relayer submits).
    const created = await t.call('POST', '/v1/payments', {
      key: t.a.key,
      headers: { 'Merchant-Id': merchantId },
      body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: '=cmd|calc' },
    });
    expect(created.status).toBe(201);
    const paymentId = created.body.paymentId as string;
    const wallet = Wallet.createRandom();
    await chains.evm.fund(wallet.address, usdc.split(':').pop()!, 20_000_000n);
    const opts = await t.call('POST', `/v1/gateway/payment/${paymentId}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${wallet.address}`] } });
    const option = opts.body.options[0];
    const signature = await signTypedDataParams(wallet, option.actions[0].data.params);
    const paid = await t.call('POST', `/v1/gateway/payment/${paymentId}/confirm?maxPollMs=20000`, {
      key: t.a.walletKey,
      body: { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] },
    });
    expect(paid.body.status).toBe('succeeded');

    await page.goto(`${t.url}/dashboard/payments`);
    expect(await page.locator(`tr[data-payment-id="${paymentId}"]`).count()).toBe(1);
    await checkPage(w, 'payments');
    await Promise.all([page.waitForNavigation(), page.click(`tr[data-payment-id="${paymentId}"] a`)]);
    expect(await page.locator('li[data-event]').evaluateAll((li) => li.map((l) => l.getAttribute('data-event')))).toEqual(
      expect.arrayContaining(['payment.created', 'payment.succeeded']),
    );
    expect(await page.textContent('#buyer')).toContain(wallet.address);
    expect(await page.textContent('#tx')).toMatch(/0x[0-9a-f]{64}/);
    await checkPage(w, 'payment');

    // Refund it (the confirmation is accepted), then the timeline has the refund.
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Mark refunded")')]);
    expect(await page.textContent('[role=status]')).toMatch(/Payment marked refunded/);
    expect(await page.locator('li[data-event="payment.refunded"]').count()).toBe(1);
    await checkPage(w, 'payment-refunded');

    // Export the list and parse it: the payment is there, its formula-like reference neutralised.
    await page.goto(`${t.url}/dashboard/payments`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
    const rows: string[][] = parse(readFileSync(await download.path(), 'utf8'));
    const row = rows.find((r) => r[0] === paymentId)!;
    expect(row[1]).toBe("'=cmd|calc");
    expect(row[5]).toBe('yes');
    await w.context.close();
  }, 180_000);
});
