import { Keypair, Transaction } from '@solana/web3.js';
import { Wallet, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * Payments priced in a token (`caip19/<asset>` units, as the reference allows), end to end on the
 * sandbox chains: no FX, options only in that asset, the exact base-unit amount moved to the
 * merchant, and every view (details, status, list, webhook snapshot, gateway info) showing it.
 */
let chains: SandboxChains;
let env: GatewayEnv;
const asset = { usdc: '', usdt: '', dtusd: '', solUsdc: '' };

beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({ chains });
  const configs = chains.assetConfigs();
  asset.usdc = configs.find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155:'))!.id;
  asset.usdt = configs.find((a) => a.symbol === 'USDT')!.id;
  asset.dtusd = configs.find((a) => a.symbol === 'DTUSD')!.id;
  asset.solUsdc = configs.find((a) => a.id.startsWith('solana:'))!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

type T = GatewayEnv['t'];
const tokenOf = (id: string) => id.split(':').pop()!;
const solMint = () => chains.solana.mint.toBase58();

/** A merchant settling in every sandbox asset: EVM ones to one random address, Solana to a fresh key. */
async function merchant(t: T) {
  const evm = Wallet.createRandom().address;
  const sol = Keypair.generate().publicKey.toBase58();
  const m = await t.call('POST', '/v1/merchants', {
    key: t.a.key,
    headers: { 'Idempotency-Key': `tm-${Math.random()}` },
    body: { merchantName: 'Token Shop', merchantEmail: 'shop@token.test' },
  });
  const merchantId = m.body.merchant.id as string;
  const settlements = Object.values(asset).map((a) => ({ asset: a, destination: `${a.split('/')[0]}:${a.startsWith('solana:') ? sol : evm}` }));
  const s = await t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, { key: t.a.key, headers: { 'Idempotency-Key': `ts-${Math.random()}` }, body: { settlements } });
  expect(s.status).toBe(201);
  return { merchantId, evm, sol };
}

const create = (t: T, merchantId: string, unit: string, value: string) =>
  t.call('POST', '/v1/payments', { key: t.a.key, headers: { 'Merchant-Id': merchantId }, body: { amount: { unit, value }, referenceId: `tp-${Math.random()}` } });

async function priced(t: T, merchantId: string, assetId: string, value: string) {
  const r = await create(t, merchantId, `caip19/${assetId}`, value);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.paymentId as string;
}

const options = (t: T, id: string, accounts: string[]) => t.call('POST', `/v1/gateway/payment/${id}/options?includePaymentInfo=true`, { key: t.a.walletKey, body: { accounts } });
const confirm = (t: T, id: string, optionId: string, results: string[]) =>
  t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=20000`, { key: t.a.walletKey, body: { optionId, results: results.map((r) => ({ type: 'walletRpc', data: [r] })) } });

async function evmBuyer(assetId: string, tokens: bigint): Promise<HDNodeWallet> {
  const wallet = Wallet.createRandom().connect(chains.evm.ethersProvider);
  await chains.evm.fund(wallet.address, tokenOf(assetId), tokens);
  await chains.evm.fund(wallet.address, null, 10n ** 17n);
  return wallet;
}

/** What a wallet does with each EVM action, in order: sign typed data, or send the transaction. */
async function runEvmActions(wallet: HDNodeWallet, actions: Array<{ data: { method: string; params: any[] } }>): Promise<string[]> {
  const results: string[] = [];
  for (const a of actions) {
    if (a.data.method === 'eth_signTypedData_v4') results.push(await signTypedDataParams(wallet, a.data.params));
    else if (a.data.method === 'eth_sendTransaction') {
      const tx = await wallet.sendTransaction({ ...a.data.params[0], value: 0n });
      await tx.wait();
      results.push(tx.hash);
    } else throw new Error(`unexpected method ${a.data.method}`);
  }
  return results;
}

describe('an EVM payment priced in a token, for each of the three EVM flows', () => {
  // 12.345678 of a 6-decimal token: an amount no USD price would produce, so any FX would show.
  const VALUE = '12345678';
  it.each([
    ['USDC (EIP-3009)', 'usdc', ['eth_signTypedData_v4']],
    ['USDT (Permit2, approval first)', 'usdt', ['eth_sendTransaction', 'eth_signTypedData_v4']],
    ['DTUSD (direct transfer)', 'dtusd', ['eth_sendTransaction']],
  ] as const)(
    '%s: one option in that asset only, paid exactly, succeeded everywhere',
    async (_label, key, methods) => {
      const { t } = env;
      const assetId = asset[key];
      const m = await merchant(t);
      const id = await priced(t, m.merchantId, assetId, VALUE);
      const wallet = await evmBuyer(assetId, 20_000_000n);
      const solBuyer = Keypair.generate();
      // Both a second EVM account and a Solana one: only EVM accounts get an option, one each, in this asset.
      const other = Wallet.createRandom().address;
      const opts = await options(t, id, [`eip155:31337:${wallet.address}`, `eip155:31337:${other}`, `${chains.solana.caip2}:${solBuyer.publicKey.toBase58()}`]);
      expect(opts.status).toBe(200);
      expect(opts.body.info.amount).toMatchObject({ unit: `caip19/${assetId}`, value: VALUE, display: { decimals: 6 } });
      expect(opts.body.options.map((o: { account: string; amount: { unit: string; value: string } }) => [o.account, o.amount.unit, o.amount.value])).toEqual([
        [`eip155:31337:${wallet.address}`, `caip19/${assetId}`, VALUE],
        [`eip155:31337:${other}`, `caip19/${assetId}`, VALUE],
      ]);
      const option = opts.body.options[0];
      expect(option.actions.map((a: { data: { method: string } }) => a.data.method)).toEqual(methods);
      const before = await chains.evm.balanceOf(m.evm, tokenOf(assetId));
      const r = await confirm(t, id, option.id, await runEvmActions(wallet, option.actions));
      expect(r.body).toMatchObject({ status: 'succeeded', isFinal: true, info: { optionAmount: { unit: `caip19/${assetId}`, value: VALUE } } });
      expect((await chains.evm.balanceOf(m.evm, tokenOf(assetId))) - before).toBe(12_345_678n);
      expect(await chains.evm.balanceOf(wallet.address, tokenOf(assetId))).toBe(20_000_000n - 12_345_678n);

      const headers = { 'Merchant-Id': m.merchantId };
      const details = await t.call('GET', `/v1/payments/${id}`, { key: t.a.key, headers });
      expect(details.body).not.toHaveProperty('fiatAmount');
      expect(details.body).toMatchObject({
        status: 'succeeded',
        tokenAmount: { unit: `caip19/${assetId}`, value: VALUE },
        settlement: { successful: { txId: expect.stringMatching(/^0x[0-9a-f]{64}$/), amount: { unit: `caip19/${assetId}`, value: VALUE } } },
      });
      const status = await t.call('GET', `/v1/payments/${id}/status`, { key: t.a.key, headers });
      expect(status.body).toMatchObject({ status: 'succeeded', info: { optionAmount: { unit: `caip19/${assetId}`, value: VALUE } } });
    },
    90_000,
  );
});

describe('a Solana payment priced in the sandbox SPL token', () => {
  it('offers only the Solana account, in that token, and moves exactly the price', async () => {
    const { t } = env;
    const m = await merchant(t);
    const id = await priced(t, m.merchantId, asset.solUsdc, '3000001');
    const buyer = Keypair.generate();
    chains.solana.fund(buyer.publicKey.toBase58(), solMint(), 5_000_000n);
    const account = `${chains.solana.caip2}:${buyer.publicKey.toBase58()}`;
    const opts = await options(t, id, [`eip155:31337:${Wallet.createRandom().address}`, account]);
    expect(opts.body.options).toHaveLength(1);
    const option = opts.body.options[0];
    expect(option).toMatchObject({ account, amount: { unit: `caip19/${asset.solUsdc}`, value: '3000001' }, actions: [{ type: 'build' }] });
    const fetched = await t.call('POST', `/v1/gateway/payment/${id}/fetch`, { key: t.a.walletKey, body: { optionId: option.id, data: option.actions[0].data.data } });
    expect(fetched.status).toBe(200);
    const tx = Transaction.from(Buffer.from(fetched.body.actions[0].data.params[0].transaction as string, 'base64'));
    tx.partialSign(buyer);
    const r = await confirm(t, id, option.id, [tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64')]);
    expect(r.body).toMatchObject({ status: 'succeeded', info: { optionAmount: { value: '3000001' } } });
    expect(chains.solana.balance(m.sol, solMint())).toBe(3_000_001n);
    expect(chains.solana.balance(buyer.publicKey.toBase58(), solMint())).toBe(1_999_999n);
  }, 60_000);
});

describe('what a payment priced in a token shows before it is paid', () => {
  it('details, lists, the created event and the gateway carry the token price and no fiat amount', async () => {
    const { t } = env;
    const m = await merchant(t);
    const id = await priced(t, m.merchantId, asset.usdc, '1000000');
    const headers = { 'Merchant-Id': m.merchantId };
    const expected = { unit: `caip19/${asset.usdc}`, value: '1000000', display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6, networkName: 'Sandbox EVM' } };
    const details = await t.call('GET', `/v1/payments/${id}`, { key: t.a.key, headers });
    expect(details.body).not.toHaveProperty('fiatAmount');
    expect(details.body.tokenAmount).toEqual(expected);
    expect(details.body).not.toHaveProperty('info');
    const list = await t.call('GET', '/v1/merchants/payments', { key: t.a.key, headers });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).not.toHaveProperty('fiatAmount');
    expect(list.body.data[0].tokenAmount).toEqual(expected);
    // Revenue is per fiat currency: a token price adds to none.
    expect(list.body.stats.totalRevenue).toEqual([]);
    const [created] = await t.storage.payments.events(id);
    expect(created!.data).not.toHaveProperty('fiatAmount');
    expect((created!.data as { tokenAmount: unknown }).tokenAmount).toEqual(expected);
    expect((await t.call('GET', `/v1/gateway/payment/${id}`, { key: t.a.walletKey })).body.amount).toEqual(expected);
    const page = await fetch(`${t.url}/${id}`); // payBaseUrl has no path: pages sit at the root
    expect(await page.text()).toContain('1 USDC');
  });

  it('accepts the token address in any letter case, stored under the registry id', async () => {
    const { t } = env;
    const m = await merchant(t);
    const lower = asset.usdc.replace(/0x[0-9a-fA-F]{40}$/, (a) => a.toLowerCase());
    expect(lower).not.toBe(asset.usdc);
    const id = await priced(t, m.merchantId, lower, '500');
    const details = await t.call('GET', `/v1/payments/${id}`, { key: t.a.key, headers: { 'Merchant-Id': m.merchantId } });
    expect(details.body.tokenAmount.unit).toBe(`caip19/${asset.usdc}`);
  });
});

describe('refused token prices: 400 params_validation naming the field', () => {
  it.each([
    ['an asset this service does not list', () => 'caip19/eip155:31337/erc20:0x000000000000000000000000000000000000dEaD', '1', 'amount.unit'],
    ['a chain this service does not run', () => 'caip19/eip155:1/erc20:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', '1', 'amount.unit'],
    ['a malformed asset id', () => 'caip19/usdc', '1', 'amount.unit'],
    ['zero', () => `caip19/${asset.usdc}`, '0', 'amount.value'],
    ['more than an SPL transfer can carry (u64)', () => `caip19/${asset.solUsdc}`, (2n ** 64n).toString(), 'amount.value'],
    ['more than an ERC-20 transfer can carry (uint256)', () => `caip19/${asset.usdc}`, (2n ** 256n).toString(), 'amount.value'],
  ])('refuses %s', async (_label, unit, value, field) => {
    const { t } = env;
    const m = await merchant(t);
    const r = await create(t, m.merchantId, unit(), value);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'params_validation', message: expect.any(String) });
    expect(r.body.issues.map((i: { field: string }) => i.field)).toContain(field);
  });

  it('accepts the largest amount a transfer can carry', async () => {
    const { t } = env;
    const m = await merchant(t);
    expect((await create(t, m.merchantId, `caip19/${asset.solUsdc}`, (2n ** 64n - 1n).toString())).status).toBe(201);
  });

  it('refuses an asset the merchant has no settlement destination for, and creates nothing', async () => {
    const { t } = env;
    const only = await t.call('POST', '/v1/merchants', {
      key: t.a.key,
      headers: { 'Idempotency-Key': `to-${Math.random()}` },
      body: { merchantName: 'USDC only', merchantEmail: 'only@token.test' },
    });
    const merchantId = only.body.merchant.id as string;
    await t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
      key: t.a.key,
      headers: { 'Idempotency-Key': `to-${Math.random()}` },
      body: { settlements: [{ asset: asset.usdc, destination: `eip155:31337:${Wallet.createRandom().address}` }] },
    });
    const r = await create(t, merchantId, `caip19/${asset.dtusd}`, '1000');
    expect(r).toMatchObject({ status: 400, body: { code: 'params_validation', issues: [{ field: 'amount.unit', message: expect.stringMatching(/no settlement destination/) }] } });
    const list = await t.call('GET', '/v1/merchants/payments', { key: t.a.key, headers: { 'Merchant-Id': merchantId } });
    expect(list.body.data).toEqual([]);
    // The same merchant takes fiat prices and prices in the asset it settles in.
    expect((await create(t, merchantId, 'iso4217/USD', '100')).status).toBe(201);
    expect((await create(t, merchantId, `caip19/${asset.usdc}`, '100')).status).toBe(201);
  });
});
