import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';

/**
 * Hostile bytes and values that the database or a recursive walk cannot take. Each used to
 * answer 500 `internal_error`; each must be a 4xx in the documented error shape, naming the field.
 * Run on both backends: PGlite and PostgreSQL fail differently on the same bytes.
 */
const backends = await storageBackends();

const cursorOf = (position: unknown) => Buffer.from(JSON.stringify(position)).toString('base64url');
const LONE = '\ud800';

describe.each(backends)('hostile input on $name', (backend) => {
  let t: TestApp;
  let dispose: () => Promise<void>;
  let merchant: string;
  beforeAll(async () => {
    const storage = await backend.open();
    dispose = storage.dispose;
    t = await startTestApp(storage);
    merchant = await payableMerchant(t, t.a.key);
  });
  afterAll(async () => {
    await t?.close();
    await dispose?.();
  });

  const expectIssue = (r: { status: number; body: any }, field: string) => {
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({ code: 'params_validation', message: expect.any(String) });
    expect(r.body.issues.map((i: { field: string }) => i.field)).toContain(field);
  };
  const createMerchant = (body: unknown) => t.call('POST', '/v1/merchants', { key: t.a.key, headers: { 'Idempotency-Key': `h-${Math.random()}` }, body });
  const rawCreateMerchant = (raw: string, headers: Record<string, string> = {}) =>
    t.call('POST', '/v1/merchants', { key: t.a.key, rawBody: raw, headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `h-${Math.random()}`, ...headers } });

  it('refuses NUL and unpaired surrogates in body strings (merchant name, referenceId)', async () => {
    expectIssue(await createMerchant({ merchantName: 'Acme\u0000Store', merchantEmail: 'a@acme.co' }), 'merchantName');
    // JSON's escapes are how a lone surrogate arrives: UTF-8 cannot carry one.
    expectIssue(await rawCreateMerchant('{"merchantName":"Acme \\ud800","merchantEmail":"a@acme.co"}'), 'merchantName');
    expectIssue(await createPayment(t, t.a.key, merchant, { referenceId: 'order\u00001' }), 'referenceId');
    expectIssue(await createPayment(t, t.a.key, merchant, { referenceId: `order${LONE}` }), 'referenceId');
  });

  it('refuses them in object keys and nested values', async () => {
    expectIssue(
      await t.call('POST', `/v1/merchants/${merchant}/settlements/crypto`, {
        key: t.a.key,
        headers: { 'Idempotency-Key': `h-${Math.random()}` },
        body: { settlements: [{ asset: 'eip155:1/erc20:0x\u0000', destination: 'x' }] },
      }),
      'settlements[0].asset',
    );
    const r = await rawCreateMerchant('{"merchantName":"A","merchantEmail":"a@acme.co","\\u0000":1}');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('params_validation');
  });

  it('refuses them in list filters and path parameters', async () => {
    expectIssue(await t.call('GET', '/v1/merchants?search=%00', { key: t.a.key }), 'query.search');
    expectIssue(await t.call('GET', '/v1/payments?referenceId=a%00b', { key: t.a.key }), 'query.referenceId');
    expectIssue(await t.call('GET', '/v1/payments?network=eip155%3A1%00', { key: t.a.key }), 'query.network');
    expectIssue(await t.call('GET', '/v1/merchants/mrch_%00', { key: t.a.key }), 'path.merchantId');
    expectIssue(await t.call('GET', '/v1/payments/pay_%00', { key: t.a.key, headers: { 'Merchant-Id': merchant } }), 'path.id');
    // Bytes that do not decode as UTF-8, on the API and on the buyer pages' own router.
    const undecodable = await t.call('GET', '/v1/merchants/%ED%A0%80', { key: t.a.key });
    expect([undecodable.status, typeof undecodable.body.code]).toEqual([400, 'string']);
    expectIssue(await t.call('GET', '/pay/%ED%A0%80'), 'path');
    expectIssue(await t.call('GET', '/pay/%ED%A0%80/state'), 'path');
  });

  it('validates cursors when decoding them: NUL inside, a non-numeric sort value, a forged shape', async () => {
    expectIssue(await t.call('GET', `/v1/merchants?cursor=${cursorOf({ before: 'mrch_\u0000' })}`, { key: t.a.key }), 'query.cursor');
    expectIssue(await t.call('GET', `/v1/merchants?cursor=${cursorOf({ before: `mrch_${LONE}` })}`, { key: t.a.key }), 'query.cursor');
    const stats = { totalRevenue: [], totalTransactions: 0, totalCustomers: 0 };
    expectIssue(
      await t.call('GET', `/v1/payments?sortBy=amount&cursor=${cursorOf({ id: 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ', v: 'abc', sort: 'amount:desc', stats })}`, { key: t.a.key }),
      'query.cursor',
    );
    expectIssue(await t.call('GET', `/v1/payments?cursor=${cursorOf({ id: 'pay_\u0000', sort: 'date:desc', stats })}`, { key: t.a.key }), 'query.cursor');
    // Stats are echoed back: a forged shape must not reach the response.
    expectIssue(
      await t.call('GET', `/v1/payments?cursor=${cursorOf({ id: 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ', sort: 'date:desc', stats: { totalRevenue: [{ amount: 'x', currency: 1 }] } })}`, {
        key: t.a.key,
      }),
      'query.cursor',
    );
  });

  it('bounds timestamps to a sane range', async () => {
    expectIssue(await t.call('GET', '/v1/payments?startTs=0000-01-01T00:00:00Z', { key: t.a.key }), 'query.startTs');
    expectIssue(await t.call('GET', '/v1/payments?endTs=0001-01-01T00:00:00Z', { key: t.a.key }), 'query.endTs');
    expectIssue(await t.call('GET', '/v1/payments?startTs=1969-12-31T23:59:59Z', { key: t.a.key }), 'query.startTs');
    expect((await t.call('GET', '/v1/payments?startTs=2020-01-01T00:00:00Z&endTs=9999-12-31T23:59:59Z', { key: t.a.key })).status).toBe(200);
  });

  it('maps body decoding failures to 400 invalid_params and unknown encodings to 415, in the error shape', async () => {
    const gz = await fetch(`${t.url}/v1/merchants`, {
      method: 'POST',
      headers: { 'Api-Key': t.a.key, 'Idempotency-Key': 'gz', 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: 'this is not gzip',
    });
    expect(gz.status).toBe(400);
    expect(await gz.json()).toMatchObject({ code: 'invalid_params', message: expect.any(String) });
    const bogus = await fetch(`${t.url}/v1/merchants`, {
      method: 'POST',
      headers: { 'Api-Key': t.a.key, 'Idempotency-Key': 'gz2', 'Content-Type': 'application/json', 'Content-Encoding': 'bogus' },
      body: '{}',
    });
    expect(bogus.status).toBe(415);
    expect(await bogus.json()).toMatchObject({ code: 'unsupported_media_type', message: expect.any(String) });
    // A well-formed gzip body is still accepted.
    const ok = await fetch(`${t.url}/v1/merchants`, {
      method: 'POST',
      headers: { 'Api-Key': t.a.key, 'Idempotency-Key': `gz-${Math.random()}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ merchantName: 'Zipped', merchantEmail: 'z@zip.co' })),
    });
    expect(ok.status).toBe(201);
  });

  it('refuses deeply nested JSON before any recursive work, with or without an Idempotency-Key', async () => {
    const deep = `{"merchantName":"A","merchantEmail":"a@acme.co","x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const r = await rawCreateMerchant(deep);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'params_validation', issues: [{ field: expect.stringMatching(/^x/), message: expect.stringMatching(/nested/) }] });
    const pay = await t.call('POST', '/v1/payments', {
      key: t.a.key,
      rawBody: `{"amount":{"unit":"iso4217/USD","value":"100"},"referenceId":"deep","expiresAt":null,"zz":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
      headers: { 'Content-Type': 'application/json', 'Merchant-Id': merchant, 'Idempotency-Key': 'deep-1' },
    });
    expect(pay.status).toBe(400);
    expect(pay.body.code).toBe('params_validation');
    // Ordinary nesting is untouched.
    expect((await createMerchant({ merchantName: 'Shallow', merchantEmail: 's@acme.co' })).status).toBe(201);
  });
});
