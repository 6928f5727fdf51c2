// A Solana Pay wallet built only from @solana/pay's own client functions (parseURL, fetchTransaction)
// pays from the payment page's `solana:` link, over HTTPS as a phone would: the payment succeeds with
// no confirm call, the merchant gets exactly the amount, two scans pay once, and a transfer that lands
// after the payment expired still pays it (before: no `solana:` link at all, and a Solana transfer
// found by its reference after expiry left the payment expired), and an account short of the amount
// is told so with no transaction (before: handed a transaction that could only fail).
import { fetchTransaction, parseURL } from '@solana/pay';
import { Keypair, LAMPORTS_PER_SOL, type Connection, type Transaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openE2eWorld, type E2eWorld } from './helpers/e2e-world.ts';
import type { GatewayEnv } from './helpers/gateway-env.ts';
import { startHttpsFront, type HttpsFront } from './helpers/https-front.ts';
import { waitFor } from './helpers/wait-for.ts';
import { launchBrowser, phonePage } from '../server/pages/test-support/browser.ts';
import { checkAndShoot } from './helpers/wallet-page-browser.ts';
import { createMemoryMetrics } from '../adapters/metrics/memory/index.ts';

const USD_1050_IN_USDC = 10_500_000n;

describe('Solana Pay transaction requests from the payment page', () => {
  let world: E2eWorld;
  let front: HttpsFront;
  let env: GatewayEnv;
  let solUsdc: string;
  const metrics = createMemoryMetrics();

  beforeAll(async () => {
    world = await openE2eWorld('sandbox');
    front = await startHttpsFront();
    env = await world.start({ payBaseUrl: front.origin, metrics });
    front.target(env.t.url);
    solUsdc = world.chains.assetConfigs().find((a) => a.id.startsWith('solana:'))!.id;
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    await front?.close();
    await world?.close();
  });

  const sol = () => world.chains.solana;
  const mint = () => sol().mint.toBase58();

  async function merchant(extra: Record<string, unknown> = {}) {
    const destination = Keypair.generate().publicKey.toBase58();
    sol().openTokenAccount(destination);
    const m = await env.t.call('POST', '/v1/merchants', {
      key: env.t.a.key,
      headers: { 'Idempotency-Key': `sp-m-${Math.random()}` },
      body: { merchantName: 'Pay Shop', merchantEmail: 'shop@pay.test', ...extra },
    });
    const merchantId = m.body.merchant.id as string;
    const s = await env.t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
      key: env.t.a.key,
      headers: { 'Idempotency-Key': `sp-s-${Math.random()}` },
      body: { settlements: [{ asset: solUsdc, destination: `${sol().caip2}:${destination}` }] },
    });
    expect(s.status).toBe(201);
    return { merchantId, destination };
  }

  async function payment(merchantId: string, expiresAt?: number): Promise<string> {
    const r = await env.t.call('POST', '/v1/payments', {
      key: env.t.a.key,
      headers: { 'Merchant-Id': merchantId },
      body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `sp-${Math.random()}`, ...(expiresAt ? { expiresAt } : {}) },
    });
    expect(r.status).toBe(201);
    return r.body.paymentId as string;
  }

  /** The buyer's wallet: USDC to pay with and SOL for the fees (a Solana Pay wallet pays its own). */
  function buyer(tokens = USD_1050_IN_USDC): Keypair {
    const k = Keypair.generate();
    sol().fund(k.publicKey.toBase58(), mint(), tokens);
    sol().fund(k.publicKey.toBase58(), null, BigInt(LAMPORTS_PER_SOL) / 100n);
    return k;
  }

  /** The `solana:` link as the page shows it. */
  async function pageLink(paymentId: string): Promise<string> {
    const page = await env.t.call('GET', `/${paymentId}`);
    expect(page.status).toBe(200);
    const html = String(page.body);
    // Phone links only for wallets that pay this payment's chains (Solana here), plain links.
    expect(html).toContain('data-wallet="phantom"');
    expect(html).not.toContain('data-wallet="metamask"');
    const href = /class="solana-pay-link" href="([^"]+)"/.exec(html)?.[1];
    expect(href, 'the page offers a solana: link').toBeDefined();
    return href!.replace(/&amp;/g, '&');
  }

  /** A Solana Pay wallet scanning the link: @solana/pay's parseURL and fetchTransaction, nothing of ours. */
  async function scan(url: string, account: Keypair): Promise<Transaction> {
    const parsed = parseURL(url);
    if (!('link' in parsed)) throw new Error('not a transaction request');
    return fetchTransaction(world.solanaConnection as unknown as Connection, account.publicKey, parsed.link);
  }

  /** What the wallet does next: sign as the account, broadcast. */
  async function signAndSend(tx: Transaction, account: Keypair): Promise<string> {
    tx.partialSign(account);
    return world.solanaConnection.sendRawTransaction(tx.serialize());
  }

  const status = async (paymentId: string) => (await env.t.storage.payments.get(paymentId))!.status;

  it('pays from the page’s solana: link with no confirm call: succeeded, merchant paid exactly, two scans pay once', async () => {
    const { merchantId, destination } = await merchant();
    const paymentId = await payment(merchantId);
    const url = await pageLink(paymentId);
    expect(url.startsWith('solana:https%3A%2F%2Flocalhost')).toBe(true);
    const payer = buyer();

    // The GET half of the spec, and its CORS.
    const link = (parseURL(url) as { link: URL }).link;
    const get = await env.t.call('GET', `${link.pathname}${link.search}`);
    expect(get.body).toEqual({ label: 'Pay Shop', icon: expect.stringMatching(/^https:\/\/localhost:\d+\/pay_\w+\/solana-pay\/icon\.svg$/) });
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await env.t.call('OPTIONS', `${link.pathname}${link.search}`);
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);

    const first = await scan(url, payer);
    const second = await scan(url, payer);
    const bytes = (t: Transaction) => t.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
    expect(bytes(second)).toBe(bytes(first));
    expect(first.feePayer?.toBase58()).toBe(payer.publicKey.toBase58());

    const txId = await signAndSend(first, payer);
    await expect(signAndSend(second, payer)).rejects.toThrow(/already been processed/);
    await waitFor('the payment succeeds', async () => (await status(paymentId)) === 'succeeded', 30_000, 100);
    const paid = (await env.t.storage.payments.get(paymentId))!;
    expect(paid.txId).toBe(txId);
    expect(sol().balance(destination, mint())).toBe(USD_1050_IN_USDC);
    // Nothing called confirm: the payment went straight from waiting to paid.
    const moves = (await env.t.storage.payments.events(paymentId)).map((e) => e.type);
    expect(moves).not.toContain('payment.processing');
    expect(moves).toContain('payment.succeeded');

    // Paid: a further scan is told so (4xx with a message), and gets no transaction.
    const after = await env.t.call('POST', `${link.pathname}${link.search}`, { body: { account: payer.publicKey.toBase58() } });
    expect(after.status).toBe(400);
    expect(after.body).toEqual({ message: 'This payment is already paid', code: 'invalid_state' });
    const page = await env.t.call('GET', `/${paymentId}`);
    expect(String(page.body)).not.toContain('solana-pay-link');
  }, 60_000);

  it('the page shows the Solana Pay code and the Solana wallets’ phone links under its CSP, with no console error (screenshot)', async () => {
    const { merchantId } = await merchant();
    const paymentId = await payment(merchantId);
    const browser = await launchBrowser();
    try {
      const w = await phonePage(browser, env.t.url);
      await w.page.goto(`${env.t.url}/${paymentId}`);
      await w.page.locator('#solana-pay svg').first().waitFor();
      expect(await w.page.locator('a.solana-pay-link').getAttribute('href')).toMatch(/^solana:https%3A%2F%2Flocalhost/);
      expect(await w.page.locator('a.wallet-link').allTextContents()).toEqual(['Phantom', 'Solflare', 'Backpack']);
      await w.shot('payment-solana-pay');
      // No serious axe-core violation; photographed at both widths (docs/screenshots/wallet-page/ with UPDATE_SCREENSHOTS=1).
      await checkAndShoot(w.page, 'solana-pay');
      expect(w.problems).toEqual([]);
      expect(w.foreign).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('refuses what is not a request for this payment: a bad account, an asset it does not accept, an unknown payment', async () => {
    const { merchantId } = await merchant();
    const paymentId = await payment(merchantId);
    const link = (parseURL(await pageLink(paymentId)) as { link: URL }).link;
    const post = (path: string, body: unknown) => env.t.call('POST', path, { body });
    expect((await post(`${link.pathname}${link.search}`, { account: 'not-a-key' })).body).toMatchObject({ code: 'invalid_params', message: expect.any(String) });
    expect((await post(`${link.pathname}${link.search}`, {})).status).toBe(400);
    expect((await post(`${link.pathname}?asset=eip155%3A1%2Ferc20%3A0x0`, { account: Keypair.generate().publicKey.toBase58() })).status).toBe(400);
    expect((await post(`/pay_unknown/solana-pay${link.search}`, { account: Keypair.generate().publicKey.toBase58() })).status).toBe(404);

    // An account short of the amount: told what it holds, with no transaction that could only fail (before: a transaction).
    const short = await post(`${link.pathname}${link.search}`, { account: buyer(USD_1050_IN_USDC - 1n).publicKey.toBase58() });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ code: 'invalid_state', message: 'This account holds 10.499999 USDC; the payment needs 10.5 USDC. Add funds, then scan again' });

    // A merchant asking for the buyer's details: no Solana Pay (its wallets cannot fill the form).
    const asking = await merchant({ dataCollection: { minAmount: null } });
    const askingPayment = await payment(asking.merchantId);
    expect(String((await env.t.call('GET', `/${askingPayment}`)).body)).not.toContain('solana-pay-link');
    const refused = await post(`/${askingPayment}/solana-pay${link.search}`, { account: buyer().publicKey.toBase58() });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/details/);
  }, 30_000);

  it('a transfer the wallet broadcasts after the payment expired still pays it, once final (before: it stayed expired)', async () => {
    const { merchantId, destination } = await merchant();
    const paymentId = await payment(merchantId, Math.floor(Date.now() / 1000) + 3);
    const payer = buyer();
    const tx = await scan(await pageLink(paymentId), payer);
    await waitFor('the payment expires', async () => (await status(paymentId)) === 'expired', 20_000, 100);
    const txId = await signAndSend(tx, payer);
    await waitFor('the payment succeeds', async () => (await status(paymentId)) === 'succeeded', 30_000, 100);
    expect((await env.t.storage.payments.get(paymentId))!.txId).toBe(txId);
    expect(sol().balance(destination, mint())).toBe(USD_1050_IN_USDC);
  }, 60_000);

  it('two wallets scanning the same page each land their transaction: the first pays, the second is told as paid twice (before: silence, its watcher stopped)', async () => {
    const { merchantId, destination } = await merchant();
    const paymentId = await payment(merchantId);
    const url = await pageLink(paymentId);
    const [one, two] = [buyer(), buyer()];
    // Both scan while the payment is open: two accounts, two options, two transactions.
    const [txOne, txTwo] = [await scan(url, one), await scan(url, two)];
    const paidTwice = async () =>
      Number(
        (await metrics.exposition()).text
          .split('\n')
          .find((l) => l.startsWith('payment_paid_twice_total'))
          ?.split(' ')
          .pop() ?? 0,
      );
    const before = await paidTwice();
    const first = await signAndSend(txOne, one);
    await waitFor('the first transaction pays', async () => (await status(paymentId)) === 'succeeded', 30_000, 100);
    const second = await signAndSend(txTwo, two);
    await waitFor('the second is told', async () => ((await env.t.storage.payments.get(paymentId))!.extraPayments ?? []).length > 0, 30_000, 100);
    const paid = (await env.t.storage.payments.get(paymentId))!;
    expect(paid).toMatchObject({ status: 'succeeded', txId: first });
    expect(paid.extraPayments).toEqual([expect.objectContaining({ txId: second, network: sol().caip2, asset: solUsdc, value: USD_1050_IN_USDC })]);
    expect((await env.t.storage.payments.events(paymentId)).filter((e) => e.type === 'payment.paid_twice')).toHaveLength(1);
    expect((await paidTwice()) - before).toBe(1);
    expect(sol().balance(destination, mint())).toBe(2n * USD_1050_IN_USDC);
  }, 90_000);

  it('two wallets’ transactions landing together: one pays, the other is told as paid twice, whichever watcher looks first', async () => {
    const { merchantId } = await merchant();
    const paymentId = await payment(merchantId);
    const url = await pageLink(paymentId);
    const [one, two] = [buyer(), buyer()];
    const [txOne, txTwo] = [await scan(url, one), await scan(url, two)];
    const sent = await Promise.all([signAndSend(txOne, one), signAndSend(txTwo, two)]);
    await waitFor('both accounted for', async () => ((await env.t.storage.payments.get(paymentId))!.extraPayments ?? []).length > 0, 30_000, 100);
    const paid = (await env.t.storage.payments.get(paymentId))!;
    expect(paid.status).toBe('succeeded');
    // Each signature as the chain knows it (base58 is case-sensitive: before, the extra one was stored lowercased, naming no transaction).
    expect([paid.txId, ...paid.extraPayments!.map((e) => e.txId)].sort()).toEqual([...sent].sort());
  }, 90_000);
});
