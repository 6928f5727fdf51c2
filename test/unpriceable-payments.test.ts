import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { createPriceTable } from '../server/domain/prices.ts';
import { sandboxMerchant } from './helpers/gateway-env.ts';
import { startTestApp, TEST_ASSETS, type TestApp } from './helpers/test-app.ts';

/**
 * A payment no wallet can ever be offered an option for is refused at create, and the page of a
 * payment that can no longer be paid says so instead of "Waiting for payment". The test assets
 * all track the dollar; the sandbox's FX_RATES is empty.
 */
let t: TestApp;
let merchantId: string;

beforeAll(async () => {
  t = await startTestApp(await openEmbeddedStorage(), { payBaseUrl: 'http://localhost:3000/pay', prices: createPriceTable({ 'GBP/USD': '1.25' }) });
  ({ merchantId } = await sandboxMerchant(t, [TEST_ASSETS[0]!.id]));
});
afterAll(async () => t?.close());

const create = (unit: string, value = '1050') =>
  t.call('POST', '/v1/payments', { key: t.a.key, headers: { 'Merchant-Id': merchantId }, body: { amount: { unit, value }, referenceId: `r-${Math.random()}`, expiresAt: null } });

const page = async (id: string) => (await fetch(`${t.url}/pay/${id}`)).text();

describe('unpriceable payments', () => {
  it('refuses a fiat currency no asset can be priced from, with a code naming it; a priceable one is created', async () => {
    const eur = await create('iso4217/EUR');
    expect(eur.status).toBe(400);
    expect(eur.body).toMatchObject({ code: 'currency_not_priceable', details: { currency: 'EUR' } });
    expect(eur.body.message).toContain('EUR');
    expect(eur.body.message).toContain('"EUR/USD" rate to FX_RATES');
    expect(JSON.stringify(eur.body)).not.toMatch(/at .*\.ts:\d+/);

    // A configured rate (GBP/USD) and the assets' own peg (USD) price.
    expect((await create('iso4217/GBP')).status).toBe(201);
    expect((await create('iso4217/USD')).status).toBe(201);
  });

  it('the page of a payment that can no longer be paid says so, without a code to scan', async () => {
    const p = (await create('iso4217/USD')).body as { paymentId: string };
    expect(await page(p.paymentId)).toContain('Waiting for payment');

    // The merchant removes its only settlement: no wallet is offered an option any more.
    const settlements = await t.call('GET', `/v1/merchants/${merchantId}/settlements`, { key: t.a.key });
    expect(settlements.body.crypto.length).toBe(1);
    for (const s of settlements.body.crypto as Array<{ id: string }>) {
      expect((await t.call('DELETE', `/v1/merchants/${merchantId}/settlements/crypto/${s.id}`, { key: t.a.key })).status).toBeLessThan(300);
    }
    const unpayable = await page(p.paymentId);
    expect(unpayable).toContain('This payment cannot be paid');
    expect(unpayable).not.toContain('Waiting for payment');
    expect(unpayable).toContain('data-payable="false"');
    const css = await (await fetch(`${t.url}/pay/_assets/pages.css`)).text();
    // `.scan` in the rule that hides it (with the other sections a buyer could pay from).
    expect(css).toMatch(/\[data-payable='false'\] \.scan[\s,][^{]*\{\s*display: none;/);

    // Past its expiry (before the expiry job has run), it says it expired and offers nothing to scan.
    t.clock.advance(31 * 86_400_000);
    const expired = await page(p.paymentId);
    expect(expired).toContain('This payment link has expired');
    expect(expired).toContain('data-final="true"');
    expect(expired).not.toContain('This payment cannot be paid');
  });
});
