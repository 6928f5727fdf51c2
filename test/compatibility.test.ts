import { Keypair, Transaction } from '@solana/web3.js';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { VERSIONS } from '../tools/compat/compare-openapi.ts';
import { loadDeviations } from '../tools/compat/deviations.ts';
import { createReferenceValidator } from '../tools/compat/reference-validator.ts';
import { signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * A partner and a wallet written only from the reference's OpenAPI documents, scripted against the
 * app on the sandbox chains, for each API version: every answer must be valid under the
 * reference's schema for its operation and status, except where compat/deviations.yaml lists the
 * difference (and then only at that place). See README § Compatibility.
 */
let chains: SandboxChains;
let env: GatewayEnv;
let evmUsdc: string;
let solUsdc: string;
const deviations = loadDeviations();
const validators = new Map(VERSIONS.map((v) => [v, createReferenceValidator(v, deviations)]));

beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({ chains });
  evmUsdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
  solUsdc = chains.assetConfigs().find((a) => a.id.startsWith('solana:'))!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

describe.each(VERSIONS)('a reference client on %s', (version) => {
  const validator = validators.get(version)!;
  /** Every answer this session saw, by operation and status, to show the session covers them. */
  const seen = new Set<string>();

  /** One request as a reference client sends it (with `Svc-Version`); its answer must pass the reference's schema. */
  async function api(method: string, path: string, opts: { key?: string | null; body?: unknown; headers?: Record<string, string>; invalidOnPurpose?: boolean } = {}) {
    const { t } = env;
    const key = opts.key === undefined ? t.a.key : opts.key;
    if (!opts.invalidOnPurpose) expect(validator.checkRequest(method, path, opts.body), `${method} ${path}: the script sent what the reference does not allow`).toEqual([]);
    const r = await t.call(method, path, {
      ...(key ? { key } : {}),
      ...(opts.body !== undefined ? { body: opts.body } : {}),
      headers: { 'Svc-Version': version, ...opts.headers },
    });
    const { operation, violations } = validator.check(method, path, r.status, r.body);
    seen.add(`${operation} ${r.status}`);
    expect(violations, `${method} ${path} → ${r.status}: answer not valid under the reference's schema`).toEqual([]);
    if (r.status < 300) expect(r.headers.get('svc-version')).toBe(version);
    return r;
  }
  const wallet = (method: string, path: string, body?: unknown) => api(method, path, { key: env.t.a.walletKey, ...(body !== undefined ? { body } : {}) });

  let merchantId: string;
  const asMerchant = () => ({ 'Merchant-Id': merchantId });
  const createPayment = async (value = '1050') => {
    const r = await api('POST', '/v1/payments', {
      headers: asMerchant(),
      body: { amount: { unit: 'iso4217/USD', value }, referenceId: `compat-${version}-${Math.random()}`, expiresAt: null },
    });
    expect(r.status).toBe(201);
    return r.body.paymentId as string;
  };
  const paidIds: string[] = [];

  it('creates a merchant, reads and updates it, and manages its settlements', async () => {
    const created = await api('POST', '/v1/merchants', {
      headers: { 'Idempotency-Key': `compat-m-${version}-${Math.random()}` },
      body: { merchantName: 'Reference Shop', merchantEmail: 'shop@reference.test' },
    });
    expect(created.status).toBe(201);
    merchantId = created.body.merchant.id;
    expect((await api('GET', '/v1/merchants?limit=5')).status).toBe(200);
    expect((await api('GET', `/v1/merchants?search=${encodeURIComponent('Reference')}&status=active`)).status).toBe(200);
    expect((await api('PATCH', `/v1/merchants/${merchantId}`, { body: { merchantName: 'Reference Shop 2' } })).status).toBe(200);
    const evmDestination = Wallet.createRandom().address;
    const solDestination = Keypair.generate().publicKey.toBase58();
    const settlements = await api('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
      headers: { 'Idempotency-Key': `compat-s-${version}-${Math.random()}` },
      body: {
        settlements: [
          { asset: evmUsdc, destination: `${evmUsdc.split('/')[0]}:${Wallet.createRandom().address}` },
          { asset: solUsdc, destination: `${solUsdc.split('/')[0]}:${solDestination}` },
        ],
      },
    });
    expect(settlements.status).toBe(201);
    const evmSettlement = settlements.body.settlements.find((s: { asset: string }) => s.asset === evmUsdc);
    expect(
      (await api('PUT', `/v1/merchants/${merchantId}/settlements/crypto/${evmSettlement.id}`, { body: { destination: `${evmUsdc.split('/')[0]}:${evmDestination}` } })).status,
    ).toBe(200);
    expect((await api('GET', `/v1/merchants/${merchantId}`)).status).toBe(200);
    expect((await api('GET', `/v1/merchants/${merchantId}/settlements`)).status).toBe(200);
    // A second merchant's settlement, removed again.
    const other = await api('POST', '/v1/merchants', {
      headers: { 'Idempotency-Key': `compat-m2-${version}-${Math.random()}` },
      body: { merchantName: 'Short-lived', merchantEmail: 'gone@reference.test' },
    });
    const s2 = await api('POST', `/v1/merchants/${other.body.merchant.id}/settlements/crypto`, {
      headers: { 'Idempotency-Key': `compat-s2-${version}-${Math.random()}` },
      body: { settlements: [{ asset: evmUsdc, destination: `${evmUsdc.split('/')[0]}:${evmDestination}` }] },
    });
    expect((await api('DELETE', `/v1/merchants/${other.body.merchant.id}/settlements/crypto/${s2.body.settlements[0].id}`)).status).toBe(200);
    expect((await api('DELETE', `/v1/merchants/${other.body.merchant.id}`)).status).toBe(200);
  });

  it('pays on the sandbox EVM chain: payment info → options → sign → confirm → status', async () => {
    const id = await createPayment();
    expect((await wallet('GET', `/v1/gateway/payment/${id}`)).status).toBe(200);
    const buyer = Wallet.createRandom().connect(chains.evm.ethersProvider);
    await chains.evm.fund(buyer.address, evmUsdc.split(':').pop()!, 20_000_000n);
    const options = await wallet('POST', `/v1/gateway/payment/${id}/options?includePaymentInfo=true`, { accounts: [`${chains.evm.caip2}:${buyer.address}`] });
    expect(options.status).toBe(200);
    const option = options.body.options[0];
    expect(option.actions[0].data.method).toBe('eth_signTypedData_v4');
    const signature = await signTypedDataParams(buyer, option.actions[0].data.params);
    const confirmed = await wallet('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=20000`, { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('succeeded');
    expect((await wallet('GET', `/v1/gateway/payment/${id}/status`)).body.status).toBe('succeeded');
    expect((await api('GET', `/v1/payments/${id}/status`, { headers: asMerchant() })).body.isFinal).toBe(true);
    expect((await api('GET', `/v1/payments/${id}`, { headers: asMerchant() })).status).toBe(200);
    paidIds.push(id);
  }, 60_000);

  it('pays on the sandbox Solana: options → fetch → sign → confirm → status', async () => {
    const id = await createPayment('250');
    const buyer = Keypair.generate();
    chains.solana.fund(buyer.publicKey.toBase58(), chains.solana.mint.toBase58(), 5_000_000n);
    const options = await wallet('POST', `/v1/gateway/payment/${id}/options`, { accounts: [`${chains.solana.caip2}:${buyer.publicKey.toBase58()}`] });
    const option = options.body.options[0];
    const fetched = await wallet('POST', `/v1/gateway/payment/${id}/fetch`, { optionId: option.id, data: option.actions[0].data.data });
    expect(fetched.status).toBe(200);
    const tx = Transaction.from(Buffer.from(fetched.body.actions[0].data.params[0].transaction, 'base64'));
    tx.partialSign(buyer);
    const signed = tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
    const confirmed = await wallet('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=20000`, { optionId: option.id, results: [{ type: 'walletRpc', data: [signed] }] });
    expect(confirmed.body.status).toBe('succeeded');
    expect((await wallet('GET', `/v1/gateway/payment/${id}/status?maxPollMs=0`)).body.isFinal).toBe(true);
    expect((await api('GET', `/v1/payments/${id}`, { headers: asMerchant() })).status).toBe(200);
    paidIds.push(id);
  }, 60_000);

  it('lists payments with filters, on the partner list, the merchant list and the deprecated one', async () => {
    expect(paidIds).toHaveLength(2);
    const all = await api('GET', `/v1/payments?merchantId=${merchantId}&status=succeeded&limit=10&sortBy=date&sortDir=desc`);
    expect(all.body.data.map((p: { paymentId?: string; id?: string }) => p.paymentId ?? p.id)).toEqual(expect.arrayContaining(paidIds));
    expect((await api('GET', `/v1/merchants/payments?status=succeeded&network=${encodeURIComponent(chains.evm.caip2)}&limit=1`, { headers: asMerchant() })).status).toBe(200);
    expect((await api('GET', `/v1/merchants/payments?startTs=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`, { headers: asMerchant() })).status).toBe(200);
    expect((await api('GET', `/v1/merchants/${merchantId}/payments?limit=5`)).status).toBe(200);
  });

  it('refunds a paid payment once, and cancels from either side', async () => {
    const refund = () => api('POST', '/v1/refunds', { headers: asMerchant(), body: { paymentId: paidIds[0] } });
    expect((await refund()).status).toBe(200);
    expect((await refund()).status).toBe(409);
    const partnerCancelled = await createPayment();
    expect((await api('POST', `/v1/payments/${partnerCancelled}/cancel`, { headers: asMerchant() })).status).toBe(200);
    const walletCancelled = await createPayment();
    expect((await wallet('POST', `/v1/gateway/payment/${walletCancelled}/cancel`)).status).toBe(200);
  });

  it('answers client mistakes in the reference error shape: bad input, no key, unknown payment, wrong state', async () => {
    expect(
      (await api('POST', '/v1/payments', { headers: asMerchant(), body: { amount: { unit: 'iso4217/USD', value: 'ten' }, referenceId: 'x' }, invalidOnPurpose: true })).status,
    ).toBe(400);
    expect(
      (
        await api('POST', '/v1/merchants', {
          headers: { 'Idempotency-Key': `compat-bad-${Math.random()}` },
          body: { merchantName: '', merchantEmail: 'not an email' },
          invalidOnPurpose: true,
        })
      ).status,
    ).toBe(400);
    expect((await api('GET', '/v1/merchants', { key: null })).status).toBe(401);
    expect((await api('GET', `/v1/payments/${paidIds[0]}`, { key: null, headers: asMerchant() })).status).toBe(401);
    expect((await api('GET', '/v1/merchants', { key: 'sk_test_not_a_real_key' })).status).toBe(401);
    expect((await api('GET', '/v1/payments/pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ', { headers: asMerchant() })).status).toBe(404);
    expect((await wallet('GET', '/v1/gateway/payment/pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ')).status).toBe(404);
    expect((await api('GET', '/v1/merchants/mrch_01ZZZZZZZZZZZZZZZZZZZZZZZZ')).status).toBe(404);
    expect((await api('POST', '/v1/refunds', { headers: asMerchant(), body: { paymentId: 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ' } })).status).toBe(404);
    // Wrong state: a paid payment cannot be cancelled, an unpaid one not refunded.
    expect((await api('POST', `/v1/payments/${paidIds[1]}/cancel`, { headers: asMerchant() })).status).toBeGreaterThanOrEqual(400);
    const unpaid = await createPayment();
    expect((await api('POST', '/v1/refunds', { headers: asMerchant(), body: { paymentId: unpaid } })).status).toBeGreaterThanOrEqual(400);
    expect(
      (await wallet('POST', `/v1/gateway/payment/${unpaid}/confirm`, { optionId: 'opt_unknown', results: [{ type: 'walletRpc', data: ['0x00'] }] })).status,
    ).toBeGreaterThanOrEqual(400);
  });

  it('covered every reference operation', () => {
    const operations = new Set([...seen].map((s) => s.split(' ').slice(0, 2).join(' ')));
    expect(validator.operations().filter((o) => !operations.has(o))).toEqual([]);
  });
});

describe('deviations only the test can see', () => {
  it('are all still needed (so the list stays true)', () => {
    // The OpenAPI comparison keeps the other entries true; entries marked `checkedBy: test` are
    // checked here, against the answers both sessions above validated.
    const used = new Set([...validators.values()].flatMap((v) => [...v.used()]));
    const testOnly = deviations.filter((d) => d.checkedBy === 'test');
    expect(testOnly.filter((d) => !used.has(d)).map((d) => d.key)).toEqual([]);
  });
});
