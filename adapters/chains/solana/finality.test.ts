// A Solana payment that succeeded at `confirmed`, followed to `finalized` by the finality job's
// step (finality.ts) on the sandbox cluster, its block clock running so commitment follows depth.
// A transaction "dropped" is one the cluster never kept: the node answers no status for it, as a
// node does once the fork that held it was left behind.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Keypair } from '@solana/web3.js';
import { createSolanaSandbox, type SolanaSandbox } from '../../sandbox/solana/index.ts';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import type { OptionRequest } from '../../../server/ports/chains.ts';
import { createSolanaChainAdapter } from './gateway-adapter.ts';
import { buildPaymentTransaction } from './build.ts';
import { deriveReference } from './reference.ts';
import { serviceSigned, walletSignVersioned, type Fixture } from './test-fixtures.ts';
import { submitTransaction } from './submit.ts';
import type { SolanaFinality } from './finality.ts';

const AMOUNT = 2_000_000n;
let sandbox: SolanaSandbox;
let buyer: Keypair;
let merchant: string;
beforeEach(() => {
  // A clock that never ticks by itself: blocks pass when the test says, commitment follows depth.
  sandbox = createSolanaSandbox({ blockTimeMs: 3_600_000 });
  buyer = sandbox.keypair('finality-buyer');
  sandbox.fund(buyer.publicKey.toBase58(), sandbox.mint.toBase58(), 5_000_000n);
  merchant = sandbox.keypair('finality-merchant').publicKey.toBase58();
  sandbox.openTokenAccount(merchant);
});
afterEach(() => sandbox.close());

const port = (finality?: SolanaFinality) =>
  createSolanaChainAdapter([{ caip2: sandbox.caip2, connection: sandbox.connection, feePayer: sandbox.feePayer, ...(finality ? { finality } : {}) }]);

function request(): OptionRequest {
  const a = sandbox.assets[0]!;
  const asset = createAssetRegistry([{ id: a.caip19, symbol: a.symbol, name: a.name, decimals: a.decimals, flows: ['spl'], networkName: 'Sandbox Solana' }]).get(a.caip19)!;
  return {
    paymentId: 'pay_fin',
    optionId: 'opt_fin',
    account: `${sandbox.caip2}:${buyer.publicKey.toBase58()}`,
    asset,
    amount: AMOUNT,
    destination: `${sandbox.caip2}:${merchant}`,
    deadline: new Date(Date.now() + 60_000),
    quotedAt: new Date(),
  };
}

/** A payment's transaction as confirm leaves it: built, signed by the buyer and the fee payer, not yet sent. */
async function signedPayment(to = 'finality-merchant', amount = AMOUNT, paymentId = 'pay_fin') {
  const built = await buildPaymentTransaction({
    connection: sandbox.connection,
    feePayer: sandbox.feePayer.publicKey,
    buyer: buyer.publicKey,
    mint: sandbox.mint,
    decimals: 6,
    destinationOwner: sandbox.keypair(to).publicKey,
    amount,
    reference: deriveReference(paymentId, 'opt_fin'),
  });
  const f = { sandbox, buyer } as unknown as Fixture;
  const { transaction, signature } = serviceSigned(f, built, walletSignVersioned(built.transactionBase64, buyer));
  return { submission: { flow: 'spl' as const, transaction, signature, lastValidBlockHeight: built.lastValidBlockHeight }, txId: signature };
}

const paid = () => sandbox.balance(merchant, sandbox.mint.toBase58());
const feePayerLamports = () => sandbox.balance(sandbox.feePayer.publicKey.toBase58(), null);

it('(a) succeeded at confirmed, it stays pending until its block is finalized, then final', async () => {
  const { submission, txId } = await signedPayment();
  expect((await submitTransaction(sandbox.connection, submission.transaction)).status).toBe('sent');
  sandbox.advanceBlocks(1);
  const p = port();
  expect(await p.advance(request(), submission, txId)).toEqual({ state: 'confirmed', txId });
  expect(await p.followFinality!(request(), submission, txId, null)).toEqual({ state: 'pending', reason: 'awaiting finalized' });
  sandbox.advanceBlocks(30);
  expect((await p.followFinality!(request(), submission, txId, null)).state).toBe('pending');
  sandbox.advanceBlocks(1);
  expect(await p.followFinality!(request(), submission, txId, null)).toEqual({ state: 'final', txId });
  expect(paid()).toBe(AMOUNT);
});

it('(b) dropped before finalized while its blockhash is valid: the same bytes are sent again, land once, and end final', async () => {
  const { submission, txId } = await signedPayment();
  const p = port();
  expect(await p.followFinality!(request(), submission, txId, null)).toEqual({ state: 'pending', reason: 'dropped; sent again' });
  expect(paid()).toBe(AMOUNT);
  sandbox.advanceBlocks(32);
  expect(await p.followFinality!(request(), submission, txId, null)).toEqual({ state: 'final', txId });
  expect(paid()).toBe(AMOUNT);
});

it('(c) dropped and its blockhash expired: reversed, the merchant unpaid, never final', async () => {
  const { submission, txId } = await signedPayment();
  sandbox.expireBlockhash();
  sandbox.advanceBlocks(40);
  const step = await port().followFinality!(request(), submission, txId, null);
  expect(step).toMatchObject({ state: 'reversed', reason: expect.stringMatching(/blockhash expired/) });
  expect(paid()).toBe(0n);
});

it('(d) dropped after the buyer emptied the account: not sent again (the fee payer pays for nothing), reversed once the blockhash expired', async () => {
  const { submission, txId } = await signedPayment();
  sandbox.openTokenAccount(sandbox.keypair('finality-elsewhere').publicKey.toBase58());
  // The buyer's tokens leave its account before the dropped payment could land again.
  const drain = await signedPayment('finality-elsewhere', 5_000_000n, 'pay_other');
  expect((await submitTransaction(sandbox.connection, drain.submission.transaction)).status).toBe('sent');
  expect(sandbox.balance(buyer.publicKey.toBase58(), sandbox.mint.toBase58())).toBe(0n);
  const before = feePayerLamports();
  const p = port();
  expect(await p.followFinality!(request(), submission, txId, null)).toMatchObject({ state: 'pending', reason: expect.stringMatching(/^dropped; not sent again, it would fail/) });
  expect(feePayerLamports()).toBe(before);
  sandbox.expireBlockhash();
  sandbox.advanceBlocks(40);
  expect((await p.followFinality!(request(), submission, txId, null)).state).toBe('reversed');
  expect(paid()).toBe(0n);
});

it('with CHAIN_FINALITY `confirmed`, success is final at once: nothing is asked of the node', async () => {
  const { submission, txId } = await signedPayment();
  const silent = createSolanaChainAdapter([
    {
      caip2: sandbox.caip2,
      connection: new Proxy(sandbox.connection, { get: () => () => Promise.reject(new Error('no call expected')) }),
      feePayer: sandbox.feePayer,
      finality: 'confirmed',
    },
  ]);
  expect(await silent.followFinality!(request(), submission, txId, null)).toEqual({ state: 'final', txId });
});
