import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { systemClock } from '../server/ports/clock.ts';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { sandboxMerchant } from './helpers/gateway-env.ts';
import { startTestApp, TEST_ASSETS, type TestApp } from './helpers/test-app.ts';

/**
 * The payment page's browser-wallet routes over plain HTTP: keyless and keyed by the payment id,
 * counted per client address, a client mistake answered 400/404 in the error shape (never a 5xx),
 * and no key of any kind in the page or its script. The browser suite (wallet-page-browser) pays
 * through them.
 */
let t: TestApp;
let merchantId: string;
const BURST = 30;

beforeAll(async () => {
  t = await startTestApp(await openEmbeddedStorage(), {
    payBaseUrl: 'http://localhost:3000/pay',
    rateLimiter: createMemoryRateLimiter({ perSecond: 0.001, burst: BURST }, systemClock),
  });
  ({ merchantId } = await sandboxMerchant(t, [TEST_ASSETS[0]!.id]));
});
afterAll(async () => t?.close());

async function newPayment(): Promise<string> {
  const r = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `r-${Math.random()}`, expiresAt: null },
  });
  expect(r.status).toBe(201);
  return r.body.paymentId as string;
}

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${t.url}/pay/_wallet/v1/gateway/payment/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('payment page wallet routes', () => {
  it('serve the page with the hidden section and one same-origin script, and no key anywhere', async () => {
    const id = await newPayment();
    const res = await fetch(`${t.url}/pay/${id}`);
    const html = await res.text();
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html).toMatch(/<section id="browser-wallet"[^>]* hidden /);
    expect(html).toContain('data-api-base="/pay/_wallet"');
    expect(html).toContain('<script src="/pay/_assets/wallet.js" defer>');
    const script = await (await fetch(`${t.url}/pay/_assets/wallet.js`)).text();
    for (const text of [html, script]) {
      expect(text).not.toMatch(/sk_(test|live)_|wk_|Api-Key:|App-Id:/);
      expect(text).not.toContain(t.a.key);
      expect(text).not.toContain(t.a.walletKey);
    }
  });

  it('answer options without a key, keyed by the payment id', async () => {
    const id = await newPayment();
    const r = await post(`${id}/options`, { accounts: [`eip155:8453:0x${'ab'.repeat(20)}`] });
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body.options)).toBe(true);
    const status = await fetch(`${t.url}/pay/_wallet/v1/gateway/payment/${id}/status`);
    expect(await status.json()).toMatchObject({ status: 'requires_action', isFinal: false });
  });

  it('answer client mistakes 400 or 404 in the error shape', async () => {
    const id = await newPayment();
    const cases: Array<[string, unknown, number, string]> = [
      [`${id}/options`, {}, 400, 'params_validation'],
      [`${id}/options`, { accounts: 'x' }, 400, 'params_validation'],
      [`${id}/options`, { accounts: Array.from({ length: 51 }, (_, i) => `eip155:1:0x${String(i).padStart(40, '0')}`) }, 400, 'params_validation'],
      [`${id}/fetch`, { optionId: 5 }, 400, 'params_validation'],
      [`${id}/confirm`, { optionId: 'opt', results: [{ type: 'walletRpc', data: [1] }] }, 400, 'params_validation'],
      [`${id}/confirm`, { optionId: 'opt', results: [] }, 400, 'params_validation'],
      [`${id}/confirm`, { optionId: 'opt_nope', results: [{ type: 'walletRpc', data: ['0x12'] }] }, 404, 'option_not_found'],
      ['pay_00000000000000000000000000/options', { accounts: ['eip155:1:0x01'] }, 404, 'payment_not_found'],
      ['not-an-id/fetch', { optionId: 'a', data: 'b' }, 404, 'payment_not_found'],
    ];
    for (const [path, body, status, code] of cases) {
      const r = await post(path, body);
      expect({ path, status: r.status, code: r.body.code }).toEqual({ path, status, code });
      expect(typeof r.body.message).toBe('string');
    }
  });

  it('read the payment, its merchant and its settlements once per render of the page (before: four reads)', async () => {
    const id = await newPayment();
    const reads: string[] = [];
    const undo: Array<() => void> = [];
    const watch = (repo: object, name: string) => {
      const r = repo as Record<string, (...a: unknown[]) => unknown>;
      const original = r[name]!;
      r[name] = (...a: unknown[]) => {
        reads.push(name);
        return original.apply(repo, a);
      };
      undo.push(() => (r[name] = original));
    };
    watch(t.storage.payments, 'get');
    watch(t.storage.payments, 'getForGateway');
    watch(t.storage.merchants, 'get');
    watch(t.storage.settlements, 'listByMerchant');
    try {
      const html = await (await fetch(`${t.url}/pay/${id}`)).text();
      expect(html).toContain('Sandbox Shop');
      expect(reads).toEqual(['getForGateway']);
    } finally {
      for (const u of undo) u();
    }
  });

  it('count against the client address like the page itself: 429 once over', async () => {
    const id = await newPayment();
    const statuses: number[] = [];
    for (let i = 0; i < BURST + 5; i++) statuses.push((await post(`${id}/options`, { accounts: ['eip155:8453:0x01'] })).status);
    expect(statuses).toContain(429);
    const refused = await post(`${id}/options`, { accounts: ['eip155:8453:0x01'] });
    expect(refused).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
  });
});
