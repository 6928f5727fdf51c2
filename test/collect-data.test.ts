import { Wallet, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * Buyer data collection over HTTP on the sandbox: the merchant setting decides which payments
 * ask; options carry `collectData`; the page's token reaches one option only; the form's data is
 * validated on the server; confirm needs the data (from the page, or `collectedData`).
 */
let chains: SandboxChains;
let env: GatewayEnv;
let usdc = '';
const valid = { fullName: 'Ada Lovelace', dateOfBirth: '1990-12-10', country: 'GB', email: 'ada@example.org', termsAccepted: true };

beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({ chains });
  usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

async function merchant(dataCollection: unknown) {
  const { t } = env;
  const m = await t.call('POST', '/v1/merchants', {
    key: t.a.key,
    headers: { 'Idempotency-Key': `cm-${Math.random()}` },
    body: { merchantName: 'KYC Shop', merchantEmail: 'k@shop.test', dataCollection },
  });
  expect(m.status).toBe(201);
  const id = m.body.merchant.id as string;
  await t.call('POST', `/v1/merchants/${id}/settlements/crypto`, {
    key: t.a.key,
    headers: { 'Idempotency-Key': `cs-${Math.random()}` },
    body: { settlements: [{ asset: usdc, destination: `eip155:31337:${Wallet.createRandom().address}` }] },
  });
  return id;
}

async function payment(merchantId: string, value: string) {
  const r = await env.t.call('POST', '/v1/payments', {
    key: env.t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value }, referenceId: `c-${Math.random()}` },
  });
  expect(r.status).toBe(201);
  return r.body.paymentId as string;
}

async function buyer(): Promise<HDNodeWallet> {
  const wallet = Wallet.createRandom().connect(chains.evm.ethersProvider);
  await chains.evm.fund(wallet.address, usdc.split(':').pop()!, 100_000_000n);
  return wallet;
}

const options = (id: string, wallet: HDNodeWallet) =>
  env.t.call('POST', `/v1/gateway/payment/${id}/options`, { key: env.t.a.walletKey, body: { accounts: [`eip155:31337:${wallet.address}`] } });
const confirm = async (id: string, wallet: HDNodeWallet, option: any, extra: Record<string, unknown> = {}) =>
  env.t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=20000`, {
    key: env.t.a.walletKey,
    body: { optionId: option.id, results: [{ type: 'walletRpc', data: [await signTypedDataParams(wallet, option.actions[0].data.params)] }], ...extra },
  });
/** The page URL of an option, on the test server (links name the public pay host). */
const local = (url: string) => env.t.url + new URL(url).pathname;
const post = (url: string, body: unknown) => env.t.call('POST', new URL(local(url)).pathname, { body });

describe('merchant setting', () => {
  it('is set on create, answered on get, changed and removed on update; the currency must be known', async () => {
    const { t } = env;
    const id = await merchant({ minAmount: { unit: 'iso4217/USD', value: '10000' } });
    expect((await t.call('GET', `/v1/merchants/${id}`, { key: t.a.key })).body.merchant.dataCollection).toEqual({ minAmount: { unit: 'iso4217/USD', value: '10000' } });
    const off = await t.call('PATCH', `/v1/merchants/${id}`, { key: t.a.key, body: { dataCollection: null } });
    expect(off.body.merchant.dataCollection).toBeNull();
    const all = await t.call('PATCH', `/v1/merchants/${id}`, { key: t.a.key, body: { dataCollection: { minAmount: null } } });
    expect(all.body.merchant.dataCollection).toEqual({ minAmount: null });
    const bad = await t.call('PATCH', `/v1/merchants/${id}`, { key: t.a.key, body: { dataCollection: { minAmount: { unit: 'iso4217/XYZ', value: '1' } } } });
    expect(bad).toMatchObject({ status: 400, body: { issues: [{ field: 'dataCollection.minAmount.unit' }] } });
  });
});

describe('options and confirm', () => {
  it('payments under the minimum need nothing; at or above it every option carries the form and schema', async () => {
    const m = await merchant({ minAmount: { unit: 'iso4217/USD', value: '10000' } });
    const wallet = await buyer();
    const small = await options(await payment(m, '9999'), wallet);
    expect(small.body.collectData).toBeNull();
    expect(small.body.options[0].collectData).toBeNull();
    const big = await options(await payment(m, '10000'), wallet);
    const cd = big.body.options[0].collectData;
    expect(cd.url).toMatch(/^https:\/\/pay\.example\.test\/collect\/[\w-]+\.[\w-]+$/);
    expect(cd.schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      required: expect.arrayContaining(['fullName', 'termsAccepted']),
      anyOf: expect.any(Array),
    });
    expect(cd.schema.properties.termsAccepted).toEqual(expect.objectContaining({ const: true }));
    // The flat field list of the reference, derived from the same schema: a field for each
    // property, required only when the schema requires it outright (email or phone is a choice).
    expect(cd.fields).toEqual([
      { id: 'fullName', name: 'Full name', required: true, type: 'text' },
      { id: 'dateOfBirth', name: 'Date of birth', required: true, type: 'date' },
      { id: 'country', name: 'Country of residence (ISO code, e.g. DE)', required: true, type: 'text' },
      { id: 'email', name: 'Email', required: false, type: 'text' },
      { id: 'phone', name: 'Phone (international, e.g. +4915112345678)', required: false, type: 'text' },
      { id: 'termsAccepted', name: cd.schema.properties.termsAccepted.title, required: true, type: 'checkbox' },
    ]);
    expect(cd.fields.map((f: { id: string }) => f.id)).toEqual(Object.keys(cd.schema.properties));
    expect(big.body.collectData).toEqual(cd);
  });

  it('confirm without data answers 400; bad collectedData is named field by field; valid collectedData pays', async () => {
    const m = await merchant({ minAmount: null });
    const wallet = await buyer();
    const id = await payment(m, '1050');
    const option = (await options(id, wallet)).body.options[0];
    const none = await confirm(id, wallet, option);
    expect(none).toMatchObject({ status: 400, body: { code: 'params_validation', issues: [{ field: 'collectedData' }] } });
    const fields = (o: Record<string, string>) => ({ collectedData: { fields: Object.entries(o).map(([k, v]) => ({ id: k, value: v })) } });
    const bad = await confirm(id, wallet, option, fields({ fullName: 'Ada', dateOfBirth: 'yesterday', country: 'GB', termsAccepted: 'false' }));
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { field: string }) => i.field).sort()).toEqual(['collectedData.dateOfBirth', 'collectedData.email', 'collectedData.termsAccepted']);
    expect((await env.t.call('GET', `/v1/gateway/payment/${id}/status`, { key: env.t.a.walletKey })).body.status).toBe('requires_action');
    const ok = await confirm(id, wallet, option, fields({ fullName: 'Ada Lovelace', dateOfBirth: '1990-12-10', country: 'GB', phone: '+441234567890', termsAccepted: 'true' }));
    expect(ok).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    const quote = await env.t.storage.quotes.get(id, option.id);
    expect(quote?.collected?.data).toMatchObject({ fullName: 'Ada Lovelace', termsAccepted: true });
  }, 60_000);

  it('the page takes the data (validated again on the server), records terms acceptance, and confirm then needs none', async () => {
    const m = await merchant({ minAmount: null });
    const wallet = await buyer();
    const id = await payment(m, '1050');
    const option = (await options(id, wallet)).body.options[0];
    const url = option.collectData.url as string;
    const missing = await post(url, { data: { fullName: 'Ada Lovelace' } });
    expect(missing).toMatchObject({ status: 400, body: { code: 'params_validation' } });
    expect(missing.body.issues.map((i: { field: string }) => i.field)).toEqual(expect.arrayContaining(['dateOfBirth', 'country', 'termsAccepted', 'email']));
    const extra = await post(url, { data: { ...valid, ssn: '123' } });
    expect(extra.body.issues).toEqual([{ field: 'ssn', message: 'is not a field of this form' }]);
    expect((await post(url, { data: valid })).body).toEqual({ status: 'complete' });
    const quote = await env.t.storage.quotes.get(id, option.id);
    expect(quote?.collected).toMatchObject({ data: valid, termsAcceptedAt: expect.any(Date) });
    expect(await confirm(id, wallet, option)).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    // The payment is final: the form no longer takes data.
    expect((await post(url, { data: valid })).status).toBe(409);
  }, 60_000);
});

describe('the page token', () => {
  it('reaches one option only: tampered, foreign or expired tokens get nothing', async () => {
    const m = await merchant({ minAmount: null });
    const wallet = await buyer();
    const [a, b] = [await payment(m, '1050'), await payment(m, '2050')];
    const optA = (await options(a, wallet)).body.options[0];
    const optB = (await options(b, wallet)).body.options[0];
    const [bodyA, sigA] = new URL(optA.collectData.url).pathname.split('/').pop()!.split('.');
    const [bodyB] = new URL(optB.collectData.url).pathname.split('/').pop()!.split('.');
    // B's scope with A's signature: refused, and nothing of B is shown.
    const forged = await fetch(`${env.t.url}/collect/${bodyB}.${sigA}`);
    expect(forged.status).toBe(404);
    const html = await forged.text();
    expect(html).not.toContain(b);
    expect(html).toContain('data-error="invalid_link"');
    expect((await post(`https://x/collect/${bodyB}.${sigA}`, { data: valid })).status).toBe(404);
    expect((await post(`https://x/collect/${bodyA}.${sigA}x`, { data: valid })).status).toBe(404);
    // A genuine page: embeddable by wallets, scripts from the service only.
    const page = await fetch(local(optA.collectData.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBeNull();
    expect(page.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const text = await page.text();
    expect(text).not.toContain(a);
    expect(text).toContain('name="termsAccepted"');
  }, 60_000);

  it('dies with its quote deadline', async () => {
    const short = await startGatewayEnv({ chains, quoteTtlS: 1 });
    try {
      const { t } = short;
      const m = await t.call('POST', '/v1/merchants', {
        key: t.a.key,
        headers: { 'Idempotency-Key': `x-${Math.random()}` },
        body: { merchantName: 'S', merchantEmail: 's@s.test', dataCollection: { minAmount: null } },
      });
      await t.call('POST', `/v1/merchants/${m.body.merchant.id}/settlements/crypto`, {
        key: t.a.key,
        headers: { 'Idempotency-Key': `y-${Math.random()}` },
        body: { settlements: [{ asset: usdc, destination: `eip155:31337:${Wallet.createRandom().address}` }] },
      });
      const p = await t.call('POST', '/v1/payments', {
        key: t.a.key,
        headers: { 'Merchant-Id': m.body.merchant.id },
        body: { amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'r' },
      });
      const o = await t.call('POST', `/v1/gateway/payment/${p.body.paymentId}/options`, {
        key: t.a.walletKey,
        body: { accounts: [`eip155:31337:${Wallet.createRandom().address}`] },
      });
      const url = t.url + new URL(o.body.options[0].collectData.url).pathname;
      await new Promise((r) => setTimeout(r, 2100));
      expect((await fetch(url)).status).toBe(404);
    } finally {
      await short.close();
    }
  }, 60_000);
});
