import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * The buyer data form posts outside the API chain (`/collect/<token>`), into a jsonb column:
 * NUL and lone surrogates there used to answer 500. They are refused as 400 naming the field,
 * for the form and for `collectedData` on confirm alike.
 */
let chains: SandboxChains;
let env: GatewayEnv;
let usdc = '';

beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({ chains });
  usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

async function optionNeedingData() {
  const { t } = env;
  const m = await t.call('POST', '/v1/merchants', {
    key: t.a.key,
    headers: { 'Idempotency-Key': `hc-${Math.random()}` },
    body: { merchantName: 'KYC Shop', merchantEmail: 'k@shop.test', dataCollection: { minAmount: null } },
  });
  const merchant = m.body.merchant.id as string;
  await t.call('POST', `/v1/merchants/${merchant}/settlements/crypto`, {
    key: t.a.key,
    headers: { 'Idempotency-Key': `hs-${Math.random()}` },
    body: { settlements: [{ asset: usdc, destination: `eip155:31337:${Wallet.createRandom().address}` }] },
  });
  const p = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchant },
    body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `hc-${Math.random()}` },
  });
  const id = p.body.paymentId as string;
  const o = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${Wallet.createRandom().address}`] } });
  return { id, option: o.body.options[0] };
}

const valid = { fullName: 'Ada Lovelace', dateOfBirth: '1990-12-10', country: 'GB', email: 'ada@example.org', termsAccepted: true };

describe('hostile bytes in buyer data', () => {
  it('the form answers 400 params_validation naming the field, and stores nothing', async () => {
    const { option } = await optionNeedingData();
    const path = new URL(option.collectData.url).pathname;
    for (const bad of ['Ada\u0000Lovelace', 'Ada \ud800']) {
      const r = await env.t.call('POST', path, { body: { data: { ...valid, fullName: bad } } });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toMatchObject({ code: 'params_validation', issues: [{ field: 'data.fullName' }] });
    }
    expect((await env.t.call('POST', path, { body: { data: valid } })).body).toEqual({ status: 'complete' });
  });

  it('confirm refuses them in collectedData before anything is stored', async () => {
    const { id, option } = await optionNeedingData();
    const r = await env.t.call('POST', `/v1/gateway/payment/${id}/confirm`, {
      key: env.t.a.walletKey,
      body: { optionId: option.id, results: [{ type: 'walletRpc', data: ['0x00'] }], collectedData: { fields: [{ id: 'fullName', value: 'Ada\u0000' }] } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({ code: 'params_validation', issues: [{ field: 'collectedData.fields[0].value' }] });
  });
});
