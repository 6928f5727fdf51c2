import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { sandboxMerchant } from './helpers/gateway-env.ts';
import { startTestApp, TEST_ASSETS, type TestApp } from './helpers/test-app.ts';

/**
 * The buyer pages over plain HTTP: what is served at the pay path, its headers, the public state
 * endpoint (and that it tells nothing beyond the page), /docs. The browser suite (pages-browser)
 * checks what a buyer sees.
 */
let t: TestApp;
let merchantId: string;

beforeAll(async () => {
  t = await startTestApp(await openEmbeddedStorage(), { payBaseUrl: 'http://localhost:3000/pay' });
  ({ merchantId } = await sandboxMerchant(t, [TEST_ASSETS[0]!.id, TEST_ASSETS[1]!.id]));
});
afterAll(async () => t?.close());

async function payment(opts: { version?: string; checkout?: unknown; value?: string } = {}) {
  const r = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId, ...(opts.version ? { 'Svc-Version': opts.version } : {}) },
    body: {
      amount: { unit: 'iso4217/USD', value: opts.value ?? '1050' },
      referenceId: `r-${Math.random()}`,
      expiresAt: null,
      ...(opts.checkout ? { checkout: opts.checkout } : {}),
    },
  });
  expect(r.status).toBe(201);
  return r.body as { paymentId: string; gatewayUrl: string };
}

const page = async (path: string) => {
  const res = await fetch(t.url + path);
  return { status: res.status, html: await res.text(), headers: res.headers };
};

describe('payment page', () => {
  it('renders merchant, amount, QR of the link, accepted assets; at /pay/<id> and /pay/?pid=', async () => {
    const p = await payment({ value: '123456' });
    expect(p.gatewayUrl).toBe(`http://localhost:3000/pay/${p.paymentId}`);
    for (const path of [`/pay/${p.paymentId}`, `/pay/?pid=${p.paymentId}`]) {
      const r = await page(path);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.html).toContain('Sandbox Shop');
      expect(r.html).toContain('$1,234.56');
      expect(r.html).toMatch(/<svg [^>]*viewBox/);
      expect(r.html).toContain(`href="${p.gatewayUrl}"`);
      expect(r.html).toContain('USDC <span class="network">on Base</span>');
      expect(r.html).toContain('USDT <span class="network">on Ethereum</span>');
      expect(r.html).toContain('data-status="requires_action"');
      expect(r.html).toContain('<script src="/pay/_assets/pay.js" defer></script>');
      expect(r.html).not.toMatch(/<script>|<script [^>]*>[^<]/);
    }
  });

  it('has its own CSP: scripts only from itself, no inline escapes, not frameable', async () => {
    const p = await payment();
    const { headers } = await page(`/pay/${p.paymentId}`);
    const csp = headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it('unknown or malformed ids get a helpful 404 page', async () => {
    for (const path of ['/pay/pay_0000000000000000000000000', '/pay/nonsense', '/pay/?pid=pay_0000000000000000000000000', '/pay/']) {
      const r = await page(path);
      expect(r.status, path).toBe(404);
      expect(r.html).toContain('Payment not found');
      expect(r.html).toContain('ask the merchant for a new one');
    }
  });

  it('serves its script and style itself', async () => {
    const js = await fetch(`${t.url}/pay/_assets/pay.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await js.text()).toContain('pollInMs');
    expect((await fetch(`${t.url}/pay/_assets/pages.css`)).headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${t.url}/pay/_assets/secret.ts`)).status).toBe(404);
    expect((await fetch(`${t.url}/pay/_assets/..%2Findex.ts`)).status).toBe(404);
  });
});

describe('page state endpoint', () => {
  it('answers only what the page shows, without a key', async () => {
    const p = await payment();
    const r = await t.call('GET', `/pay/${p.paymentId}/state`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['expiresAt', 'isFinal', 'now', 'pollInMs', 'status']);
    expect(r.body).toMatchObject({ status: 'requires_action', isFinal: false, pollInMs: 2000 });
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('reads expired once the expiry passed, and unknown ids are 404', async () => {
    const p = await payment();
    t.clock.advance(301_000);
    const r = await t.call('GET', `/pay/${p.paymentId}/state`);
    expect(r.body).toMatchObject({ status: 'expired', isFinal: true, pollInMs: null });
    expect((await t.call('GET', '/pay/pay_0000000000000000000000000/state')).status).toBe(404);
  });

  it('preview checkout: a final payment names where to send the buyer', async () => {
    const checkout = { successUrl: 'https://shop.example/ok', errorUrl: 'https://shop.example/failed' };
    const p = await payment({ version: '2026-02-19.preview', checkout });
    expect((await t.call('GET', `/pay/${p.paymentId}/state`)).body.redirectUrl).toBeUndefined();
    const c = await t.call('POST', `/v1/payments/${p.paymentId}/cancel`, { key: t.a.key, headers: { 'Merchant-Id': merchantId } });
    expect(c.status).toBe(200);
    expect((await t.call('GET', `/pay/${p.paymentId}/state`)).body).toMatchObject({ status: 'cancelled', isFinal: true, redirectUrl: checkout.errorUrl });
  });
});

describe('/docs', () => {
  it('lists the versions and serves each to Redoc from this service, under a CSP confined to the docs', async () => {
    const index = await page('/docs');
    expect(index.status).toBe(200);
    expect(index.html).toContain('href="/docs/2026-02-18"');
    expect(index.html).toContain('href="/docs/2026-02-19.preview"');
    const v = await page('/docs/2026-02-18');
    expect(v.status).toBe(200);
    expect(v.html).toContain('<redoc spec-url="/docs/2026-02-18/openapi.json"');
    // One script, from this service: no inline script, no CDN.
    expect([...v.html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual(['<script src="/docs/_assets/redoc.standalone.js" defer>']);
    const csp = v.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/unsafe-eval|https:|\*/);
    const bundle = await fetch(`${t.url}/docs/_assets/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect((await bundle.text()).length).toBeGreaterThan(500_000);
    // The payment pages keep their stricter policy: Redoc's inline styles stay on /docs.
    expect((await page('/docs')).headers.get('content-security-policy')).toContain("style-src 'self' 'unsafe-inline'");
    const json = await t.call('GET', '/docs/2026-02-18/openapi.json');
    expect(json.body.info.version).toBe('2026-02-18');
    // Without PUBLIC_BASE_URL the pay links' origin; the composition passes PUBLIC_BASE_URL.
    expect(json.body.servers).toEqual([{ url: 'http://localhost:3000', description: 'This deployment' }]);
    expect((await page('/docs/1999-01-01')).status).toBe(404);
  });
});
