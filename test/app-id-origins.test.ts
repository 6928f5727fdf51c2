import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { createKey } from '../server/auth/provisioning.ts';
import { checkOrigins, MAX_ORIGINS } from '../server/domain/partners/origins.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';

describe('App-Id allowed origins: what the API accepts', () => {
  let t: TestApp;
  let limited: string;
  let open: string;
  let path: string;
  beforeAll(async () => {
    t = await startTestApp(await openEmbeddedStorage());
    limited = (await createKey(t.storage, { partnerId: t.a.id, scope: 'app', live: false, allowedOrigins: ['https://wallet.example', 'https://pay.example:8443'] })).apiKey;
    open = (await createKey(t.storage, { partnerId: t.a.id, scope: 'app', live: false })).apiKey;
    const merchant = await payableMerchant(t, t.a.key);
    path = `/v1/gateway/payment/${(await createPayment(t, t.a.key, merchant)).body.paymentId}/status`;
  });
  afterAll(async () => {
    await t?.close();
    await t?.storage.close();
  });
  const call = (appId: string, origin?: string) =>
    t.call('GET', path, { headers: { 'App-Id': appId, 'Client-Id': 'install-1', ...(origin !== undefined ? { Origin: origin } : {}) } });

  it('accepts a listed origin, and a request without Origin (a native wallet)', async () => {
    expect((await call(limited, 'https://wallet.example')).status).toBe(200);
    expect((await call(limited, 'https://pay.example:8443')).status).toBe(200);
    expect((await call(limited)).status).toBe(200);
  });

  it.each(['https://evil.example', 'https://wallet.example.evil.example', 'http://wallet.example', 'https://WALLET.example', 'https://pay.example', 'null', ''])(
    'refuses origin %j with 403 forbidden in the error shape',
    async (origin) => {
      const r = await call(limited, origin);
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ code: 'forbidden' });
      expect(typeof r.body.message).toBe('string');
    },
  );

  it('lets an App-Id without origins be used from any origin', async () => {
    expect((await call(open, 'https://anything.example')).status).toBe(200);
    expect((await call(open)).status).toBe(200);
  });
});

describe('App-Id allowed origins: what is refused at input', () => {
  it('accepts exact lower-case https origins, drops duplicates, keeps order', () => {
    expect(checkOrigins(['https://wallet.example', 'https://a.b-c.example:8443', 'https://wallet.example'], { sandbox: false })).toEqual({
      ok: true,
      origins: ['https://wallet.example', 'https://a.b-c.example:8443'],
    });
  });

  it.each([
    'https://Wallet.example',
    'https://wallet.example/',
    'https://wallet.example/pay',
    'https://*.wallet.example',
    '*',
    'http://wallet.example',
    'ftp://wallet.example',
    'https://wallet.example:0',
    'https://wallet.example:70000',
    'https://user@wallet.example',
    'https://wallet.example?x=1',
    'https://wallet.example#x',
    ' https://wallet.example',
    'https://-bad.example',
    'javascript:alert(1)',
    'null',
    '',
  ])('refuses %j', (origin) => {
    const r = checkOrigins([origin], { sandbox: true });
    expect(r.ok).toBe(false);
  });

  it('allows http://localhost and 127.0.0.1 in sandbox mode only', () => {
    for (const o of ['http://localhost', 'http://localhost:5173', 'http://127.0.0.1:3000']) {
      expect(checkOrigins([o], { sandbox: true }).ok).toBe(true);
      expect(checkOrigins([o], { sandbox: false }).ok).toBe(false);
    }
    expect(checkOrigins(['http://localhost.evil.example'], { sandbox: true }).ok).toBe(false);
  });

  it(`refuses more than ${MAX_ORIGINS} origins`, () => {
    const many = Array.from({ length: MAX_ORIGINS + 1 }, (_, i) => `https://w${i}.example`);
    expect(checkOrigins(many.slice(0, MAX_ORIGINS), { sandbox: false }).ok).toBe(true);
    expect(checkOrigins(many, { sandbox: false })).toMatchObject({ ok: false, problem: expect.stringContaining(`${MAX_ORIGINS}`) });
  });
});
