import { Keypair } from '@solana/web3.js';
import type { RequestHandler } from 'express';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxWalletChains } from '../server/composition/chains.ts';
import { createSandboxChains, createSandboxRouter, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { launchBrowser } from '../server/pages/test-support/browser.ts';
import { sandboxMerchant, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import { checkAndShoot, gateMethod, installWallets, testEvmWallet, testSolanaWallet, type TestEvmWallet, type TestSolanaWallet } from './helpers/wallet-page-browser.ts';

/**
 * "Pay with a browser wallet" on the payment page, in Debian's chromium under the page's real CSP,
 * against the whole service on the sandbox chains. The wallets are injected into the page with
 * their keys held by the test (helpers/wallet-page-browser.ts); each payment must end `succeeded`
 * with the merchant's balance up by exactly the amount, and every failure must leave it untouched.
 */
let chains: SandboxChains;
let env: GatewayEnv;
let browser: Browser;
const AMOUNT = 10_500_000n; // $10.50 in a 6-decimal USD token

beforeAll(async () => {
  chains = await createSandboxChains();
  const holder: { routes?: RequestHandler } = {};
  env = await startGatewayEnv({
    chains,
    extraRoutes: (req, res, next) => (holder.routes ? holder.routes(req, res, next) : next()),
    walletChains: sandboxWalletChains(chains, 'http://127.0.0.1:1'),
  });
  holder.routes = createSandboxRouter(chains, { publicBaseUrl: env.t.url });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await env?.close();
  await chains?.close();
});

const evmAsset = (symbol: string) => chains.evm.assets.find((a) => a.symbol === symbol)!;

async function newPayment(merchantId: string): Promise<string> {
  const p = await env.t.call('POST', '/v1/payments', {
    key: env.t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `w-${Math.random()}` },
  });
  expect(p.status).toBe(201);
  return p.body.paymentId as string;
}

/** A merchant settled in one sandbox EVM token, a payment, and a buyer funded with `tokens` of it (and gas). */
async function evmCase(symbol: string, tokens = AMOUNT, knownChains = [1, chains.evm.chainId]) {
  const asset = evmAsset(symbol);
  const { merchantId, destination } = await sandboxMerchant(env.t, [asset.caip19]);
  const id = await newPayment(merchantId);
  const wallet = testEvmWallet(chains, knownChains);
  if (tokens) await chains.evm.fund(wallet.wallet.address, asset.address, tokens);
  await chains.evm.fund(wallet.wallet.address, null, 10n ** 17n);
  const merchantBalance = () => chains.evm.balanceOf(destination, asset.address);
  return { id, wallet, destination, merchantBalance, buyerBalance: () => chains.evm.balanceOf(wallet.wallet.address, asset.address) };
}

interface Opened {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

async function openPage(id: string, wallets: { evm?: TestEvmWallet; solana?: TestSolanaWallet }): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
  await installWallets(context, chains, wallets);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) problems.push(m.text());
  });
  await page.goto(`${env.t.url}/${id}`);
  return { context, page, problems };
}

const walletButton = (page: Page, name: string) => page.getByRole('button', { name: `Pay with ${name}` });
const message = (page: Page) => page.locator('#bw-message');
/** The payment's status as the service has it (the page's public state). */
const paymentStatus = async (id: string) => ((await (await fetch(`${env.t.url}/${id}/state`)).json()) as { status: string }).status;

async function payWith(page: Page, name: string): Promise<void> {
  await walletButton(page, name).click();
  await expect.poll(() => page.locator('#bw-review').isVisible(), { timeout: 15_000 }).toBe(true);
  await page.locator('#bw-pay').click();
}

async function expectPaid(o: Opened, id: string): Promise<void> {
  await expect.poll(() => message(o.page).textContent(), { timeout: 60_000, interval: 200 }).toMatch(/^Paid/);
  expect(await paymentStatus(id)).toBe('succeeded');
  expect(o.problems).toEqual([]);
}

describe('pay with a browser wallet on the payment page', () => {
  it('EIP-6963 wallet pays by one EIP-3009 signature after switching chain; photographed found, signing, paid', async () => {
    const c = await evmCase('USDC');
    const o = await openPage(c.id, { evm: c.wallet });
    await expect.poll(() => walletButton(o.page, 'Test Wallet').isVisible()).toBe(true);
    await checkAndShoot(o.page, 'wallets-found');
    await walletButton(o.page, 'Test Wallet').click();
    await expect.poll(() => o.page.locator('#bw-review').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await o.page.locator('#bw-amount').textContent()).toBe('10.5 USDC');
    expect(await o.page.locator('#bw-network').textContent()).toBe('Sandbox EVM');
    expect((await o.page.locator('#bw-recipient').textContent())?.toLowerCase()).toBe(c.destination.toLowerCase());
    const signing = gateMethod(c.wallet, 'eth_signTypedData_v4');
    await o.page.locator('#bw-pay').click();
    await signing.reached;
    await checkAndShoot(o.page, 'signing');
    signing.release();
    await expectPaid(o, c.id);
    // Paid: nothing offers to pay any more (before: the phone wallets' links stayed).
    await expect.poll(() => o.page.locator('#payment').getAttribute('data-final'), { timeout: 15_000 }).toBe('true');
    expect(await o.page.locator('#wallet-links').isVisible()).toBe(false);
    await checkAndShoot(o.page, 'paid');
    expect(await c.merchantBalance()).toBe(AMOUNT);
    // Switched from chain 1 before the signature (the wallet would have refused it otherwise).
    expect(c.wallet.calls.indexOf('wallet_switchEthereumChain')).toBeLessThan(c.wallet.calls.indexOf('eth_signTypedData_v4'));
    expect(c.wallet.calls.filter((m) => m === 'eth_sendTransaction')).toEqual([]);
    await o.context.close();
  }, 120_000);

  it('pays by Permit2 with a first-time approval sent and mined before the signature', async () => {
    const c = await evmCase('USDT');
    const o = await openPage(c.id, { evm: c.wallet });
    await payWith(o.page, 'Test Wallet');
    await expectPaid(o, c.id);
    expect(await c.merchantBalance()).toBe(AMOUNT);
    const { calls } = c.wallet;
    expect(calls.indexOf('eth_sendTransaction')).toBeGreaterThan(-1);
    expect(calls.indexOf('eth_getTransactionReceipt')).toBeGreaterThan(calls.indexOf('eth_sendTransaction'));
    expect(calls.indexOf('eth_signTypedData_v4')).toBeGreaterThan(calls.indexOf('eth_getTransactionReceipt'));
    await o.context.close();
  }, 120_000);

  it('a direct transfer survives the tab reloading before its confirm: confirmed on reload, paid once', async () => {
    const c = await evmCase('DTUSD');
    const o = await openPage(c.id, { evm: c.wallet });
    // The confirm is held in the network: the transfer is on chain, the service has not heard of it.
    let held!: () => void;
    const confirmSeen = new Promise<void>((r) => (held = r));
    await o.page.route('**/_wallet/**/confirm*', () => held());
    await payWith(o.page, 'Test Wallet');
    await confirmSeen;
    expect(await c.buyerBalance()).toBe(0n);
    expect(await paymentStatus(c.id)).toBe('requires_action');
    await o.page.unroute('**/_wallet/**/confirm*');
    await o.page.reload();
    await expectPaid(o, c.id);
    expect(await c.merchantBalance()).toBe(AMOUNT);
    expect(c.wallet.calls.filter((m) => m === 'eth_sendTransaction')).toHaveLength(1);
    await o.context.close();
  }, 120_000);

  it('a Wallet Standard wallet pays on Solana by signing the raw transaction', async () => {
    const { merchantId, destination } = await solanaMerchant();
    const id = await newPayment(merchantId);
    const solana = testSolanaWallet();
    chains.solana.fund(solana.keypair.publicKey.toBase58(), chains.solana.mint.toBase58(), AMOUNT);
    const o = await openPage(id, { solana });
    await payWith(o.page, 'Test Solana Wallet');
    await expectPaid(o, id);
    expect(chains.solana.balance(destination, chains.solana.mint.toBase58())).toBe(AMOUNT);
    expect(solana.calls).toEqual(['solana:signTransaction']);
    await o.context.close();
  }, 120_000);

  it('a Solana wallet that hands back a modified transaction is refused: nothing reaches the service', async () => {
    const { merchantId, destination } = await solanaMerchant();
    const id = await newPayment(merchantId);
    const solana = testSolanaWallet();
    solana.tamper = true;
    chains.solana.fund(solana.keypair.publicKey.toBase58(), chains.solana.mint.toBase58(), AMOUNT);
    const o = await openPage(id, { solana });
    await payWith(o.page, 'Test Solana Wallet');
    await expect.poll(() => message(o.page).textContent(), { timeout: 15_000 }).toMatch(/changed the transaction/);
    expect(await paymentStatus(id)).toBe('requires_action');
    expect(chains.solana.balance(destination, chains.solana.mint.toBase58())).toBe(0n);
    await o.context.close();
  }, 120_000);

  it('the buyer rejects the signature: told so, nothing paid, and a second try pays', async () => {
    const c = await evmCase('USDC');
    c.wallet.reject.add('eth_signTypedData_v4');
    const o = await openPage(c.id, { evm: c.wallet });
    await payWith(o.page, 'Test Wallet');
    await expect.poll(() => message(o.page).textContent(), { timeout: 15_000 }).toBe('You declined in your wallet. Nothing was paid; you can try again.');
    expect(await paymentStatus(c.id)).toBe('requires_action');
    expect(await c.merchantBalance()).toBe(0n);
    await o.page.locator('#bw-pay').click();
    await expectPaid(o, c.id);
    expect(await c.merchantBalance()).toBe(AMOUNT);
    await o.context.close();
  }, 120_000);

  it('the option expires while the wallet asks: told so, nothing paid, and the wallet chosen again pays at a fresh price', async () => {
    const c = await evmCase('USDC');
    const o = await openPage(c.id, { evm: c.wallet });
    const signing = gateMethod(c.wallet, 'eth_signTypedData_v4');
    await payWith(o.page, 'Test Wallet');
    await signing.reached;
    // The quote's deadline passes while the buyer looks at the wallet's prompt.
    const live = await env.t.storage.quotes.live(c.id, new Date(Date.now()));
    expect(live.length).toBeGreaterThan(0);
    for (const q of live) await env.t.storage.quotes.updateState(q.optionId, q.state, new Date(Date.now() - 1000));
    signing.release();
    await expect
      .poll(() => message(o.page).textContent(), { timeout: 15_000 })
      .toBe('The price offered to your wallet expired before the payment went through. Nothing was paid: choose your wallet again for a fresh price.');
    expect(await paymentStatus(c.id)).toBe('requires_action');
    expect(await c.merchantBalance()).toBe(0n);
    // What the message asks is on the page: the wallet's button (the expired review is gone).
    expect(await o.page.locator('#bw-review').isVisible()).toBe(false);
    await payWith(o.page, 'Test Wallet');
    await expectPaid(o, c.id);
    expect(await c.merchantBalance()).toBe(AMOUNT);
    await o.context.close();
  }, 120_000);

  it('a wallet that does not know the chain adds it (its switch fails with -32603, not 4902), then pays', async () => {
    const c = await evmCase('USDC', AMOUNT, [1]);
    const o = await openPage(c.id, { evm: c.wallet });
    await payWith(o.page, 'Test Wallet');
    await expectPaid(o, c.id);
    expect(c.wallet.calls).toContain('wallet_addEthereumChain');
    expect(c.wallet.known.has(BigInt(chains.evm.chainId))).toBe(true);
    expect(await c.merchantBalance()).toBe(AMOUNT);
    await o.context.close();
  }, 120_000);

  it('a buyer without enough of the token is told before anything is signed', async () => {
    const c = await evmCase('USDC', AMOUNT - 1n);
    const o = await openPage(c.id, { evm: c.wallet });
    await payWith(o.page, 'Test Wallet');
    await expect.poll(() => message(o.page).textContent(), { timeout: 15_000 }).toMatch(/holds less than 10.5 USDC/);
    expect(c.wallet.calls).not.toContain('eth_signTypedData_v4');
    expect(await paymentStatus(c.id)).toBe('requires_action');
    await o.context.close();
  }, 120_000);

  it('no wallet in the browser: says so; without JavaScript the section stays hidden and the QR code and link remain', async () => {
    const c = await evmCase('USDC', 0n);
    const o = await openPage(c.id, {});
    await expect.poll(() => o.page.locator('#browser-wallet').getAttribute('data-state')).toBe('none');
    expect(await o.page.locator('#bw-intro').textContent()).toMatch(/^No browser wallet/);
    await checkAndShoot(o.page, 'none-found');
    expect(o.problems).toEqual([]);
    await o.context.close();

    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const page = await noScript.newPage();
    await page.goto(`${env.t.url}/${c.id}`);
    expect(await page.locator('#browser-wallet').isVisible()).toBe(false);
    expect(await page.locator('.qr svg').isVisible()).toBe(true);
    expect(await page.locator('#wallet-link').isVisible()).toBe(true);
    await noScript.close();
  }, 60_000);
});

/** A merchant settled in the sandbox Solana USDC, to a fresh address whose token account exists (the fee payer funds no rent). */
async function solanaMerchant(): Promise<{ merchantId: string; destination: string }> {
  const destination = Keypair.generate().publicKey.toBase58();
  chains.solana.openTokenAccount(destination);
  const asset = chains.solana.assets[0]!.caip19;
  const m = await env.t.call('POST', '/v1/merchants', {
    key: env.t.a.key,
    headers: { 'Idempotency-Key': `wm-${Math.random()}` },
    body: { merchantName: 'Solana Shop', merchantEmail: 'shop@solana.test' },
  });
  const merchantId = m.body.merchant.id as string;
  const s = await env.t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
    key: env.t.a.key,
    headers: { 'Idempotency-Key': `ws-${Math.random()}` },
    body: { settlements: [{ asset, destination: `${asset.split('/')[0]}:${destination}` }] },
  });
  expect(s.status).toBe(201);
  return { merchantId, destination };
}
