import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { createKey } from '../server/auth/provisioning.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';

/** Wallets authenticate on gateway operations with a wallet key, or a public App-Id and a Client-Id. */
describe('gateway authentication', () => {
  let t: TestApp;
  let appId: string;
  let path: string;
  beforeAll(async () => {
    t = await startTestApp(await openEmbeddedStorage());
    appId = (await createKey(t.storage, { partnerId: t.a.id, scope: 'app', live: false })).apiKey;
    const merchant = await payableMerchant(t, t.a.key);
    path = `/v1/gateway/payment/${(await createPayment(t, t.a.key, merchant)).body.paymentId}/status`;
  });
  afterAll(async () => {
    await t?.close();
    await t?.storage.close();
  });

  it('accepts an App-Id with a Client-Id, and a wallet key', async () => {
    expect(appId).toMatch(/^app_/);
    expect((await t.call('GET', path, { headers: { 'App-Id': appId, 'Client-Id': 'install-42' } })).status).toBe(200);
    expect((await t.call('GET', path, { key: t.a.walletKey })).status).toBe(200);
  });

  it.each([
    ['App-Id without Client-Id', { 'App-Id': 'APP' }, 401, 'missing_client_id'],
    ['Client-Id without App-Id', { 'Client-Id': 'install-42' }, 401, 'missing_app_id'],
    ['nothing', {}, 401, 'missing_api_key'],
    ['an unknown App-Id', { 'App-Id': 'app_unknownunknownunknownunk', 'Client-Id': 'c' }, 401, 'invalid_api_key'],
    ['a wallet key sent as App-Id', { 'App-Id': 'WALLET', 'Client-Id': 'c' }, 401, 'invalid_api_key'],
    ['Api-Key and App-Id together', { 'Api-Key': 'WALLET', 'App-Id': 'APP', 'Client-Id': 'c' }, 400, 'conflicting_auth_headers'],
  ])('answers %s with %i %s', async (_label, headers: Record<string, string>, status, code) => {
    const resolved = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === 'APP' ? appId : v === 'WALLET' ? t.a.walletKey : v]));
    const r = await t.call('GET', path, { headers: resolved });
    expect(r.status).toBe(status);
    expect(r.body.code).toBe(code);
  });

  it('refuses an App-Id on partner operations (403) and a Client-Id over 128 characters (400)', async () => {
    expect((await t.call('GET', '/v1/merchants', { headers: { 'App-Id': appId, 'Client-Id': 'c' } })).body.code).toBe('forbidden');
    const long = await t.call('GET', path, { headers: { 'App-Id': appId, 'Client-Id': 'c'.repeat(129) } });
    expect(long).toMatchObject({ status: 400, body: { code: 'params_validation' } });
  });
});
