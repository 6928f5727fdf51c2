import { Keypair } from '@solana/web3.js';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * Amounts bounded per asset, on the sandbox chains: a price whose token amount is past what SPL
 * can carry (u64) gets no Solana option, and nothing a wallet then sends to fetch or confirm
 * answers 5xx. Before, options offered the Solana option and its fetch answered 500.
 */
let env: GatewayEnv;
let solUsdc: string;
let evmUsdc: string;

beforeAll(async () => {
  env = await startGatewayEnv();
  solUsdc = env.chains.assetConfigs().find((a) => a.id.startsWith('solana:'))!.id;
  evmUsdc = env.chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
});

describe('an amount the chain cannot carry', () => {
  it('gets no Solana option above u64, the EVM option still, and fetch/confirm answer 4xx', async () => {
    const { t } = env;
    const m = await t.call('POST', '/v1/merchants', {
      key: t.a.key,
      headers: { 'Idempotency-Key': `bm-${Math.random()}` },
      body: { merchantName: 'Big Shop', merchantEmail: 'big@shop.test' },
    });
    const merchantId = m.body.merchant.id as string;
    const settlements = [
      { asset: evmUsdc, destination: `${evmUsdc.split('/')[0]}:${Wallet.createRandom().address}` },
      { asset: solUsdc, destination: `${solUsdc.split('/')[0]}:${Keypair.generate().publicKey.toBase58()}` },
    ];
    expect(
      (await t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, { key: t.a.key, headers: { 'Idempotency-Key': `bs-${Math.random()}` }, body: { settlements } }))
        .status,
    ).toBe(201);
    // 10^18 − 1 cents in a 6-decimal token: 9,999,999,999,999,999,990,000 base units > 2^64 − 1.
    const created = await t.call('POST', '/v1/payments', {
      key: t.a.key,
      headers: { 'Merchant-Id': merchantId },
      body: { amount: { unit: 'iso4217/USD', value: '999999999999999999' }, referenceId: 'huge' },
    });
    expect(created.status).toBe(201);
    const id = created.body.paymentId as string;
    const solAccount = `${env.chains.solana.caip2}:${Keypair.generate().publicKey.toBase58()}`;
    const evmAccount = `${evmUsdc.split('/')[0]}:${Wallet.createRandom().address}`;
    const r = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [solAccount, evmAccount] } });
    expect(r.status).toBe(200);
    expect(r.body.options.map((o: { amount: { unit: string } }) => o.amount.unit)).toEqual([`caip19/${evmUsdc}`]);
    expect(r.body.options[0].amount.value).toBe('9999999999999999990000');
    const solOnly = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts: [solAccount] } });
    expect(solOnly.status).toBe(200);
    expect(solOnly.body.options).toEqual([]);
    expect(solOnly.body.details.reason).toMatch(/carry/);
    // Whatever a wallet sends next is refused with a 4xx, never a 500.
    for (const optionId of ['opt_01KB0000000000000000000000', r.body.options[0].id]) {
      const fetched = await t.call('POST', `/v1/gateway/payment/${id}/fetch`, { key: t.a.walletKey, body: { optionId, data: optionId } });
      expect(fetched.status).toBeGreaterThanOrEqual(400);
      expect(fetched.status).toBeLessThan(500);
      const confirmed = await t.call('POST', `/v1/gateway/payment/${id}/confirm`, { key: t.a.walletKey, body: { optionId, results: [{ type: 'walletRpc', data: ['AAAA'] }] } });
      expect(confirmed.status).toBeGreaterThanOrEqual(400);
      expect(confirmed.status).toBeLessThan(500);
    }
  }, 60_000);
});
