import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { MAX_QUOTED_ACCOUNTS, OPTIONS_PER_PAYMENT_LIMIT } from '../server/domain/gateway/options.ts';
import { systemClock } from '../server/ports/clock.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { sandboxMerchant, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * The gateway is never stricter than the reference where the reference accepts: a wallet sends
 * every account it holds, however many, and what it sends is refused only for what it means
 * (an unknown option, a wrong number of results), bounded by the body limit and by how many
 * accounts are quoted, not by schema counts the reference does not have.
 */
let chains: SandboxChains;
let env: GatewayEnv;
let usdc: string;
beforeAll(async () => {
  chains = await createSandboxChains();
  // As the composition root wires it: options calls limited per payment.
  env = await startGatewayEnv({ chains, optionsPerPayment: createMemoryRateLimiter(OPTIONS_PER_PAYMENT_LIMIT, systemClock) });
  usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

async function newPayment(): Promise<string> {
  const { t } = env;
  const { merchantId } = await sandboxMerchant(t, [usdc]);
  const r = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `lim-${Math.random()}` },
  });
  expect(r.status).toBe(201);
  return r.body.paymentId;
}

const options = (id: string, accounts: string[]) => env.t.call('POST', `/v1/gateway/payment/${id}/options`, { key: env.t.a.walletKey, body: { accounts } });

describe('options take every account a wallet holds', () => {
  it('an empty list gets no options and the reason, not a validation error', async () => {
    const r = await options(await newPayment(), []);
    expect(r.status).toBe(200);
    expect(r.body.options).toEqual([]);
    expect(r.body.details.reason).toMatch(/no account on a chain this merchant accepts/);
  });

  it('hundreds of accounts on many chains: accounts elsewhere are ignored, and at most the bound are quoted', async () => {
    const id = await newPayment();
    const elsewhere = Array.from({ length: 250 }, (_, i) => `cosmos:hub-${i}:cosmos1${'q'.repeat(38)}`);
    const onOtherEvm = Array.from({ length: 20 }, () => `eip155:1:${Wallet.createRandom().address}`);
    const here = Array.from({ length: MAX_QUOTED_ACCOUNTS + 10 }, () => `eip155:31337:${Wallet.createRandom().address}`);
    const r = await options(id, [...elsewhere, ...onOtherEvm, ...here]);
    expect(r.status).toBe(200);
    expect(r.body.options).toHaveLength(MAX_QUOTED_ACCOUNTS);
    expect(r.body.options.map((o: { account: string }) => o.account)).toEqual(here.slice(0, MAX_QUOTED_ACCOUNTS));
    // Asked again, the same quotes come back: the bound holds storage too.
    const again = await options(id, [...elsewhere, ...onOtherEvm, ...here]);
    expect(again.body.options.map((o: { id: string }) => o.id)).toEqual(r.body.options.map((o: { id: string }) => o.id));
  });
});

describe('options calls per payment are bounded', () => {
  it('10 in a row, then 429 rate_limited with Retry-After in the error shape; another payment is not affected', async () => {
    const id = await newPayment();
    const accounts = [`eip155:31337:${Wallet.createRandom().address}`];
    for (let i = 0; i < OPTIONS_PER_PAYMENT_LIMIT.burst; i++) expect((await options(id, accounts)).status).toBe(200);
    // before: 200 every time, each call reading the chain for every account it names.
    const refused = await options(id, accounts);
    expect(refused).toMatchObject({ status: 429, body: { code: 'rate_limited', details: { retryAfterS: 1 } } });
    expect(refused.body.message).toMatch(/options calls for this payment/);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await options(await newPayment(), accounts)).status).toBe(200);
  });
});

describe('confirm and fetch refuse by meaning, not by schema counts', () => {
  it('a wrong number of results is 400 invalid_results; an unknown or huge option id is 404 option_not_found', async () => {
    const id = await newPayment();
    const buyer = Wallet.createRandom();
    const opts = await options(id, [`eip155:31337:${buyer.address}`]);
    const optionId = opts.body.options[0].id as string;
    const confirm = (body: unknown) => env.t.call('POST', `/v1/gateway/payment/${id}/confirm`, { key: env.t.a.walletKey, body });
    expect(await confirm({ optionId, results: [] })).toMatchObject({ status: 400, body: { code: 'invalid_results', details: { expected: 1, received: 0 } } });
    const nine = Array.from({ length: 9 }, () => ({ type: 'walletRpc', data: ['0x00'] }));
    expect(await confirm({ optionId, results: nine })).toMatchObject({ status: 400, body: { code: 'invalid_results', details: { expected: 1, received: 9 } } });
    expect(await confirm({ optionId: `opt_${'Z'.repeat(5000)}`, results: [{ type: 'walletRpc', data: ['0x00'] }] })).toMatchObject({
      status: 404,
      body: { code: 'option_not_found' },
    });
    const fetched = await env.t.call('POST', `/v1/gateway/payment/${id}/fetch`, {
      key: env.t.a.walletKey,
      body: { optionId: `opt_${'Z'.repeat(5000)}`, data: 'x'.repeat(10_000) },
    });
    expect(fetched).toMatchObject({ status: 404, body: { code: 'option_not_found' } });
    expect((await env.t.storage.payments.get(id))!.status).toBe('requires_action');
  });
});
