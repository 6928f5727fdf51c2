// Solana Pay transaction requests through the chain port on the sandbox: the wallet signs and
// broadcasts the transaction itself; the buyer pays the fees, so no buyer, however hostile, can make
// the service's fee payer pay; the same answer while it can land, so two scans pay once; and the
// transfer is found by its reference only when it is the exact transaction built.
import { describe, expect, it } from 'vitest';
import { Keypair, LAMPORTS_PER_SOL, PublicKey, Transaction } from '@solana/web3.js';
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { createSolanaSandbox, type SolanaSandbox } from '../../sandbox/solana/index.ts';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import { expectOption, type ChainPort, type OptionRequest, type QuoteState } from '../../../server/ports/chains.ts';
import { createSolanaChainAdapter } from './gateway-adapter.ts';
import { walletSignLegacy } from './test-fixtures.ts';
import { buildPaymentTransaction } from './build.ts';
import { cosignerOf, MAX_WALLET_BUILDS } from './transaction-request.ts';
import { withFeePayerSignature } from './cosign.ts';
import { splitWireTransaction } from './wire.ts';

const AMOUNT = 2_000_000n;

function world() {
  const sandbox = createSolanaSandbox();
  const merchant = sandbox.keypair('tr-merchant').publicKey.toBase58();
  sandbox.openTokenAccount(merchant);
  const port = createSolanaChainAdapter([{ caip2: sandbox.caip2, connection: sandbox.connection, feePayer: sandbox.feePayer }]);
  const feePayerLamports = () => sandbox.balance(sandbox.feePayer.publicKey.toBase58(), null);
  const merchantTokens = () => sandbox.balance(merchant, sandbox.mint.toBase58());
  /** A buyer with `tokens` USDC base units and `sol` lamports for fees. */
  const buyer = (label: string, tokens: bigint, sol = BigInt(LAMPORTS_PER_SOL) / 100n) => {
    const k = sandbox.keypair(label);
    if (tokens > 0n) sandbox.fund(k.publicKey.toBase58(), sandbox.mint.toBase58(), tokens);
    if (sol > 0n) sandbox.fund(k.publicKey.toBase58(), null, sol);
    return k;
  };
  return { sandbox, merchant, port, feePayerLamports, merchantTokens, buyer };
}

function request(sandbox: SolanaSandbox, paymentId: string, buyer: Keypair, merchant: string): OptionRequest {
  const a = sandbox.assets[0]!;
  const asset = createAssetRegistry([{ id: a.caip19, symbol: a.symbol, name: a.name, decimals: a.decimals, flows: ['spl'], networkName: 'Sandbox Solana' }]).get(a.caip19)!;
  const now = new Date();
  return {
    paymentId,
    optionId: `opt_${paymentId}`,
    account: `${sandbox.caip2}:${buyer.publicKey.toBase58()}`,
    asset,
    amount: AMOUNT,
    destination: `${sandbox.caip2}:${merchant}`,
    deadline: new Date(now.getTime() + 60_000),
    quotedAt: now,
  };
}

async function requested(port: ChainPort, req: OptionRequest, state?: QuoteState) {
  const from = state ?? expectOption(await port.prepareOption(req)).state;
  const answer = await port.walletTransaction!(req, from);
  if ('refused' in answer) throw new Error(answer.refused);
  return answer;
}

/** What a Solana Pay wallet does with the answer: sign as the account, broadcast. */
async function signAndSend(sandbox: SolanaSandbox, transaction: string, signer: Keypair, skipPreflight = false): Promise<string> {
  return sandbox.connection.sendRawTransaction(Buffer.from(walletSignLegacy(transaction, signer), 'base64'), { skipPreflight });
}

describe('Solana Pay transaction requests (wallet broadcasts, buyer pays the fees)', () => {
  it('the wallet signs and sends the answer; the transfer is found by its reference, final, and pays the merchant exactly', async () => {
    const w = world();
    const buyer = w.buyer('tr-buyer', AMOUNT);
    const req = request(w.sandbox, 'pay_tr_ok', buyer, w.merchant);
    const before = w.feePayerLamports();
    const { transaction, state } = await requested(w.port, req);
    const tx = Transaction.from(Buffer.from(transaction, 'base64'));
    // The buyer pays; the service's fee payer is not even an account of the transaction.
    expect(tx.feePayer?.toBase58()).toBe(buyer.publicKey.toBase58());
    expect(tx.compileMessage().accountKeys.map((k) => k.toBase58())).not.toContain(w.sandbox.feePayer.publicKey.toBase58());
    expect(await w.port.findLateFunds!(req, state)).toEqual({ found: false });
    const txId = await signAndSend(w.sandbox, transaction, buyer);
    expect(await w.port.findLateFunds!(req, state)).toEqual({ found: true, txId });
    expect(w.merchantTokens()).toBe(AMOUNT);
    expect(w.feePayerLamports()).toBe(before);
    // Another option's reference, or another amount than was built: nothing.
    expect(await w.port.findLateFunds!({ ...req, optionId: `${req.optionId}_other` }, state)).toEqual({ found: false });
    expect(await w.port.findLateFunds!({ ...req, amount: AMOUNT + 1n }, state)).toEqual({ found: false });
  });

  it('two requests while the first can land answer the same transaction: two scans, one payment', async () => {
    const w = world();
    const buyer = w.buyer('tr-twice', AMOUNT * 2n);
    const req = request(w.sandbox, 'pay_tr_twice', buyer, w.merchant);
    const first = await requested(w.port, req);
    const second = await requested(w.port, req, first.state);
    expect(second.transaction).toBe(first.transaction);
    expect(second.state).toEqual(first.state);
    const txId = await signAndSend(w.sandbox, first.transaction, buyer);
    // The second scan's signature is the same (Ed25519 is deterministic): the chain refuses it as processed.
    await expect(signAndSend(w.sandbox, second.transaction, buyer)).rejects.toThrow(/already been processed/);
    expect(await signAndSend(w.sandbox, second.transaction, buyer, true)).toBe(txId);
    expect(w.merchantTokens()).toBe(AMOUNT);
  });

  it('a new transaction only once the old one can no longer land; the watcher recognises either', async () => {
    const w = world();
    const buyer = w.buyer('tr-expired', AMOUNT);
    const req = request(w.sandbox, 'pay_tr_expired', buyer, w.merchant);
    const first = await requested(w.port, req);
    w.sandbox.expireBlockhash();
    await expect(signAndSend(w.sandbox, first.transaction, buyer, true)).rejects.toThrow(/BlockhashNotFound/);
    const second = await requested(w.port, req, first.state);
    expect(second.transaction).not.toBe(first.transaction);
    const txId = await signAndSend(w.sandbox, second.transaction, buyer);
    expect(await w.port.findLateFunds!(req, second.state)).toEqual({ found: true, txId });
  });

  it('bounds the transactions one option hands out', async () => {
    const w = world();
    const buyer = w.buyer('tr-bound', AMOUNT);
    const req = request(w.sandbox, 'pay_tr_bound', buyer, w.merchant);
    let state = expectOption(await w.port.prepareOption(req)).state;
    for (let i = 0; i < MAX_WALLET_BUILDS; i++) {
      state = (await requested(w.port, req, state)).state;
      w.sandbox.expireBlockhash();
    }
    expect(await w.port.walletTransaction!(req, state)).toEqual({ refused: expect.stringMatching(/as many transactions/) });
  });

  it('a transaction that names the reference but is not the one built is never taken as payment', async () => {
    const w = world();
    const buyer = w.buyer('tr-forger', AMOUNT);
    const req = request(w.sandbox, 'pay_tr_forged', buyer, w.merchant);
    const { state } = await requested(w.port, req);
    // The forger pays the merchant 1 unit and names the option's reference (as a non-signer).
    const forged = await buildPaymentTransaction({
      connection: w.sandbox.connection,
      feePayer: buyer.publicKey,
      buyer: buyer.publicKey,
      mint: w.sandbox.mint,
      decimals: 6,
      destinationOwner: new PublicKey(w.merchant),
      amount: 1n,
      reference: cosignerOf(w.sandbox.feePayer, req.paymentId, req.optionId).publicKey,
    });
    await signAndSend(w.sandbox, forged.transactionBase64, buyer);
    expect(w.merchantTokens()).toBe(1n);
    expect(await w.port.findLateFunds!(req, state)).toEqual({ found: false });
  });
});

describe('the fee payer’s worst-case loss to a hostile Solana Pay buyer is 0 lamports', () => {
  it('a buyer with no tokens, one who drains after receiving the transaction, and one POSTing 20 accounts cost the fee payer nothing', async () => {
    const w = world();
    const before = w.feePayerLamports();
    const landedFailures: string[] = [];

    // 1. No tokens: refused before any transaction is handed out, with what the account holds.
    const empty = w.buyer('tr-hostile-empty', 0n);
    const short = w.buyer('tr-hostile-short', AMOUNT - 1n);
    const refusal = (k: typeof empty, paymentId: string) => {
      const req = request(w.sandbox, paymentId, k, w.merchant);
      return w.port.prepareOption(req).then((o) => w.port.walletTransaction!(req, expectOption(o).state));
    };
    expect(await refusal(empty, 'pay_tr_hostile_1')).toEqual({ refused: 'This account holds 0 USDC; the payment needs 2 USDC. Add funds, then scan again' });
    expect(await refusal(short, 'pay_tr_hostile_1b')).toEqual({ refused: 'This account holds 1.999999 USDC; the payment needs 2 USDC. Add funds, then scan again' });

    // 2. Drains after receiving: holds the amount at request time, moves it away, then lands it with
    // skipPreflight; it fails, and the buyer (the fee payer of its own transaction) pays the fee.
    const drainer = w.buyer('tr-hostile-drain', AMOUNT);
    const req2 = request(w.sandbox, 'pay_tr_hostile_2', drainer, w.merchant);
    const handed = (await requested(w.port, req2)).transaction;
    const sink = w.sandbox.keypair('tr-sink').publicKey;
    w.sandbox.openTokenAccount(sink.toBase58());
    const { blockhash } = await w.sandbox.connection.getLatestBlockhash();
    const sweep = new Transaction({ feePayer: drainer.publicKey, recentBlockhash: blockhash }).add(
      createTransferCheckedInstruction(
        getAssociatedTokenAddressSync(w.sandbox.mint, drainer.publicKey),
        w.sandbox.mint,
        getAssociatedTokenAddressSync(w.sandbox.mint, sink),
        drainer.publicKey,
        AMOUNT,
        6,
      ),
    );
    sweep.sign(drainer);
    await w.sandbox.connection.sendRawTransaction(sweep.serialize());
    landedFailures.push(await signAndSend(w.sandbox, handed, drainer, true));

    // 3. Twenty accounts holding the amount but no SOL on one payment: each gets a transaction none can land.
    for (let i = 0; i < 20; i++) {
      const k = w.buyer(`tr-hostile-many-${i}`, AMOUNT, 0n);
      const req = request(w.sandbox, 'pay_tr_hostile_3', k, w.merchant);
      const { transaction } = await requested(w.port, { ...req, optionId: `opt_many_${i}` });
      await expect(signAndSend(w.sandbox, transaction, k, true)).rejects.toThrow();
    }

    const statuses = (await w.sandbox.connection.getSignatureStatuses(landedFailures)).value;
    expect(statuses.every((s) => s?.err)).toBe(true);
    expect(w.merchantTokens()).toBe(0n);
    expect(before - w.feePayerLamports()).toBe(0n);
  });

  it('for comparison: had the service been the fee payer and signed first, each such landing would cost it the fees', async () => {
    const w = world();
    const empty = w.buyer('tr-compare-empty', 0n);
    const before = w.feePayerLamports();
    const built = await buildPaymentTransaction({
      connection: w.sandbox.connection,
      feePayer: w.sandbox.feePayer.publicKey,
      buyer: empty.publicKey,
      mint: w.sandbox.mint,
      decimals: 6,
      destinationOwner: new PublicKey(w.merchant),
      amount: AMOUNT,
      reference: Keypair.generate().publicKey,
    });
    const presigned = withFeePayerSignature(splitWireTransaction(Buffer.from(built.transactionBase64, 'base64'))!, w.sandbox.feePayer);
    await signAndSend(w.sandbox, presigned.raw.toString('base64'), empty, true);
    // 5,000 lamports per signature plus the priority fee, per landing, for as many as a buyer asks.
    const lost = before - w.feePayerLamports();
    console.info(`a service fee payer that signed first loses ${lost} lamports per failed landing by a buyer with no tokens`);
    expect(lost).toBeGreaterThanOrEqual(5_000n);
  });
});
