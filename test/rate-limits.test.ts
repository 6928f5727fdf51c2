import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { createKey } from '../server/auth/provisioning.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';

/** Each API key has its own allowance: a burst, then a sustained rate; over it, 429 with Retry-After. */
describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The limiter reads the app's controllable clock, so refills happen when the test says.
    t = await startTestApp(await openEmbeddedStorage(), {
      rateLimiter: createMemoryRateLimiter({ perSecond: 0.5, burst: 3 }, { now: () => t.clock.now() }),
    });
  });
  afterAll(async () => {
    await t?.close();
    await t?.storage.close();
  });

  it('answers 429 rate_limited with Retry-After once a key spent its burst, and serves it again after the wait', async () => {
    const p = await t.newPartner();
    for (let i = 0; i < 3; i++) expect((await t.call('GET', '/v1/merchants', { key: p.key })).status).toBe(200);
    const refused = await t.call('GET', '/v1/merchants', { key: p.key });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too many requests: retry after 2 s', code: 'rate_limited', details: { retryAfterS: 2 } });
    expect(refused.headers.get('retry-after')).toBe('2');
    // Another partner is not held up by this one.
    const other = await t.newPartner();
    expect((await t.call('GET', '/v1/merchants', { key: other.key })).status).toBe(200);
    t.clock.advance(2_000);
    expect((await t.call('GET', '/v1/merchants', { key: p.key })).status).toBe(200);
    expect((await t.call('GET', '/v1/merchants', { key: p.key })).status).toBe(429);
  });

  it('counts writes too, and a refused create writes nothing', async () => {
    const p = await t.newPartner();
    t.clock.advance(10_000);
    const merchant = await payableMerchant(t, p.key); // two requests: merchant and settlement
    expect((await createPayment(t, p.key, merchant)).status).toBe(201);
    const refused = await t.call('POST', '/v1/payments', {
      key: p.key,
      headers: { 'Merchant-Id': merchant },
      body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'over', expiresAt: null },
    });
    expect(refused.status).toBe(429);
    t.clock.advance(2_000);
    const list = await t.call('GET', '/v1/merchants/payments', { key: p.key, headers: { 'Merchant-Id': merchant } });
    expect(list.body.data.map((x: { referenceId: string }) => x.referenceId)).not.toContain('over');
  });

  it('counts one App-Id per address, whatever Client-Id each request claims', async () => {
    const p = await t.newPartner();
    t.clock.advance(10_000);
    const merchant = await payableMerchant(t, p.key);
    const paymentId = (await createPayment(t, p.key, merchant)).body.paymentId as string;
    const appId = (await createKey(t.storage, { partnerId: p.id, scope: 'app', live: false })).apiKey;
    const status = (clientId: string) => t.call('GET', `/v1/gateway/payment/${paymentId}/status`, { headers: { 'App-Id': appId, 'Client-Id': clientId } });
    for (let i = 0; i < 3; i++) expect((await status(`install-${i}`)).status).toBe(200);
    expect((await status('install-new')).status).toBe(429);
  });

  it('counts the public payment page and its state poll per address, as they need no key', async () => {
    const p = await t.newPartner();
    t.clock.advance(10_000);
    const merchant = await payableMerchant(t, p.key);
    t.clock.advance(10_000);
    const paymentId = (await createPayment(t, p.key, merchant)).body.paymentId as string;
    t.clock.advance(10_000); // this address's earlier page requests, if any, are forgotten
    const state = () => fetch(`${t.url}/pay/${paymentId}/state`);
    expect([(await state()).status, (await fetch(`${t.url}/pay/${paymentId}`)).status, (await state()).status]).toEqual([200, 200, 200]);
    const refused = await state();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
    // Scripts and styles cost nothing and are not counted.
    expect((await fetch(`${t.url}/pay/_assets/pay.js`)).status).toBe(200);
  });

  it('does not count requests refused for their key', async () => {
    const p = await t.newPartner();
    for (let i = 0; i < 5; i++) expect((await t.call('GET', '/v1/merchants', { key: 'sk_test_notarealkeynotarealkeynotareal' })).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await t.call('GET', '/v1/merchants', { key: p.key })).status).toBe(200);
  });
});

describe('rate limits behind a proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(await openEmbeddedStorage(), {
      rateLimiter: createMemoryRateLimiter({ perSecond: 0.5, burst: 2 }, { now: () => t.clock.now() }),
      trustProxyHops: 1,
    });
  });
  afterAll(async () => {
    await t?.close();
    await t?.storage.close();
  });

  it('tells App-Id wallets apart by the address the proxy forwarded, so one cannot lock out the rest', async () => {
    const merchant = await payableMerchant(t, t.a.key);
    t.clock.advance(10_000); // the partner key's burst went on the merchant
    const paymentId = (await createPayment(t, t.a.key, merchant)).body.paymentId as string;
    const appId = (await createKey(t.storage, { partnerId: t.a.id, scope: 'app', live: false })).apiKey;
    const status = (from: string) => t.call('GET', `/v1/gateway/payment/${paymentId}/status`, { headers: { 'App-Id': appId, 'Client-Id': 'c', 'X-Forwarded-For': from } });
    expect([(await status('203.0.113.7')).status, (await status('203.0.113.7')).status, (await status('203.0.113.7')).status]).toEqual([200, 200, 429]);
    expect((await status('198.51.100.20')).status).toBe(200);
  });
});
