import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIVE_QUOTES_PER_PAYMENT, MAX_QUOTED_ACCOUNTS } from '../server/domain/gateway/options.ts';
import { createSandboxChains, type SandboxChains } from '../server/composition/sandbox/index.ts';
import { sandboxMerchant, signTypedDataParams, startGatewayEnv, type GatewayEnv } from './helpers/gateway-env.ts';

/**
 * Issue 30 item 3: one payment's live quotes are capped by evicting the oldest, not by refusing
 * new ones. A caller holding the payment id and naming new accounts on every call cannot grow
 * them past the cap, and cannot lock the real buyer out: the buyer whose quote went hears
 * `quote_expired`, asks again and pays, on the sandbox chain.
 */
let chains: SandboxChains;
let env: GatewayEnv;
let usdc: string;
beforeAll(async () => {
  chains = await createSandboxChains();
  // Not rate-limited here: the cap alone must hold, whatever rate the calls come at.
  env = await startGatewayEnv({ chains });
  usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
}, 120_000);
afterAll(async () => {
  await env?.close();
  await chains?.close();
});

const account = (address: string) => `eip155:31337:${address}`;
const options = (id: string, accounts: string[]) => env.t.call('POST', `/v1/gateway/payment/${id}/options`, { key: env.t.a.walletKey, body: { accounts } });
const confirm = (id: string, optionId: string, results: string[]) =>
  env.t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=20000`, {
    key: env.t.a.walletKey,
    body: { optionId, results: results.map((r) => ({ type: 'walletRpc', data: [r] })) },
  });

describe('live quotes per payment are capped by evicting the oldest', () => {
  it('a hostile caller naming new accounts on every call cannot push them above the cap, and the buyer still pays after asking again', async () => {
    const { t } = env;
    const { merchantId, destination } = await sandboxMerchant(t, [usdc]);
    const created = await t.call('POST', '/v1/payments', {
      key: t.a.key,
      headers: { 'Merchant-Id': merchantId },
      body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `cap-${Math.random()}` },
    });
    expect(created.status).toBe(201);
    const id = created.body.paymentId as string;
    const buyer = Wallet.createRandom();
    await chains.evm.fund(buyer.address, usdc.split(':').pop()!, 20_000_000n);
    const first = await options(id, [account(buyer.address)]);
    expect(first.body.options).toHaveLength(1);
    const stale = first.body.options[0];

    // K hostile calls, each naming the most accounts one call quotes, all new: one quote each (one asset).
    const calls = Math.ceil((2 * DEFAULT_LIVE_QUOTES_PER_PAYMENT) / MAX_QUOTED_ACCOUNTS);
    let most = 0;
    for (let k = 0; k < calls; k++) {
      const hostile = Array.from({ length: MAX_QUOTED_ACCOUNTS }, () => account(Wallet.createRandom().address));
      const r = await options(id, hostile);
      expect(r.status).toBe(200);
      // Each answer's options are all still live: nothing offered was evicted by its own call.
      const live = new Set((await t.storage.quotes.live(id, new Date())).map((q) => q.optionId));
      for (const o of r.body.options as Array<{ id: string }>) expect(live.has(o.id)).toBe(true);
      most = Math.max(most, live.size);
    }
    // before: 401 live quotes after 8 calls (1 + 8 × 50), growing with every call; after: 200.
    expect(most).toBe(DEFAULT_LIVE_QUOTES_PER_PAYMENT);

    // The buyer's quote, the oldest, was evicted: fetch and confirm say ask again, nothing moves.
    const signature = await signTypedDataParams(buyer, stale.actions[0].data.params);
    const fetched = await t.call('POST', `/v1/gateway/payment/${id}/fetch`, { key: t.a.walletKey, body: { optionId: stale.id, data: stale.id } });
    expect(fetched).toMatchObject({ status: 409, body: { code: 'quote_expired' } });
    expect(await confirm(id, stale.id, [signature])).toMatchObject({ status: 409, body: { code: 'quote_expired' } });

    // Asking again gives a fresh quote, and the buyer pays it on the chain.
    const again = await options(id, [account(buyer.address)]);
    const option = again.body.options[0];
    expect(option.id).not.toBe(stale.id);
    const before = await chains.evm.balanceOf(destination, usdc.split(':').pop()!);
    const paid = await confirm(id, option.id, [await signTypedDataParams(buyer, option.actions[0].data.params)]);
    expect(paid).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect((await chains.evm.balanceOf(destination, usdc.split(':').pop()!)) - before).toBe(10_500_000n);
    // The chosen quote stays whatever the flood after it.
    await options(
      id,
      Array.from({ length: MAX_QUOTED_ACCOUNTS }, () => account(Wallet.createRandom().address)),
    ).catch(() => null);
    expect((await t.storage.quotes.get(id, option.id))?.optionId).toBe(option.id);
  }, 120_000);
});
