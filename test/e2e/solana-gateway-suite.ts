// Long because: the Solana flow, its adversarial results and finality cases share one set of chains and app per transport, started once.
import { Keypair, SystemProgram, Transaction, VersionedTransaction } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawSign } from '../../adapters/chains/solana/test-fixtures.ts';
import type { SandboxChains } from '../../server/composition/sandbox/index.ts';
import { openE2eWorld, type E2eWorld } from '../helpers/e2e-world.ts';
import type { GatewayEnv, Transport } from '../helpers/gateway-env.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * End to end on the sandbox Solana with real keypairs: options → fetch → sign → confirm → succeeded.
 * Run by one test file per transport: the in-process LiteSVM connection, and JSON-RPC over HTTP to
 * the standalone chains server (the adapter built as production builds it).
 */
export function solanaGatewaySuite(transport: Transport): void {
  describe(`Solana end to end (${transport})`, () => {
    let world: E2eWorld;
    let chains: SandboxChains;
    let env: GatewayEnv;
    let solUsdc: string;
    let evmUsdc: string;
    /** Every action the gateway answered in this file, to check no method is a sign-and-send. */
    const seen: Array<{ type: string; data: Record<string, unknown> }> = [];

    beforeAll(async () => {
      world = await openE2eWorld(transport);
      chains = world.chains;
      env = await world.start();
      solUsdc = chains.assetConfigs().find((a) => a.id.startsWith('solana:'))!.id;
      evmUsdc = chains.assetConfigs().find((a) => a.symbol === 'USDC' && a.id.startsWith('eip155'))!.id;
    }, 120_000);
    afterAll(async () => {
      await env?.close();
      await world?.close();
    });

    const sol = () => chains.solana;
    const mint = () => chains.solana.mint.toBase58();
    const solAccount = (k: Keypair) => `${sol().caip2}:${k.publicKey.toBase58()}`;
    type T = GatewayEnv['t'];

    /** A merchant settled in `assets`: EVM ones to a random address, Solana ones to a fresh keypair's address. */
    async function merchant(t: T, assets: string[]) {
      const evmDestination = Wallet.createRandom().address;
      const solDestination = Keypair.generate().publicKey.toBase58();
      // Only a destination whose token account exists is payable (the fee payer funds no rent).
      if (assets.some((a) => a.startsWith('solana:'))) sol().openTokenAccount(solDestination);
      const m = await t.call('POST', '/v1/merchants', {
        key: t.a.key,
        headers: { 'Idempotency-Key': `sm-${Math.random()}` },
        body: { merchantName: 'Solana Shop', merchantEmail: 'shop@solana.test' },
      });
      const merchantId = m.body.merchant.id as string;
      const settlements = assets.map((asset) => ({ asset, destination: `${asset.split('/')[0]}:${asset.startsWith('solana:') ? solDestination : evmDestination}` }));
      const s = await t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, {
        key: t.a.key,
        headers: { 'Idempotency-Key': `ss-${Math.random()}` },
        body: { settlements },
      });
      if (s.status !== 201) throw new Error(JSON.stringify(s.body));
      return { merchantId, evmDestination, solDestination };
    }

    /** A buyer holding `tokens` base units of the sandbox USDC and no SOL at all. */
    function buyer(tokens: bigint): Keypair {
      const k = Keypair.generate();
      if (tokens) sol().fund(k.publicKey.toBase58(), mint(), tokens);
      return k;
    }

    async function newPayment(t: T, merchantId: string, value = '1050') {
      const r = await t.call('POST', '/v1/payments', {
        key: t.a.key,
        headers: { 'Merchant-Id': merchantId },
        body: { amount: { unit: 'iso4217/USD', value }, referenceId: `s-${Math.random()}` },
      });
      expect(r.status).toBe(201);
      return r.body.paymentId as string;
    }

    async function options(t: T, id: string, accounts: string[]) {
      const r = await t.call('POST', `/v1/gateway/payment/${id}/options`, { key: t.a.walletKey, body: { accounts } });
      expect(r.status).toBe(200);
      for (const o of r.body.options) seen.push(...o.actions);
      return r.body.options as Array<{ id: string; account: string; amount: { unit: string; value: string }; actions: Array<{ type: string; data: any }> }>;
    }

    /** The fetch step: the option's build action resolved into one `solana_signTransaction`. */
    async function fetchTx(t: T, id: string, option: { id: string; actions: Array<{ data: any }> }): Promise<string> {
      const r = await t.call('POST', `/v1/gateway/payment/${id}/fetch`, { key: t.a.walletKey, body: { optionId: option.id, data: option.actions[0]!.data.data } });
      expect(r.status).toBe(200);
      seen.push(...r.body.actions);
      expect(r.body.actions).toEqual([{ type: 'walletRpc', data: { chain_id: sol().caip2, method: 'solana_signTransaction', params: [{ transaction: expect.any(String) }] } }]);
      return r.body.actions[0].data.params[0].transaction as string;
    }

    const confirm = (t: T, id: string, optionId: string, results: string[], maxPollMs = 20_000) =>
      t.call('POST', `/v1/gateway/payment/${id}/confirm?maxPollMs=${maxPollMs}`, {
        key: t.a.walletKey,
        body: { optionId, results: results.map((r) => ({ type: 'walletRpc', data: [r] })) },
      });
    const status = async (t: T, id: string) => (await t.call('GET', `/v1/gateway/payment/${id}/status`, { key: t.a.walletKey })).body.status as string;

    /** What a wallet does for `solana_signTransaction`: add its signature, return the whole transaction. */
    function walletSign(transactionBase64: string, signer: Keypair, kind: 'legacy' | 'versioned' = 'legacy'): string {
      if (kind === 'versioned') {
        const v = VersionedTransaction.deserialize(Buffer.from(transactionBase64, 'base64'));
        v.sign([signer]);
        return Buffer.from(v.serialize()).toString('base64');
      }
      const tx = Transaction.from(Buffer.from(transactionBase64, 'base64'));
      tx.partialSign(signer);
      return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
    }

    /** A payment with one Solana option, fetched: what a wallet holds just before signing. */
    async function fetchedPayment(t: T, m: { merchantId: string }, b: Keypair, value = '1050') {
      const id = await newPayment(t, m.merchantId, value);
      const [option] = await options(t, id, [solAccount(b)]);
      const transaction = await fetchTx(t, id, option!);
      return { id, option: option!, transaction };
    }

    describe('SPL payment: the service builds and pays the fee, the wallet only signs', () => {
      it('pays exactly the quoted amount to the merchant; the buyer holds no SOL before or after', async () => {
        const { t } = env;
        const m = await merchant(t, [solUsdc]);
        const b = buyer(20_000_000n);
        const id = await newPayment(t, m.merchantId);
        const evmBuyer = Wallet.createRandom().address;
        const opts = await options(t, id, [`eip155:31337:${evmBuyer}`, solAccount(b)]);
        // The merchant has no EVM asset: the EVM account gets nothing.
        expect(opts).toHaveLength(1);
        const option = opts[0]!;
        expect(option).toMatchObject({ account: solAccount(b), amount: { unit: `caip19/${solUsdc}`, value: '10500000' } });
        expect(option.actions).toEqual([{ type: 'build', data: { data: expect.any(String) } }]);
        const signed = walletSign(await fetchTx(t, id, option), b);
        const r = await confirm(t, id, option.id, [signed]);
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({
          status: 'succeeded',
          isFinal: true,
          info: { txId: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/), optionAmount: { value: '10500000' } },
        });
        expect(sol().balance(m.solDestination, mint())).toBe(10_500_000n);
        expect(sol().balance(b.publicKey.toBase58(), mint())).toBe(9_500_000n);
        expect(sol().balance(b.publicKey.toBase58(), null)).toBe(0n);
        // The txId is the transaction's first signature, the one the chain knows it by.
        expect((await world.solanaConnection.getSignatureStatuses([r.body.info.txId])).value[0]).toMatchObject({ err: null });
        expect((await confirm(t, id, option.id, [signed], 0)).body.status).toBe('succeeded');
        expect(sol().balance(m.solDestination, mint())).toBe(10_500_000n);
        const merchantView = await t.call('GET', `/v1/payments/${id}/status`, { key: t.a.key, headers: { 'Merchant-Id': m.merchantId } });
        expect(merchantView.body).toMatchObject({ status: 'succeeded', info: { txId: r.body.info.txId } });
        // The finality job follows it from `confirmed` to `finalized` (the sandbox roots at once without its block clock).
        await waitFor('the transfer followed to finalized', async () => (await t.storage.payments.get(id))?.finality === 'final');
        const newer = await t.call('GET', `/v1/payments/${id}/status`, { key: t.a.key, headers: { 'Merchant-Id': m.merchantId, 'Svc-Version': '2026-11-27' } });
        expect(newer.body).toMatchObject({ status: 'succeeded', finality: 'final' });
      }, 60_000);

      it('accepts a wallet signing with VersionedTransaction, into an existing destination account', async () => {
        const { t } = env;
        const m = await merchant(t, [solUsdc]);
        sol().fund(m.solDestination, mint(), 5n);
        const b = buyer(3_000_000n);
        const p = await fetchedPayment(t, m, b, '250');
        const r = await confirm(t, p.id, p.option.id, [walletSign(p.transaction, b, 'versioned')]);
        expect(r.body.status).toBe('succeeded');
        expect(sol().balance(m.solDestination, mint())).toBe(2_500_005n);
      }, 60_000);
    });

    describe('adversarial results: nothing ends succeeded, the payment stays payable', () => {
      const transferOf = (tx: Transaction) => tx.instructions.at(-1)!;
      /** The wallet edits the service's transaction, then signs the edited message as the buyer. */
      const tamper = (base64: string, b: Keypair, change: (tx: Transaction) => void) => {
        const tx = Transaction.from(Buffer.from(base64, 'base64'));
        change(tx);
        tx.partialSign(b);
        return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
      };

      it('refuses a changed transaction, another key’s signature, another payment’s transaction and a detached signature', async () => {
        const { t } = env;
        const m = await merchant(t, [solUsdc]);
        const b = buyer(50_000_000n);
        const attacker = Keypair.generate();
        const p = await fetchedPayment(t, m, b);
        const other = await fetchedPayment(t, m, b);
        const wire = Buffer.from(walletSign(p.transaction, b), 'base64');
        // Another key fills the buyer's signature slot (slot 1; slot 0 is the service's).
        const message = Transaction.from(wire).serializeMessage();
        const forged = Buffer.from(wire);
        rawSign(message, attacker).copy(forged, 1 + 64);
        const cases: Record<string, string> = {
          'destination changed': tamper(p.transaction, b, (tx) => (transferOf(tx).keys[2]!.pubkey = getAssociatedTokenAddressSync(sol().mint, attacker.publicKey))),
          'amount changed': tamper(p.transaction, b, (tx) => {
            const ix = transferOf(tx);
            ix.data = Buffer.from(ix.data);
            ix.data.writeBigUInt64LE(1n, 1);
          }),
          'extra instruction': tamper(p.transaction, b, (tx) =>
            tx.add(SystemProgram.transfer({ fromPubkey: sol().feePayer.publicKey, toPubkey: attacker.publicKey, lamports: 1_000_000 })),
          ),
          'signed by another key': forged.toString('base64'),
          'built for another payment': walletSign(other.transaction, b),
          'detached signature': Transaction.from(wire).signatures[1]!.signature!.toString('base64'),
        };
        for (const [name, result] of Object.entries(cases)) {
          const r = await confirm(t, p.id, p.option.id, [result], 0);
          expect(r, name).toMatchObject({ status: 400, body: { code: 'invalid_signature' } });
        }
        expect(await confirm(t, p.id, p.option.id, ['not a transaction'], 0)).toMatchObject({ status: 400, body: { code: 'invalid_results' } });
        expect(await status(t, p.id)).toBe('requires_action');
        expect(sol().balance(m.solDestination, mint())).toBe(0n);
        expect(sol().balance(attacker.publicKey.toBase58(), mint())).toBe(0n);
        expect(sol().balance(attacker.publicKey.toBase58(), null)).toBe(0n);
        // The honest transaction still pays, exactly once.
        expect((await confirm(t, p.id, p.option.id, [wire.toString('base64')])).body.status).toBe('succeeded');
        expect(sol().balance(m.solDestination, mint())).toBe(10_500_000n);
      }, 60_000);

      it('a transaction that paid one payment cannot pay another, nor move funds twice', async () => {
        const { t } = env;
        const m = await merchant(t, [solUsdc]);
        const b = buyer(50_000_000n);
        const first = await fetchedPayment(t, m, b);
        const signed = walletSign(first.transaction, b);
        expect((await confirm(t, first.id, first.option.id, [signed])).body.status).toBe('succeeded');
        const second = await fetchedPayment(t, m, b);
        expect(await confirm(t, second.id, second.option.id, [signed], 0)).toMatchObject({ status: 400, body: { code: 'invalid_signature' } });
        expect(await status(t, second.id)).toBe('requires_action');
        // Broadcast again by the wallet: its copy lacks the fee payer's signature, the chain refuses it.
        await expect(world.solanaConnection.sendRawTransaction(Buffer.from(signed, 'base64'), { skipPreflight: true })).rejects.toThrow();
        expect((await confirm(t, first.id, first.option.id, [signed], 0)).body.status).toBe('succeeded');
        expect(sol().balance(m.solDestination, mint())).toBe(10_500_000n);
        expect(sol().balance(b.publicKey.toBase58(), mint())).toBe(39_500_000n);
      }, 60_000);

      it('answers invalid_results to a confirm before any fetch', async () => {
        const { t } = env;
        const m = await merchant(t, [solUsdc]);
        const b = buyer(20_000_000n);
        const id = await newPayment(t, m.merchantId);
        const [option] = await options(t, id, [solAccount(b)]);
        const r = await confirm(t, id, option!.id, ['AAAA'], 0);
        expect(r).toMatchObject({ status: 400, body: { code: 'invalid_results', message: expect.stringMatching(/fetch/) } });
        expect(await status(t, id)).toBe('requires_action');
      }, 60_000);

      it('answers quote_expired for an expired blockhash; fetching again gives a transaction that pays', async () => {
        const { t } = env;
        const m = await merchant(t, [solUsdc]);
        const b = buyer(20_000_000n);
        const p = await fetchedPayment(t, m, b);
        const stale = walletSign(p.transaction, b);
        sol().expireBlockhash();
        expect(await confirm(t, p.id, p.option.id, [stale], 0)).toMatchObject({ status: 409, body: { code: 'quote_expired' } });
        const fresh = await fetchTx(t, p.id, p.option);
        expect(fresh).not.toBe(p.transaction);
        // The latest build replaces the earlier one: only it is accepted now.
        expect(await confirm(t, p.id, p.option.id, [stale], 0)).toMatchObject({ status: 400, body: { code: 'invalid_signature' } });
        expect((await confirm(t, p.id, p.option.id, [walletSign(fresh, b)])).body.status).toBe('succeeded');
        expect(sol().balance(m.solDestination, mint())).toBe(10_500_000n);
      }, 60_000);
    });

    describe('the fee payer signs last: nothing it pays for lands without the service', () => {
      it('refuses an underfunded transaction at confirm (simulated), costing the fee payer nothing; pays once the buyer is funded', async () => {
        const { t } = env;
        const m = await merchant(t, [solUsdc]);
        const b = buyer(1_000_000n);
        const p = await fetchedPayment(t, m, b);
        const feePayer = sol().feePayer.publicKey.toBase58();
        const lamportsBefore = sol().balance(feePayer, null);
        const refused = await confirm(t, p.id, p.option.id, [walletSign(p.transaction, b)], 0);
        expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_results', message: expect.stringMatching(/would fail on chain/) } });
        expect(await status(t, p.id)).toBe('requires_action');
        expect(sol().balance(feePayer, null)).toBe(lamportsBefore);
        sol().fund(b.publicKey.toBase58(), mint(), 10_000_000n);
        const r = await confirm(t, p.id, p.option.id, [walletSign(p.transaction, b)], 20_000);
        expect(r.body.status).toBe('succeeded');
        expect(sol().balance(m.solDestination, mint())).toBe(10_500_000n);
      }, 60_000);

      it('a buyer broadcasting the fetched transaction alone cannot land it: the fee payer has not signed', async () => {
        const { t } = env;
        const m = await merchant(t, [solUsdc]);
        // A buyer with no USDC at all: before, its broadcast landed as a failed transaction the fee payer paid for.
        const b = buyer(0n);
        const p = await fetchedPayment(t, m, b);
        const feePayer = sol().feePayer.publicKey.toBase58();
        const lamportsBefore = sol().balance(feePayer, null);
        const signed = walletSign(p.transaction, b);
        await expect(world.solanaConnection.sendRawTransaction(Buffer.from(signed, 'base64'), { skipPreflight: true })).rejects.toThrow();
        expect(sol().balance(feePayer, null)).toBe(lamportsBefore);
        expect(await status(t, p.id)).toBe('requires_action');
      }, 60_000);
    });

    describe('mixed payments: EVM and Solana options in one link', () => {
      it('offers both kinds to a wallet sending both accounts, and only EVM to an EVM-only wallet', async () => {
        const { t } = env;
        const m = await merchant(t, [evmUsdc, solUsdc]);
        const b = buyer(20_000_000n);
        const evmWallet = Wallet.createRandom();
        const id = await newPayment(t, m.merchantId);
        const both = await options(t, id, [`eip155:31337:${evmWallet.address}`, solAccount(b)]);
        expect(both.map((o) => o.account).sort()).toEqual([`eip155:31337:${evmWallet.address}`, solAccount(b)].sort());
        const evmOption = both.find((o) => o.account.startsWith('eip155:'))!;
        const solOption = both.find((o) => o.account.startsWith('solana:'))!;
        expect(evmOption.actions[0]!.data.method).toBe('eth_signTypedData_v4');
        expect(solOption.actions[0]!.type).toBe('build');
        const evmOnly = await options(t, id, [`eip155:31337:${evmWallet.address}`]);
        expect(evmOnly.map((o) => o.account)).toEqual([`eip155:31337:${evmWallet.address}`]);
        const signed = walletSign(await fetchTx(t, id, solOption), b);
        expect((await confirm(t, id, solOption.id, [signed])).body.status).toBe('succeeded');
        expect(sol().balance(m.solDestination, mint())).toBe(10_500_000n);
      }, 60_000);

      it('never answered solana_signAndSendTransaction anywhere in this file', () => {
        expect(seen.length).toBeGreaterThan(20);
        expect(seen.some((a) => a.data.method === 'solana_signTransaction')).toBe(true);
        expect(seen.filter((a) => a.data.method === 'solana_signAndSendTransaction')).toEqual([]);
      });
    });
  });
}
