import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@solana/web3.js';
import { Wallet } from 'ethers';
import type { RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient, type PartnerClient } from '../clients/partner/src/index.ts';
import { createSandboxChains, createSandboxRouter, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { formatAmount, fromBaseUnits } from '../tools/demo-wallet/format.ts';
import { paymentIdFromLink } from '../tools/demo-wallet/link.ts';
import { startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * The demo wallet end to end: a payment made with the partner client, paid by `npm run wallet`
 * as a child process against the whole service on the sandbox chains (with `/sandbox` mounted,
 * as in sandbox mode), then seen `succeeded` by the partner.
 */
const CLI = fileURLToPath(new URL('../tools/demo-wallet/cli.ts', import.meta.url));

let chains: SandboxChains;
let env: GatewayEnv;
let partner: PartnerClient;
const asset = { usdc: '', usdt: '', dtusd: '', solUsdc: '' };

beforeAll(async () => {
  chains = await createSandboxChains();
  // The router needs the service's URL, known only once the app listens: route through a holder.
  const holder: { routes?: RequestHandler } = {};
  env = await startGatewayEnv({ chains, extraRoutes: (req, res, next) => (holder.routes ? holder.routes(req, res, next) : next()) });
  holder.routes = createSandboxRouter(chains, { publicBaseUrl: env.t.url });
  partner = createPartnerClient({ baseUrl: env.t.url, apiKey: env.t.a.key });
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

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI without BASE_URL/WALLET_API_KEY from the outer environment; async, since the service lives in this process. */
function runWallet(args: string[]): Promise<Run> {
  const childEnv = { ...process.env };
  delete childEnv.BASE_URL;
  delete childEnv.WALLET_API_KEY;
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { env: childEnv, timeout: 90_000 }, (_error, stdout, stderr) => {
      resolve({ code: child.exitCode, stdout, stderr });
    });
  });
}

/** A merchant settling in the given assets (EVM and Solana destinations), and one payment. */
async function newPayment(assets: string[], value = '1050', expiresAt: number | null = null, unit = 'iso4217/USD') {
  const evmDestination = Wallet.createRandom().address;
  const solanaDestination = Keypair.generate().publicKey.toBase58();
  const merchant = await partner.merchants.create({ merchantName: 'Demo Shop', merchantEmail: 'shop@demo.test' });
  await partner.settlements.create(
    merchant.id,
    assets.map((a) => {
      const chain = a.split('/')[0]!;
      return { asset: a, destination: `${chain}:${chain.startsWith('solana:') ? solanaDestination : evmDestination}` };
    }),
  );
  const payment = await partner.payments.create(merchant.id, { amount: { unit, value }, referenceId: `demo-${Math.random()}`, expiresAt });
  return { merchantId: merchant.id, payment, evmDestination, solanaDestination };
}

const walletArgs = (link: string, ...extra: string[]) => ['pay', link, '--base-url', env.t.url, '--api-key', env.t.a.walletKey, ...extra];
const tokenOf = (caip19: string) => caip19.split(':').pop()!;

describe('demo wallet pays on the sandbox', () => {
  it('USDC by EIP-3009: one signature, exit 0, the partner sees succeeded', async () => {
    const { merchantId, payment, evmDestination } = await newPayment([asset.usdc]);
    const run = await runWallet(walletArgs(payment.gatewayUrl));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Payment ${payment.paymentId}: 10.50 USD to Demo Shop (requires_action`);
    expect(run.stdout).toMatch(
      /Options offered \(1\):\n {2}1\. 10\.5 USDC on Sandbox EVM {2}asset eip155:31337\/erc20:0x[0-9a-fA-F]{40} {2}account eip155:31337:0x[0-9a-fA-F]{40} {2}actions: eth_signTypedData_v4\n/,
    );
    expect(run.stdout).toMatch(/Option chosen: 10\.5 USDC on Sandbox EVM/);
    expect(run.stdout).toMatch(/Faucet: 10\.5 USDC on Sandbox EVM to eip155:31337:0x/);
    expect(run.stdout).not.toContain('for gas');
    expect(run.stdout).toMatch(/Actions \(1\):\n {2}1\/1 eth_signTypedData_v4 on eip155:31337 \(sign TransferWithAuthorization\)/);
    expect(run.stdout).toMatch(/Confirm: succeeded \(final\)/);
    expect(run.stdout).toMatch(/Final status: succeeded, transaction 0x[0-9a-f]{64}, 10\.5 USDC/);
    const final = await partner.payments.waitForFinal(merchantId, payment.paymentId, { timeoutMs: 10_000 });
    expect(final.status).toBe('succeeded');
    expect(await chains.evm.balanceOf(evmDestination, tokenOf(asset.usdc))).toBe(10_500_000n);
  }, 120_000);

  it('USDT by Permit2: approval transaction then signature, gas from the faucet; a ?pid= link works', async () => {
    const { merchantId, payment, evmDestination } = await newPayment([asset.usdt], '2500');
    const link = `https://pay.example.test/?pid=${payment.paymentId}`;
    const run = await runWallet(walletArgs(link, '--asset', asset.usdt));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('actions: eth_sendTransaction + eth_signTypedData_v4');
    expect(run.stdout).toMatch(/Faucet: 0\.1 ETH for gas/);
    expect(run.stdout).toMatch(
      /Actions \(2\):\n {2}1\/2 eth_sendTransaction on eip155:31337 \(transaction to 0x[0-9a-fA-F]{40}\)\n {2}2\/2 eth_signTypedData_v4 on eip155:31337 \(sign PermitWitnessTransferFrom\)/,
    );
    expect(run.stdout).toMatch(/result 1: 0x[0-9a-f]{16}/);
    expect(run.stdout).toMatch(/Final status: succeeded/);
    expect((await partner.payments.waitForFinal(merchantId, payment.paymentId, { timeoutMs: 10_000 })).status).toBe('succeeded');
    expect(await chains.evm.balanceOf(evmDestination, tokenOf(asset.usdt))).toBe(25_000_000n);
  }, 120_000);

  it('DTUSD by direct transfer, priced in DTUSD itself: one transaction the wallet broadcasts, gas from the faucet', async () => {
    const { merchantId, payment, evmDestination } = await newPayment([asset.usdc, asset.dtusd], '2500000', null, `caip19/${asset.dtusd}`);
    const run = await runWallet(walletArgs(payment.gatewayUrl));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // Priced in DTUSD: USDC is not offered although the merchant settles in it.
    expect(run.stdout).toMatch(/Options offered \(1\):\n {2}1\. 2\.5 DTUSD on Sandbox EVM .* actions: eth_sendTransaction\n/);
    expect(run.stdout).toMatch(/Faucet: 0\.1 ETH for gas/);
    expect(run.stdout).toMatch(/Actions \(1\):\n {2}1\/1 eth_sendTransaction on eip155:31337/);
    expect(run.stdout).toMatch(/Final status: succeeded/);
    expect((await partner.payments.waitForFinal(merchantId, payment.paymentId, { timeoutMs: 10_000 })).status).toBe('succeeded');
    expect(await chains.evm.balanceOf(evmDestination, tokenOf(asset.dtusd))).toBe(2_500_000n);
  }, 120_000);

  it('Solana USDC: --asset picks the Solana option among both; the buyer only signs, no SOL funded', async () => {
    const { merchantId, payment, solanaDestination } = await newPayment([asset.usdc, asset.solUsdc], '700');
    const run = await runWallet(walletArgs(payment.gatewayUrl, '--asset', asset.solUsdc));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Options offered \(2\):/);
    expect(run.stdout).toContain(`Option chosen: 7 USDC on Sandbox Solana (${asset.solUsdc}) from solana:sandbox:`);
    expect(run.stdout).not.toContain('for gas');
    expect(run.stdout).toContain('actions: build');
    expect(run.stdout).toContain('Fetch: 1 build action(s) resolved by the gateway into 1 wallet call(s)');
    expect(run.stdout).toMatch(/1\/1 solana_signTransaction on solana:sandbox/);
    expect(run.stdout).toMatch(/Final status: succeeded/);
    expect((await partner.payments.waitForFinal(merchantId, payment.paymentId, { timeoutMs: 10_000 })).status).toBe('succeeded');
    expect(chains.solana.balance(solanaDestination, tokenOf(asset.solUsdc))).toBe(7_000_000n);
  }, 120_000);
});

describe('demo wallet failures: exit 1 with the reason on stderr, no stack trace', () => {
  it('a bad wallet key answers invalid_api_key', async () => {
    const { payment } = await newPayment([asset.usdc]);
    const run = await runWallet(['pay', payment.gatewayUrl, '--base-url', env.t.url, '--api-key', 'wk_not_a_real_key']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: invalid_api_key \(HTTP 401\)/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).not.toContain('Final status');
  }, 60_000);

  it('an expired payment answers payment_expired', async () => {
    const { payment } = await newPayment([asset.usdc], '1050', Math.floor(Date.now() / 1000) + 2);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const run = await runWallet(walletArgs(payment.gatewayUrl));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: payment_expired \(HTTP 410\): the payment has expired/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('usage mistakes exit 2: no wallet key, a link that is not a payment', async () => {
    const noKey = await runWallet(['pay', 'pay_01M81J7YP4A22T3XZPSKQV9K8D', '--base-url', env.t.url]);
    expect(noKey).toMatchObject({ code: 2, stderr: expect.stringContaining('no wallet key') });
    const notLink = await runWallet(walletArgs('https://pay.example.test/a/b'));
    expect(notLink).toMatchObject({ code: 2, stderr: expect.stringContaining('not a payment link (invalid_payment_id)') });
  }, 60_000);
});

describe('demo wallet link and amount reading', () => {
  const id = 'pay_01M81J7YP4A22T3XZPSKQV9K8D';

  it('takes every link form the service hands out, trusting the link host unless --pay-host pins one', () => {
    for (const link of [
      id,
      `https://pay.example/${id}`,
      `https://pay.example/?pid=${id}`,
      `http://localhost:3000/pay/${id}`,
      `wc:abc@2?pay=${encodeURIComponent(`https://pay.example/?pid=${id}`)}`,
    ]) {
      expect(paymentIdFromLink(link), link).toBe(id);
    }
    expect(paymentIdFromLink(`http://localhost:3000/pay/${id}`, 'localhost:3000')).toBe(id);
    expect(() => paymentIdFromLink(`https://evilpay.example/${id}`, 'pay.example')).toThrow('untrusted_host');
    expect(() => paymentIdFromLink(`http://localhost:3001/pay/${id}`, 'localhost:3000')).toThrow('untrusted_host');
    expect(() => paymentIdFromLink('https://pay.example/order-42')).toThrow('invalid_payment_id');
    expect(() => paymentIdFromLink('wc:abc@2?relay-protocol=irn')).toThrow('not a payment link');
  });

  it('prints exact amounts from base units', () => {
    expect([fromBaseUnits('10500000', 6), fromBaseUnits('7', 6), fromBaseUnits('100000000000000000', 18), fromBaseUnits('1050', 0)]).toEqual(['10.5', '0.000007', '0.1', '1050']);
    expect(formatAmount({ unit: 'iso4217/USD', value: '1050' })).toBe('10.50 USD');
    expect(formatAmount({ unit: 'iso4217/JPY', value: '1050' })).toBe('1050 JPY');
    expect(formatAmount({ unit: 'caip19/x', value: '2500000', display: { assetSymbol: 'USDT', assetName: 'Tether', decimals: 6, networkName: 'Sandbox EVM' } })).toBe(
      '2.5 USDT on Sandbox EVM',
    );
  });
});
