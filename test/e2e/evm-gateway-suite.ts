// Long because: every EVM payment flow (EIP-3009, Permit2, direct transfer) and its adversarial cases share one set of chains and app per transport, started once.
import { Transaction, Wallet, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTransferTransaction } from '../../adapters/chains/evm/transfer.ts';
import { createKey, createPartner } from '../../server/auth/provisioning.ts';
import type { SandboxChains } from '../../server/composition/sandbox/index.ts';
import { openE2eWorld, type E2eWorld } from '../helpers/e2e-world.ts';
import { sandboxMerchant, signTypedDataParams, type GatewayEnv, type Transport } from '../helpers/gateway-env.ts';

/**
 * End to end on the sandbox EVM with real keys: options → sign/send → confirm → succeeded. Run by
 * one test file per transport: the in-process chain objects, and JSON-RPC over HTTP to the
 * standalone chains server (the adapters built as production builds them).
 */
export function evmGatewaySuite(transport: Transport): void {
  describe(`EVM end to end (${transport})`, () => {
    let world: E2eWorld;
    let chains: SandboxChains;
    let env: GatewayEnv;
    let usdc: string;
    let usdt: string;
    beforeAll(async () => {
      world = await openE2eWorld(transport);
      chains = world.chains;
      env = await world.start();
      usdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
      usdt = chains.assetConfigs().find((a) => a.symbol === 'USDT')!.id;
    }, 120_000);
    afterAll(async () => {
      await env?.close();
      await world?.close();
    });

    const tokenOf = (asset: string) => asset.split(':').pop()!;

    async function buyer(asset: string, tokens: bigint, eth = 0n): Promise<HDNodeWallet> {
      const evm = chains.evm;
      const wallet = Wallet.createRandom().connect(world.evmProvider);
      if (tokens) await evm.fund(wallet.address, tokenOf(asset), tokens);
      if (eth) await evm.fund(wallet.address, null, eth);
      return wallet;
    }

    async function newPayment(t: GatewayEnv['t'], merchantId: string, value = '1050', extra: Record<string, unknown> = {}) {
      const r = await t.call('POST', '/v1/payments', {
        key: t.a.key,
        headers: { 'Merchant-Id': merchantId },
        body: { amount: { unit: 'iso4217/USD', value }, referenceId: `o-${Math.random()}`, ...extra },
      });
      expect(r.status).toBe(201);
      return r.body.paymentId as string;
    }

    const options = (t: GatewayEnv['t'], id: string, accounts: string[]) =>
      t.call('POST', `/v1/gateway/payment/${id}/options?includePaymentInfo=true`, { key: t.a.walletKey, body: { accounts } });
    const confirm = (t: GatewayEnv['t'], id: string, optionId: string, results: string[], maxPollMs = 20_000) =>
      t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=${maxPollMs}`, {
        key: t.a.walletKey,
        body: { optionId, results: results.map((r) => ({ type: 'walletRpc', data: [r] })) },
      });

    describe('EIP-3009 (USDC): one signature, the relayer submits, the buyer pays no gas', () => {
      it('pays exactly the quoted amount to the merchant', async () => {
        const { t } = env;
        const { merchantId, destination } = await sandboxMerchant(t, [usdc]);
        const id = await newPayment(t, merchantId);
        const wallet = await buyer(usdc, 20_000_000n);
        const opts = await options(t, id, [`eip155:31337:${wallet.address}`, `${chains.solana.caip2}:9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM`]);
        expect(opts.status).toBe(200);
        expect(opts.body.info).toMatchObject({ status: 'requires_action', amount: { unit: 'iso4217/USD', value: '1050' }, merchant: { name: 'Sandbox Shop' } });
        expect(opts.body.options).toHaveLength(1);
        const option = opts.body.options[0];
        expect(option).toMatchObject({
          account: `eip155:31337:${wallet.address}`,
          amount: { unit: `caip19/${usdc}`, value: '10500000', display: { assetSymbol: 'USDC', decimals: 6 } },
          etaS: expect.any(Number),
        });
        expect(option.actions).toHaveLength(1);
        expect(option.actions[0]).toMatchObject({ type: 'walletRpc', data: { chain_id: 'eip155:31337', method: 'eth_signTypedData_v4' } });
        const signature = await signTypedDataParams(wallet, option.actions[0].data.params);
        const before = await chains.evm.balanceOf(destination, tokenOf(usdc));
        const r = await confirm(t, id, option.id, [signature]);
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ status: 'succeeded', isFinal: true, info: { txId: expect.stringMatching(/^0x[0-9a-f]{64}$/), optionAmount: { value: '10500000' } } });
        expect((await chains.evm.balanceOf(destination, tokenOf(usdc))) - before).toBe(10_500_000n);
        expect(await chains.evm.balanceOf(wallet.address, null)).toBe(0n);
        const again = await confirm(t, id, option.id, [signature], 0);
        expect(again.body.status).toBe('succeeded');
        const status = await t.call('GET', `/v1/payments/${id}/status`, { key: t.a.key, headers: { 'Merchant-Id': merchantId } });
        expect(status.body.info.txId).toBe(r.body.info.txId);
        // What the relayer paid for it is charged to this partner, once, and to no other.
        const receipt = (await chains.evm.ethersProvider.getTransactionReceipt(r.body.info.txId))!;
        const spent = (await t.storage.feeSpending.totals(t.a.id, new Date(0))).find((c) => c.chain === 'eip155:31337');
        expect(spent?.amount).toBeGreaterThanOrEqual(receipt.gasUsed * receipt.gasPrice);
        expect(await t.storage.feeSpending.spentSince(t.b.id, 'eip155:31337', new Date(0))).toBe(0n);
      }, 60_000);
    });

    describe('who paid: the account and the wallet app, learned from the confirming request', () => {
      it('records the wallet app of the key that confirmed, and shows it to the wallet, the partner and the legacy list', async () => {
        const { t } = env;
        // A wallet team's own account and gateway key, apart from the merchant's partner.
        const team = await createPartner(t.storage, { name: 'Acme Wallet', version: '2026-02-18', live: false, iconUrl: 'https://wallet.example/acme.png' });
        const walletKey = (await createKey(t.storage, { partnerId: team.partner.id, scope: 'wallet', live: false })).apiKey;
        const { merchantId } = await sandboxMerchant(t, [usdc]);
        const id = await newPayment(t, merchantId);
        const wallet = await buyer(usdc, 20_000_000n);
        const account = `eip155:31337:${wallet.address}`;
        expect((await t.call('GET', `/v1/gateway/payment/${id}`, { key: walletKey })).body).not.toHaveProperty('buyer');
        const opts = await t.call('POST', `/v1/gateway/payment/${id}/options`, {
          key: walletKey,
          headers: { 'Sdk-Name': 'acme-pay', 'Sdk-Version': '2.0.0', 'Sdk-Platform': 'ios' },
          body: { accounts: [account] },
        });
        const option = opts.body.options[0];
        const signature = await signTypedDataParams(wallet, option.actions[0].data.params);
        const paid = await t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=20000`, {
          key: walletKey,
          body: { optionId: option.id, results: [{ type: 'walletRpc', data: [signature] }] },
        });
        expect(paid.body.status).toBe('succeeded');
        const who = { accountCaip10: account, accountProviderName: 'Acme Wallet', accountProviderIcon: 'https://wallet.example/acme.png' };
        expect((await t.call('GET', `/v1/gateway/payment/${id}`, { key: walletKey })).body.buyer).toEqual(who);
        const details = await t.call('GET', `/v1/payments/${id}`, { key: t.a.key, headers: { 'Merchant-Id': merchantId } });
        expect(details.body).toMatchObject({ buyer: who, settlement: { successful: { txId: paid.body.info.txId, amount: { unit: `caip19/${usdc}`, value: '10500000' } } } });
        const listed = await t.call('GET', '/v1/merchants/payments', { key: t.a.key, headers: { 'Merchant-Id': merchantId } });
        expect(listed.body.data[0]).toMatchObject({ paymentId: id, isTerminal: true, buyer: who, settlement: { settled: true, txHash: paid.body.info.txId } });
        const legacy = await t.call('GET', `/v1/merchants/${merchantId}/payments`, { headers: { 'X-Api-Key': t.a.key } });
        expect(legacy.body.data[0]).toMatchObject({
          payment_id: id,
          wallet_name: 'Acme Wallet',
          wallet_logo: 'https://wallet.example/acme.png',
          buyer_caip10: account,
          chain_id: '31337',
          tx_hash: paid.body.info.txId,
        });
      }, 60_000);
    });

    describe('Permit2 (USDT): approval then signature — the two-action case', () => {
      it('asks for an approval when the allowance is short, then pays without the buyer paying transfer gas', async () => {
        const { t } = env;
        const { merchantId, destination } = await sandboxMerchant(t, [usdt]);
        const id = await newPayment(t, merchantId, '2500');
        const wallet = await buyer(usdt, 30_000_000n, 10n ** 17n);
        const opts = await options(t, id, [`eip155:31337:${wallet.address}`]);
        const option = opts.body.options[0];
        expect(option.actions.map((a: { data: { method: string } }) => a.data.method)).toEqual(['eth_sendTransaction', 'eth_signTypedData_v4']);
        const approve = await wallet.sendTransaction({ ...option.actions[0].data.params[0], value: 0n });
        await approve.wait();
        const ethAfterApproval = await chains.evm.balanceOf(wallet.address, null);
        const signature = await signTypedDataParams(wallet, option.actions[1].data.params);
        const wrongOrder = await confirm(t, id, option.id, [signature, approve.hash]);
        expect(wrongOrder).toMatchObject({ status: 400, body: { code: 'invalid_results' } });
        const wrongCount = await confirm(t, id, option.id, [signature]);
        expect(wrongCount).toMatchObject({ status: 400, body: { code: 'invalid_results' } });
        const r = await confirm(t, id, option.id, [approve.hash, signature]);
        expect(r.body.status).toBe('succeeded');
        expect(await chains.evm.balanceOf(destination, tokenOf(usdt))).toBe(25_000_000n);
        expect(await chains.evm.balanceOf(wallet.address, null)).toBe(ethAfterApproval);
        // With the allowance in place, the next payment is a single signature.
        const next = await newPayment(t, merchantId, '100');
        const opts2 = await options(t, next, [`eip155:31337:${wallet.address}`]);
        expect(opts2.body.options[0].actions.map((a: { data: { method: string } }) => a.data.method)).toEqual(['eth_signTypedData_v4']);
      }, 60_000);
    });

    describe('DTUSD, the sandbox asset listed for direct transfer only (as configured, no override)', () => {
      it('offers only eth_sendTransaction, even with gas and an allowance in place, and succeeds for the broadcast transfer', async () => {
        const { t } = env;
        const dtusd = chains.assetConfigs().find((a) => a.symbol === 'DTUSD')!;
        expect(dtusd.flows).toEqual(['transfer']);
        const { merchantId, destination } = await sandboxMerchant(t, [dtusd.id]);
        const id = await newPayment(t, merchantId, '1999');
        const wallet = await buyer(dtusd.id, 50_000_000n, 10n ** 17n);
        // An allowance to Permit2 changes nothing: the asset is not offered by Permit2.
        const approve = await wallet.sendTransaction({
          to: tokenOf(dtusd.id),
          data: `0x095ea7b3${chains.evm.permit2Address.slice(2).toLowerCase().padStart(64, '0')}${'f'.repeat(64)}`,
        });
        await approve.wait();
        const opts = await options(t, id, [`eip155:31337:${wallet.address}`]);
        expect(opts.body.options).toHaveLength(1);
        const option = opts.body.options[0];
        expect(option.amount).toMatchObject({ unit: `caip19/${dtusd.id}`, value: '19990000', display: { assetSymbol: 'DTUSD', decimals: 6 } });
        expect(option.actions).toEqual([
          { type: 'walletRpc', data: { chain_id: 'eip155:31337', method: 'eth_sendTransaction', params: [expect.objectContaining({ to: tokenOf(dtusd.id) })] } },
        ]);
        const tx = await wallet.sendTransaction({ ...option.actions[0].data.params[0], value: 0n });
        const r = await confirm(t, id, option.id, [tx.hash]);
        expect(r.body).toMatchObject({ status: 'succeeded', info: { txId: tx.hash.toLowerCase(), optionAmount: { value: '19990000' } } });
        expect(await chains.evm.balanceOf(destination, tokenOf(dtusd.id))).toBe(19_990_000n);
        expect(await chains.evm.balanceOf(wallet.address, tokenOf(dtusd.id))).toBe(50_000_000n - 19_990_000n);
      }, 60_000);
    });

    describe('adversarial signatures and expiry: nothing ends succeeded', () => {
      it('refuses a signature over another amount, destination or payment, leaving the payment payable', async () => {
        const { t } = env;
        const { merchantId } = await sandboxMerchant(t, [usdc]);
        const wallet = await buyer(usdc, 50_000_000n);
        const id = await newPayment(t, merchantId);
        const other = await newPayment(t, merchantId);
        const [opt, otherOpt] = await Promise.all([id, other].map(async (p) => (await options(t, p, [`eip155:31337:${wallet.address}`])).body.options[0]));
        const tamper = (patch: (m: Record<string, unknown>) => void) => {
          const params = [...opt.actions[0].data.params];
          const td = JSON.parse(params[1]);
          patch(td.message);
          params[1] = JSON.stringify(td);
          return signTypedDataParams(wallet, params);
        };
        for (const sig of [
          await tamper((m) => (m.value = '0x1')),
          await tamper((m) => (m.to = Wallet.createRandom().address)),
          await signTypedDataParams(wallet, otherOpt.actions[0].data.params),
          await signTypedDataParams(Wallet.createRandom(), opt.actions[0].data.params),
        ]) {
          const r = await confirm(t, id, opt.id, [sig], 0);
          expect(r).toMatchObject({ status: 400, body: { code: 'invalid_signature' } });
        }
        expect((await t.call('GET', `/v1/gateway/payment/${id}/status`, { key: t.a.walletKey })).body.status).toBe('requires_action');
        expect((await confirm(t, id, otherOpt.id, [await signTypedDataParams(wallet, otherOpt.actions[0].data.params)], 0)).body.code).toBe('option_not_found');
      }, 60_000);

      it('answers 409 quote_expired after the quote deadline and 410 once the payment expired', async () => {
        const short = await world.start({ quoteTtlS: 1 });
        try {
          const { t } = short;
          const { merchantId } = await sandboxMerchant(t, [usdc]);
          const wallet = await buyer(usdc, 50_000_000n);
          const id = await newPayment(t, merchantId, '1050', { expiresAt: Math.floor(Date.now() / 1000) + 4 });
          const opt = (await options(t, id, [`eip155:31337:${wallet.address}`])).body.options[0];
          const sig = await signTypedDataParams(wallet, opt.actions[0].data.params);
          await new Promise((r) => setTimeout(r, 1500));
          expect(await confirm(t, id, opt.id, [sig], 0)).toMatchObject({ status: 409, body: { code: 'quote_expired' } });
          await new Promise((r) => setTimeout(r, 3000));
          expect(await confirm(t, id, opt.id, [sig], 0)).toMatchObject({ status: 410, body: { code: 'payment_expired' } });
          expect(await options(t, id, [`eip155:31337:${wallet.address}`])).toMatchObject({ status: 410, body: { code: 'payment_expired' } });
        } finally {
          await short.close();
        }
      }, 60_000);

      it('offers nothing, with a reason, for accounts on chains the merchant does not accept', async () => {
        const { t } = env;
        const { merchantId } = await sandboxMerchant(t, [usdc]);
        const id = await newPayment(t, merchantId);
        const r = await options(t, id, ['eip155:1:0x1234567890abcdef1234567890abcdef12345678']);
        expect(r.body.options).toEqual([]);
        expect(r.body.details.reason).toMatch(/no account on a chain this merchant accepts/);
      });

      it('resolves a payment link given instead of the id', async () => {
        const { t } = env;
        const { merchantId } = await sandboxMerchant(t, [usdc]);
        const id = await newPayment(t, merchantId);
        for (const link of [`https://pay.example.test/${id}`, `https://pay.example.test/?pid=${id}`, `wc:abc@2?pay=${encodeURIComponent(`https://pay.example.test/?pid=${id}`)}`]) {
          const r = await t.call('GET', `/v1/gateway/payment/${encodeURIComponent(link)}`, { key: t.a.walletKey });
          expect(r.status, link).toBe(200);
        }
        expect((await t.call('GET', `/v1/gateway/payment/${encodeURIComponent(`https://evilpay.example.test/${id}`)}`, { key: t.a.walletKey })).status).toBe(404);
      });
    });

    describe('direct ERC-20 transfer: the wallet broadcasts, the service verifies the hash', () => {
      let direct: GatewayEnv;
      beforeAll(async () => {
        // A registry where USDT is accepted by direct transfer only.
        direct = await world.start({ assets: (a) => a.map((x) => (x.symbol === 'USDT' ? { ...x, flows: ['transfer'] } : x)) });
      }, 60_000);
      afterAll(() => direct?.close());

      async function directPayment(value = '700') {
        const { t } = direct;
        const m = await sandboxMerchant(t, [usdt]);
        const id = await newPayment(t, m.merchantId, value);
        return { ...m, id };
      }

      it('succeeds for a transfer of the quoted amount to the destination', async () => {
        const { t } = direct;
        const { id, destination } = await directPayment();
        const wallet = await buyer(usdt, 10_000_000n, 10n ** 17n);
        const opt = (await options(t, id, [`eip155:31337:${wallet.address}`])).body.options[0];
        expect(opt.actions[0].data.method).toBe('eth_sendTransaction');
        const tx = await wallet.sendTransaction({ ...opt.actions[0].data.params[0], value: 0n });
        const r = await confirm(t, id, opt.id, [tx.hash]);
        expect(r.body).toMatchObject({ status: 'succeeded', info: { txId: tx.hash.toLowerCase() } });
        expect(await chains.evm.balanceOf(destination, tokenOf(usdt))).toBe(7_000_000n);
        // The transaction carries this option's tag after the transfer arguments.
        expect(opt.actions[0].data.params[0].data).toMatch(/^0xa9059cbb[0-9a-f]{192}$/);
        // The same hash cannot pay a second payment: it carries the first option's tag, so confirm refuses it.
        const second = await directPayment();
        const opt2 = (await options(t, second.id, [`eip155:31337:${wallet.address}`])).body.options[0];
        expect(await confirm(t, second.id, opt2.id, [tx.hash], 0)).toMatchObject({ status: 400, body: { code: 'invalid_results', message: expect.stringMatching(/reference/) } });
      }, 60_000);

      it('answers 409 transaction_already_used for a hash another payment holds (confirmed before the node saw it)', async () => {
        const { t } = direct;
        const first = await directPayment();
        const second = await directPayment();
        const wallet = await buyer(usdt, 10_000_000n, 10n ** 17n);
        const opt = (await options(t, first.id, [`eip155:31337:${wallet.address}`])).body.options[0];
        const opt2 = (await options(t, second.id, [`eip155:31337:${wallet.address}`])).body.options[0];
        // Signed, not yet broadcast: the hash is known before any node knows the transaction.
        const raw = await wallet.signTransaction(await wallet.populateTransaction({ ...opt.actions[0].data.params[0], value: 0n }));
        const hash = Transaction.from(raw).hash!;
        expect((await confirm(t, first.id, opt.id, [hash], 0)).body.status).toBe('processing');
        expect(await confirm(t, second.id, opt2.id, [hash], 0)).toMatchObject({ status: 409, body: { code: 'transaction_already_used' } });
        await world.evmProvider.broadcastTransaction(raw);
        await expect.poll(async () => (await t.call('GET', `/v1/gateway/payment/${first.id}/status`, { key: t.a.walletKey })).body.status, { timeout: 15_000 }).toBe('succeeded');
      }, 60_000);

      it('never succeeds for a transfer to the wrong destination, of the wrong token or of less, and gives the payment back', async () => {
        const { t } = direct;
        const usdcToken = tokenOf(usdc);
        // Each case sends something other than what the option asked for.
        const cases: Array<(wallet: HDNodeWallet, destination: string) => { token: string; to: string; value: bigint }> = [
          (_w, _d) => ({ token: tokenOf(usdt), to: Wallet.createRandom().address, value: 7_000_000n }),
          (_w, d) => ({ token: usdcToken, to: d, value: 7_000_000n }),
          (_w, d) => ({ token: tokenOf(usdt), to: d, value: 6_999_999n }),
        ];
        for (const make of cases) {
          const { id, destination } = await directPayment();
          const wallet = await buyer(usdt, 10_000_000n, 10n ** 17n);
          await chains.evm.fund(wallet.address, usdcToken, 10_000_000n);
          const opt = (await options(t, id, [`eip155:31337:${wallet.address}`])).body.options[0];
          // Tagged for this option, so only the transfer itself is wrong: it is seen on chain, then released.
          const reference = `0x${String(opt.actions[0].data.params[0].data).slice(-64)}`;
          const { hash } = await wallet.sendTransaction({ ...buildTransferTransaction({ from: wallet.address, ...make(wallet, destination), reference }), value: 0n });
          expect((await confirm(t, id, opt.id, [hash], 0)).status).toBe(200);
          // Released, not pinned and not succeeded: the buyer may pay it again.
          await expect
            .poll(async () => (await t.call('GET', `/v1/gateway/payment/${id}/status`, { key: t.a.walletKey })).body)
            .toMatchObject({ status: 'requires_action', isFinal: false });
        }
      }, 90_000);
    });
  });
}
