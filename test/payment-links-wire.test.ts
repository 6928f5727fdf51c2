import { Wallet, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { sandboxMerchant, signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * A wallet written from the reference puts whatever link it scanned into `{id}`: some SDKs
 * percent-encode the link and their HTTP layer encodes the path segment again. Such a wallet
 * pays with the partner's `gatewayUrl` sent that way, through options → confirm, on the sandbox.
 */
let chains: SandboxChains;
let env: GatewayEnv;
let usdc: string;
beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({ chains });
  usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

const twice = (link: string) => encodeURIComponent(encodeURIComponent(link));

async function buyer(tokens: bigint): Promise<HDNodeWallet> {
  const wallet = Wallet.createRandom().connect(chains.evm.ethersProvider);
  await chains.evm.fund(wallet.address, usdc.split(':').pop()!, tokens);
  return wallet;
}

async function newPayment(merchantId: string): Promise<{ paymentId: string; gatewayUrl: string }> {
  const { t } = env;
  const r = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `link-${Math.random()}` },
  });
  expect(r.status).toBe(201);
  return { paymentId: r.body.paymentId, gatewayUrl: r.body.gatewayUrl };
}

describe('a wallet pays with the gatewayUrl percent-encoded twice', () => {
  it('options → sign → confirm on that link, and the partner sees the payment succeeded', async () => {
    const { t } = env;
    const { merchantId, destination } = await sandboxMerchant(t, [usdc]);
    const { paymentId, gatewayUrl } = await newPayment(merchantId);
    expect(gatewayUrl).toBe(`https://pay.example.test/${paymentId}`);
    const ref = twice(gatewayUrl);
    expect(ref).toContain('%253A%252F%252F');
    const wallet = await buyer(20_000_000n);

    const opts = await t.call('POST', `/v1/gateway/payment/${ref}/options?includePaymentInfo=true`, { key: t.a.walletKey, body: { accounts: [`eip155:31337:${wallet.address}`] } });
    expect(opts.status).toBe(200);
    expect(opts.body.info).toMatchObject({ status: 'requires_action', amount: { unit: 'iso4217/USD', value: '1050' } });
    const option = opts.body.options[0];
    const signature = await signTypedDataParams(wallet, option.actions[0].data.params);

    const confirmed = await t.call('POST', `/v1/gateway/payment/${ref}/confirm?maxPollMs=20000`, {
      key: t.a.walletKey,
      body: { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: 'succeeded', isFinal: true });

    const status = await t.call('GET', `/v1/gateway/payment/${ref}/status`, { key: t.a.walletKey });
    expect(status.body).toMatchObject({ status: 'succeeded', isFinal: true });
    const partnerView = await t.call('GET', `/v1/payments/${paymentId}`, { key: t.a.key, headers: { 'Merchant-Id': merchantId } });
    expect(partnerView.body.status).toBe('succeeded');
    expect(await chains.evm.balanceOf(destination, usdc.split(':').pop()!)).toBe(10_500_000n);
  }, 60_000);

  it('every link form resolves once or twice encoded, on every gateway read', async () => {
    const { t } = env;
    const { merchantId } = await sandboxMerchant(t, [usdc]);
    const { paymentId } = await newPayment(merchantId);
    const forms = [
      `https://pay.example.test/${paymentId}`,
      `https://pay.example.test/?pid=${paymentId}`,
      `wc:abc@2?pay=${encodeURIComponent(`https://pay.example.test/?pid=${paymentId}`)}`,
    ];
    const bare = await t.call('GET', `/v1/gateway/payment/${paymentId}`, { key: t.a.walletKey });
    expect(bare.status).toBe(200);
    for (const form of forms) {
      for (const ref of [encodeURIComponent(form), twice(form)]) {
        const r = await t.call('GET', `/v1/gateway/payment/${ref}`, { key: t.a.walletKey });
        expect(r.status, `${form} as ${ref}`).toBe(200);
        expect(r.body).toEqual(bare.body);
        const s = await t.call('GET', `/v1/gateway/payment/${ref}/status`, { key: t.a.walletKey });
        expect(s.status).toBe(200);
        expect(s.body.status).toBe('requires_action');
      }
    }
  }, 60_000);

  it('a link to another host names no payment, however it is encoded', async () => {
    const { t } = env;
    const { merchantId } = await sandboxMerchant(t, [usdc]);
    const { paymentId } = await newPayment(merchantId);
    for (const host of ['evil.example', 'pay.example.test.evil.example', 'pay.example.test@evil.example']) {
      for (const ref of [encodeURIComponent(`https://${host}/${paymentId}`), twice(`https://${host}/${paymentId}`), encodeURIComponent(twice(`https://${host}/${paymentId}`))]) {
        const r = await t.call('POST', `/v1/gateway/payment/${ref}/options`, {
          key: t.a.walletKey,
          body: { accounts: ['eip155:31337:0x000000000000000000000000000000000000dEaD'] },
        });
        expect(r.status, `${host} as ${ref}`).toBe(404);
        expect(r.body.code).toBe('payment_not_found');
      }
    }
  }, 60_000);
});
