import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Wallet, type HDNodeWallet } from 'ethers';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { launchBrowser, phonePage } from '../server/pages/test-support/browser.ts';
import { signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * The data-collection page in Debian's chromium, as a wallet's web view shows it: test bridges
 * stand in for React Native's WebView and iOS's message handler, and an iframe for a web host
 * (window.parent). The form rejects missing fields in the page, accepts a valid submission,
 * emits IC_COMPLETE everywhere, honours ?prefill=, and the wallet's confirm then succeeds
 * without collectedData. Screenshots land in test-results/pages/.
 */
let chains: SandboxChains;
let env: GatewayEnv;
let browser: Browser;
let usdc = '';

beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({ chains });
  usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await env?.close();
  await chains?.close();
});

/** What a wallet's host bridges receive, recorded in the page under test. */
const BRIDGES = `
  window.__bridge = [];
  window.ReactNativeWebView = { postMessage: (m) => window.__bridge.push(['react-native', m]) };
  window.webkit = { messageHandlers: { icBridge: { postMessage: (m) => window.__bridge.push(['webkit', JSON.stringify(m)]) } } };
  window.addEventListener('message', (e) => window.__bridge.push(['parent', JSON.stringify(e.data)]));
`;
const bridged = (page: Page) => page.evaluate(() => (window as unknown as { __bridge: Array<[string, string]> }).__bridge);

/** A payment whose only option needs data, its option, and a funded buyer. */
async function optionNeedingData(): Promise<{ id: string; option: any; wallet: HDNodeWallet; url: string }> {
  const { t } = env;
  const m = await t.call('POST', '/v1/merchants', {
    key: t.a.key,
    headers: { 'Idempotency-Key': `bm-${Math.random()}` },
    body: { merchantName: 'Atlas Travel', merchantEmail: 'a@t.test', dataCollection: { minAmount: null } },
  });
  const merchantId = m.body.merchant.id as string;
  await t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
    key: t.a.key,
    headers: { 'Idempotency-Key': `bs-${Math.random()}` },
    body: { settlements: [{ asset: usdc, destination: `eip155:31337:${Wallet.createRandom().address}` }] },
  });
  const p = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '25000' }, referenceId: `bd-${Math.random()}` },
  });
  const wallet = Wallet.createRandom().connect(chains.evm.ethersProvider);
  await chains.evm.fund(wallet.address, usdc.split(':').pop()!, 500_000_000n);
  const o = await t.call('POST', `/v1/gateway/payment/${p.body.paymentId}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${wallet.address}`] } });
  const option = o.body.options[0];
  return { id: p.body.paymentId, option, wallet, url: env.t.url + new URL(option.collectData.url).pathname };
}

const confirm = async (id: string, wallet: HDNodeWallet, option: any) =>
  env.t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=20000`, {
    key: env.t.a.walletKey,
    body: { optionId: option.id, results: [{ type: 'walletRpc', data: [await signTypedDataParams(wallet, option.actions[0].data.params)] }] },
  });

describe('data-collection page in chromium', () => {
  it('rejects missing fields, accepts a valid submission, emits IC_COMPLETE; confirm then needs no collectedData', async () => {
    const { id, option, wallet, url } = await optionNeedingData();
    const w = await phonePage(browser, env.t.url);
    await w.page.addInitScript(BRIDGES);
    await w.page.goto(url);
    expect(await w.page.locator('h1').textContent()).toBe('Buyer information');
    await w.shot('collect-empty');

    await w.page.getByRole('button', { name: 'Continue' }).click();
    expect(await w.page.getByRole('alert').first().textContent()).toBe('Please correct the highlighted fields.');
    expect(await w.page.locator('[aria-invalid="true"]').count()).toBe(4);
    expect(await w.page.locator('#group-any-error').textContent()).toBe('Please give at least one of these.');
    expect(await w.page.evaluate(() => document.activeElement?.id)).toBe('f-fullName');
    await w.shot('collect-missing-fields');
    expect(await bridged(w.page)).toEqual([]);

    await w.page.getByLabel('Full name').fill('Grace Hopper');
    await w.page.getByLabel('Date of birth').fill('1986-12-09');
    await w.page.getByLabel('Country of residence (ISO code, e.g. DE)').fill('US');
    await w.page.getByLabel('Phone (international, e.g. +4915112345678)').fill('12345');
    await w.page.getByRole('button', { name: 'Continue' }).click();
    expect(await w.page.locator('#f-phone-error').textContent()).toMatch(/^Please check the format/);
    await w.page.getByLabel('Phone (international, e.g. +4915112345678)').fill('+12025550123');
    await w.page.getByLabel(/I accept the terms/).check();
    await w.page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => w.page.locator('#done').isVisible()).toBe(true);
    await w.shot('collect-complete');
    await expect
      .poll(() => bridged(w.page))
      .toEqual([
        ['react-native', '{"type":"IC_COMPLETE"}'],
        ['webkit', '{"type":"IC_COMPLETE"}'],
      ]);
    const quote = await env.t.storage.quotes.get(id, option.id);
    expect(quote?.collected).toMatchObject({ data: { fullName: 'Grace Hopper', phone: '+12025550123', termsAccepted: true }, termsAcceptedAt: expect.any(Date) });
    expect(await confirm(id, wallet, option)).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(w.problems).toEqual([]);
    expect(w.foreign).toEqual([]);
  }, 90_000);

  it('in an iframe: ?prefill= fills the form (never the terms) and IC_COMPLETE reaches window.parent', async () => {
    const { url } = await optionNeedingData();
    const prefill = Buffer.from(JSON.stringify({ fullName: 'Zoë Ångström', dateOfBirth: '1979-03-14', country: 'SE', email: 'zoe@example.se', termsAccepted: true })).toString(
      'base64',
    );
    // The host is a page of another origin, served from loopback like the service (Chrome keeps
    // pages that are not local from framing a loopback service).
    const hostPage = `<h1>Wallet host</h1><iframe title="form" src="${url}?prefill=${encodeURIComponent(prefill)}" width="370" height="900"></iframe>`;
    const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(hostPage));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const w = await phonePage(browser, env.t.url, [host]);
    await w.page.addInitScript(`if (window === window.top) { ${BRIDGES} }`);
    await w.page.goto(`${host}/checkout`);
    const frame = w.page.frameLocator('iframe');
    await expect.poll(() => frame.getByLabel('Full name').inputValue(), { timeout: 10_000 }).toBe('Zoë Ångström');
    expect(await frame.getByLabel('Email').inputValue()).toBe('zoe@example.se');
    expect(await frame.getByLabel(/I accept the terms/).isChecked()).toBe(false);
    await w.shot('collect-prefilled');
    // By keyboard: a pointer click inside the frame can land on the host page's body when the
    // frame sits partly below the fold, and a web-view form must work from the keyboard anyway.
    const terms = frame.getByLabel(/I accept the terms/);
    await terms.focus();
    await terms.press('Space');
    expect(await terms.isChecked()).toBe(true);
    await frame.getByRole('button', { name: 'Continue' }).press('Enter');
    await expect.poll(() => bridged(w.page)).toEqual([['parent', '{"type":"IC_COMPLETE"}']]);
    await w.shot('collect-iframe-complete');
    expect(w.problems).toEqual([]);
    server.close();
  }, 90_000);

  it('a dead link signals IC_ERROR with the reason', async () => {
    const w = await phonePage(browser, env.t.url);
    await w.page.addInitScript(BRIDGES);
    const res = await w.page.goto(`${env.t.url}/collect/e30.AAAA`);
    expect(res?.status()).toBe(404);
    await expect
      .poll(() => bridged(w.page))
      .toEqual([
        ['react-native', '{"type":"IC_ERROR","reason":"invalid_link"}'],
        ['webkit', '{"type":"IC_ERROR","reason":"invalid_link"}'],
      ]);
    await w.shot('collect-invalid-link');
  });
});
