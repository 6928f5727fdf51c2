import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { createKey } from '../server/auth/provisioning.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';

/**
 * The preview's `checkout` redirect URLs are HTTPS, as the reference documents. Plain http is
 * accepted only to a loopback host, and only in sandbox mode; anything else is a 400
 * `params_validation` naming the field.
 */
const PREVIEW = { 'Svc-Version': '2026-02-19.preview' };
const checkout = (successUrl: string, errorUrl = 'https://shop.example/failed') => ({ checkout: { successUrl, errorUrl } });

describe.each(['sandbox', 'production'] as const)('checkout URLs in %s mode', (mode) => {
  let t: TestApp;
  let key: string;
  let merchant: string;
  beforeAll(async () => {
    t = await startTestApp(await openEmbeddedStorage(), { mode, payBaseUrl: 'https://pay.example.test' });
    // Production refuses sandbox keys: use a live key there.
    key = mode === 'production' ? (await createKey(t.storage, { partnerId: t.a.id, scope: 'partner', live: true })).apiKey : t.a.key;
    merchant = await payableMerchant(t, key);
  });
  afterAll(async () => {
    await t?.close();
    await t?.storage.close();
  });

  it('accepts https URLs and keeps them for the payment page', async () => {
    const r = await createPayment(t, key, merchant, checkout('https://shop.example/ok?order=1'), PREVIEW);
    expect(r.status).toBe(201);
    expect((await t.storage.payments.get(r.body.paymentId))?.checkout).toEqual({ successUrl: 'https://shop.example/ok?order=1', errorUrl: 'https://shop.example/failed' });
  });

  it.each(['http://localhost:3000/ok', 'http://127.0.0.1/ok', 'http://[::1]:8080/ok?x=1', 'http://localhost'])('loopback http %s: accepted only in sandbox mode', async (url) => {
    const r = await createPayment(t, key, merchant, checkout(url), PREVIEW);
    if (mode === 'sandbox') {
      expect(r.status).toBe(201);
    } else {
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'params_validation', issues: [{ field: 'checkout.successUrl', message: expect.stringMatching(/https/) }] });
    }
  });

  it.each([
    'http://shop.example/ok',
    'http://localhost.shop.example/ok',
    'http://127.0.0.1.nip.io/ok',
    'ftp://shop.example/ok',
    'javascript:alert(1)',
    'https://',
    'shop.example/ok',
  ])('refuses %s in either mode, naming the field', async (url) => {
    for (const [body, field] of [
      [checkout(url), 'checkout.successUrl'],
      [checkout('https://shop.example/ok', url), 'checkout.errorUrl'],
    ] as const) {
      const r = await createPayment(t, key, merchant, body, PREVIEW);
      expect(r.status, `${field}: ${url}`).toBe(400);
      expect(r.body.code).toBe('params_validation');
      expect(r.body.issues.map((i: { field: string }) => i.field)).toContain(field);
    }
  });
});
