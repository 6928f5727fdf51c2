// A hostile Solana buyer through the gateway, on the in-process sandbox (the chain fault suite's
// Solana row, hostile-solana-buyer.ts, does the same under faults): short of USDC, or returning a
// modified build, it fetches, signs, tries to land the transaction itself with skipPreflight (the
// fee payer has not signed: the chain refuses it), then confirms (the service must refuse). The
// fee payer spends nothing, the merchant gets nothing, the payment is not paid.
import { Keypair, VersionedTransaction } from '@solana/web3.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';
import { withAmount } from '../tools/faults/hostile-solana-buyer.ts';

let chains: SandboxChains;
let env: GatewayEnv;
let spl: string;

beforeAll(async () => {
  chains = await createSandboxChains();
  env = await startGatewayEnv({ chains });
  spl = chains.assetConfigs().find((a) => a.id.startsWith('solana:'))!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

const mint = () => chains.solana.mint.toBase58();
const feePayer = () => chains.solana.feePayer.publicKey.toBase58();

async function solanaPayment() {
  const { t } = env;
  const merchant = Keypair.generate().publicKey.toBase58();
  chains.solana.openTokenAccount(merchant);
  const m = await t.call('POST', '/v1/merchants', {
    key: t.a.key,
    headers: { 'Idempotency-Key': `hm-${Math.random()}` },
    body: { merchantName: 'Shop', merchantEmail: 'shop@hostile.test' },
  });
  const merchantId = m.body.merchant.id as string;
  const s = await t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
    key: t.a.key,
    headers: { 'Idempotency-Key': `hs-${Math.random()}` },
    body: { settlements: [{ asset: spl, destination: `${spl.split('/')[0]}:${merchant}` }] },
  });
  expect(s.status).toBe(201);
  const created = await t.call('POST', '/v1/payments', {
    key: t.a.key,
    headers: { 'Merchant-Id': merchantId },
    body: { amount: { unit: 'iso4217/USD', value: '123' }, referenceId: `h-${Math.random()}` },
  });
  expect(created.status).toBe(201);
  return { id: created.body.paymentId as string, merchant };
}

it.each(['no USDC', 'one base unit short', 'a modified build (amount 1)'] as const)(
  'a buyer with %s cannot land the build alone nor have it confirmed: the fee payer spends nothing, nothing is paid',
  async (variant) => {
    const { t } = env;
    const p = await solanaPayment();
    const buyer = Keypair.generate();
    const account = `${chains.solana.caip2}:${buyer.publicKey.toBase58()}`;
    const opts = await t.call('POST', `/v1/gateway/payment/${p.id}/options`, { key: t.a.walletKey, body: { accounts: [account] } });
    const option = (opts.body.options as Array<{ id: string; amount: { value: string }; actions: Array<{ data: { data: string } }> }>)[0]!;
    const amount = BigInt(option.amount.value);
    if (variant === 'one base unit short') chains.solana.fund(buyer.publicKey.toBase58(), mint(), amount - 1n);
    if (variant === 'a modified build (amount 1)') chains.solana.fund(buyer.publicKey.toBase58(), mint(), amount);
    const fetched = await t.call('POST', `/v1/gateway/payment/${p.id}/fetch`, { key: t.a.walletKey, body: { optionId: option.id, data: option.actions[0]!.data.data } });
    expect(fetched.status).toBe(200);
    const built = fetched.body.actions[0].data.params[0].transaction as string;
    const tx = variant === 'a modified build (amount 1)' ? withAmount(built, 1n) : VersionedTransaction.deserialize(Buffer.from(built, 'base64'));
    tx.sign([buyer]);
    const lamports = chains.solana.balance(feePayer(), null);
    await expect(chains.solana.connection.sendRawTransaction(tx.serialize(), { skipPreflight: true })).rejects.toThrow();
    const confirm = await t.call('POST', `/v1/gateway/payment/${p.id}/confirm?maxPollMs=2000`, {
      key: t.a.walletKey,
      body: { optionId: option.id, results: [{ type: 'walletRpc', data: [Buffer.from(tx.serialize()).toString('base64')] }] },
    });
    expect(confirm.status, JSON.stringify(confirm.body)).toBeGreaterThanOrEqual(400);
    expect(confirm.status).toBeLessThan(500);
    expect(chains.solana.balance(feePayer(), null)).toBe(lamports);
    expect(chains.solana.balance(p.merchant, mint())).toBe(0n);
    expect((await env.t.storage.payments.get(p.id))!.status).toBe('requires_action');
  },
  60_000,
);
