// The fee payer cannot be spent by a buyer (issue 29 item 5), through the chain port on the sandbox:
// the fetched transaction cannot land without the service, confirm refuses what would fail before
// the fee payer signs, the job re-simulates before each send, and no option opens a token account.
import { describe, expect, it } from 'vitest';
import { ComputeBudgetInstruction, ComputeBudgetProgram, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { createSolanaSandbox, type SolanaSandbox } from '../../sandbox/solana/index.ts';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import { expectOption, type ChainPort, type OptionRequest, type WireAction } from '../../../server/ports/chains.ts';
import { createSolanaChainAdapter } from './gateway-adapter.ts';
import { walletSignLegacy } from './test-fixtures.ts';
import { FALLBACK_CU_LIMIT } from './fees.ts';
import type { SolanaRpc } from './rpc.ts';

const AMOUNT = 2_000_000n;

function world(connection?: (sandbox: SolanaSandbox) => SolanaRpc) {
  const sandbox = createSolanaSandbox();
  const buyer = sandbox.keypair('fp-buyer');
  const merchant = sandbox.keypair('fp-merchant').publicKey.toBase58();
  sandbox.openTokenAccount(merchant);
  const port = createSolanaChainAdapter([{ caip2: sandbox.caip2, connection: connection ? connection(sandbox) : sandbox.connection, feePayer: sandbox.feePayer }]);
  const feePayerLamports = () => sandbox.balance(sandbox.feePayer.publicKey.toBase58(), null);
  return { sandbox, buyer, merchant, port, feePayerLamports };
}

function request(sandbox: SolanaSandbox, paymentId: string, buyer: string, merchant: string): OptionRequest {
  const a = sandbox.assets[0]!;
  const asset = createAssetRegistry([{ id: a.caip19, symbol: a.symbol, name: a.name, decimals: a.decimals, flows: ['spl'], networkName: 'Sandbox Solana' }]).get(a.caip19)!;
  const now = new Date();
  return {
    paymentId,
    optionId: `opt_${paymentId}`,
    account: `${sandbox.caip2}:${buyer}`,
    asset,
    amount: AMOUNT,
    destination: `${sandbox.caip2}:${merchant}`,
    deadline: new Date(now.getTime() + 60_000),
    quotedAt: now,
  };
}

const txOf = (actions: WireAction[]) => (actions[0] as { data: { params: Array<{ transaction: string }> } }).data.params[0]!.transaction;

async function fetched(port: ChainPort, req: OptionRequest) {
  const prepared = expectOption(await port.prepareOption(req));
  const { state, actions } = await port.fetchActions!(req, prepared.state, req.optionId);
  return { state, transaction: txOf(actions) };
}

/** A node that counts sends and drops the first `drop` of them (accepted, never forwarded). */
function droppingNode(sandbox: SolanaSandbox, drop: number): SolanaRpc & { sends: number } {
  const node = {
    ...sandbox.connection,
    sends: 0,
    async sendRawTransaction(raw: Parameters<SolanaRpc['sendRawTransaction']>[0], options?: Parameters<SolanaRpc['sendRawTransaction']>[1]) {
      node.sends += 1;
      if (node.sends <= drop) return 'dropped';
      return sandbox.connection.sendRawTransaction(raw, options);
    },
  };
  return node;
}

describe('a buyer cannot make the Solana fee payer pay', () => {
  it('a fetched transaction broadcast by the buyer alone (no USDC, skipPreflight) is refused by the chain; the fee payer spends nothing', async () => {
    const w = world();
    const before = w.feePayerLamports();
    for (let i = 0; i < 5; i++) {
      const req = request(w.sandbox, `pay_alone_${i}`, w.buyer.publicKey.toBase58(), w.merchant);
      const { transaction } = await fetched(w.port, req);
      const signed = walletSignLegacy(transaction, w.buyer);
      await expect(w.sandbox.connection.sendRawTransaction(Buffer.from(signed, 'base64'), { skipPreflight: true })).rejects.toThrow(/SignatureFailure|signature/i);
    }
    // Before: each landed as a failed transfer the fee payer had signed, 5,000 lamports (plus priority) apiece.
    expect(w.feePayerLamports()).toBe(before);
  });

  it('refuses a tampered message or a filled fee-payer slot at confirm with a 4xx code, and sends nothing', async () => {
    const w = world((s) => droppingNode(s, 0));
    w.sandbox.fund(w.buyer.publicKey.toBase58(), w.sandbox.mint.toBase58(), AMOUNT);
    const req = request(w.sandbox, 'pay_tamper', w.buyer.publicKey.toBase58(), w.merchant);
    const { state, transaction } = await fetched(w.port, req);
    const before = w.feePayerLamports();
    const extra = Transaction.from(Buffer.from(transaction, 'base64'));
    extra.add(SystemProgram.transfer({ fromPubkey: w.sandbox.feePayer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: LAMPORTS_PER_SOL }));
    extra.partialSign(w.buyer);
    const filled = Transaction.from(Buffer.from(walletSignLegacy(transaction, w.buyer), 'base64'));
    filled.signatures[0]!.signature = Buffer.alloc(64, 7);
    for (const forged of [extra, filled]) {
      const result = forged.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');
      expect(await w.port.verifyResults(req, state, [result])).toMatchObject({ ok: false, code: 'invalid_signature' });
    }
    expect(w.feePayerLamports()).toBe(before);
    expect(w.sandbox.balance(w.merchant, w.sandbox.mint.toBase58())).toBe(0n);
  });

  it('refuses at confirm a transaction whose simulation fails (buyer short of tokens): 400, nothing sent, fee payer unchanged', async () => {
    const w = world();
    w.sandbox.fund(w.buyer.publicKey.toBase58(), w.sandbox.mint.toBase58(), AMOUNT - 1n);
    const req = request(w.sandbox, 'pay_short', w.buyer.publicKey.toBase58(), w.merchant);
    const { state, transaction } = await fetched(w.port, req);
    const before = w.feePayerLamports();
    const verdict = await w.port.verifyResults(req, state, [walletSignLegacy(transaction, w.buyer)]);
    expect(verdict).toMatchObject({ ok: false, code: 'invalid_results', message: expect.stringMatching(/would fail on chain/) });
    expect(w.feePayerLamports()).toBe(before);
    expect(w.sandbox.balance(w.buyer.publicKey.toBase58(), w.sandbox.mint.toBase58())).toBe(AMOUNT - 1n);
  });

  it('answers bad_gateway when the node cannot simulate, and signs nothing away', async () => {
    const w = world((s) => ({ ...s.connection, simulateTransaction: () => Promise.reject(new Error('ECONNRESET')) }));
    w.sandbox.fund(w.buyer.publicKey.toBase58(), w.sandbox.mint.toBase58(), AMOUNT);
    const req = request(w.sandbox, 'pay_down', w.buyer.publicKey.toBase58(), w.merchant);
    const { state, transaction } = await fetched(w.port, req);
    await expect(w.port.verifyResults(req, state, [walletSignLegacy(transaction, w.buyer)])).rejects.toMatchObject({ code: 'bad_gateway', status: 502 });
  });

  it('does not send when the buyer emptied the account after confirm; the payment fails only once the blockhash expired', async () => {
    const w = world();
    w.sandbox.fund(w.buyer.publicKey.toBase58(), w.sandbox.mint.toBase58(), AMOUNT);
    const req = request(w.sandbox, 'pay_swept', w.buyer.publicKey.toBase58(), w.merchant);
    const { state, transaction } = await fetched(w.port, req);
    const verdict = await w.port.verifyResults(req, state, [walletSignLegacy(transaction, w.buyer)]);
    if (!verdict.ok) throw new Error(verdict.message);
    // The buyer moves its tokens away before the job runs.
    const sink = w.sandbox.keypair('fp-sink').publicKey.toBase58();
    w.sandbox.openTokenAccount(sink);
    w.sandbox.fund(w.buyer.publicKey.toBase58(), null, BigInt(LAMPORTS_PER_SOL));
    const { createTransferCheckedInstruction, getAssociatedTokenAddressSync } = await import('@solana/spl-token');
    const { blockhash } = await w.sandbox.connection.getLatestBlockhash();
    const sweep = new Transaction({ feePayer: w.buyer.publicKey, recentBlockhash: blockhash }).add(
      createTransferCheckedInstruction(
        getAssociatedTokenAddressSync(w.sandbox.mint, w.buyer.publicKey),
        w.sandbox.mint,
        getAssociatedTokenAddressSync(w.sandbox.mint, new PublicKey(sink)),
        w.buyer.publicKey,
        AMOUNT,
        6,
      ),
    );
    sweep.sign(w.buyer);
    await w.sandbox.connection.sendRawTransaction(sweep.serialize());
    const before = w.feePayerLamports();
    expect(await w.port.advance(req, verdict.submission, verdict.txId!)).toMatchObject({ state: 'pending', reason: expect.stringMatching(/not sent, it would fail/) });
    expect(w.feePayerLamports()).toBe(before);
    w.sandbox.expireBlockhash();
    expect(await w.port.advance(req, verdict.submission, verdict.txId!)).toMatchObject({ state: 'failed', reason: 'blockhash_expired' });
    expect(w.feePayerLamports()).toBe(before);
  });

  it('re-sends the same signed bytes itself until they land when the node drops them (maxRetries 0)', async () => {
    let node: ReturnType<typeof droppingNode> | undefined;
    const w = world((s) => (node = droppingNode(s, 2)));
    w.sandbox.fund(w.buyer.publicKey.toBase58(), w.sandbox.mint.toBase58(), AMOUNT);
    const req = request(w.sandbox, 'pay_dropped', w.buyer.publicKey.toBase58(), w.merchant);
    const { state, transaction } = await fetched(w.port, req);
    const verdict = await w.port.verifyResults(req, state, [walletSignLegacy(transaction, w.buyer)]);
    if (!verdict.ok) throw new Error(verdict.message);
    expect((await w.port.advance(req, verdict.submission, verdict.txId!)).state).toBe('submitted');
    expect((await w.port.advance(req, verdict.submission, verdict.txId!)).state).toBe('submitted');
    expect(w.sandbox.balance(w.merchant, w.sandbox.mint.toBase58())).toBe(0n);
    expect(await w.port.advance(req, verdict.submission, verdict.txId!)).toEqual({ state: 'confirmed', txId: verdict.txId });
    expect(node?.sends).toBe(3);
    expect(w.sandbox.balance(w.merchant, w.sandbox.mint.toBase58())).toBe(AMOUNT);
    // Landed: nothing is sent again.
    expect(await w.port.advance(req, verdict.submission, verdict.txId!)).toEqual({ state: 'confirmed', txId: verdict.txId });
    expect(node?.sends).toBe(3);
  });
});

describe('no rent the fee payer cannot get back, no mint mis-built', () => {
  it('offers no option to a destination without its token account, and opens none', async () => {
    const w = world();
    const fresh = Keypair.generate().publicKey.toBase58();
    const before = w.feePayerLamports();
    const answer = await w.port.prepareOption(request(w.sandbox, 'pay_fresh', w.buyer.publicKey.toBase58(), fresh));
    expect(answer).toEqual({ unavailable: expect.stringMatching(/has no token account for this asset yet/) });
    // Before: the option was offered and each payment opened the account from the fee payer, 2,039,280 lamports of rent.
    expect(w.feePayerLamports()).toBe(before);
    expect(await w.sandbox.connection.getAccountInfo(new PublicKey(fresh))).toBeNull();
  });

  it('refuses a Token-2022 mint with a clear reason instead of building a classic transfer for it', async () => {
    const w = world((s) => ({
      ...s.connection,
      async getAccountInfo(key, commitment) {
        const info = await s.connection.getAccountInfo(key, commitment);
        // The same mint as the Token-2022 program would own it.
        return info && key.equals(s.mint) ? { ...info, owner: TOKEN_2022_PROGRAM_ID } : info;
      },
    }));
    const answer = await w.port.prepareOption(request(w.sandbox, 'pay_2022', w.buyer.publicKey.toBase58(), w.merchant));
    expect(answer).toEqual({ unavailable: expect.stringMatching(/Token-2022 mint/) });
  });
});

describe('compute budget from the network', () => {
  const budgetOf = (transaction: string) => {
    const tx = Transaction.from(Buffer.from(transaction, 'base64'));
    const budget = tx.instructions.filter((ix) => ix.programId.equals(ComputeBudgetProgram.programId));
    return {
      units: ComputeBudgetInstruction.decodeSetComputeUnitLimit(budget[0]!).units,
      microLamports: ComputeBudgetInstruction.decodeSetComputeUnitPrice(budget[1]!).microLamports,
    };
  };

  it('prices at the 75th percentile of recent fees, capped, and limits compute units to the simulated use plus headroom', async () => {
    const w = world();
    w.sandbox.fund(w.buyer.publicKey.toBase58(), w.sandbox.mint.toBase58(), AMOUNT);
    w.sandbox.setPriorityFees([5_000, 1_000, 9_000, 3_000, 2_000, 4_000, 8_000, 7_000]);
    const first = budgetOf((await fetched(w.port, request(w.sandbox, 'pay_fee', w.buyer.publicKey.toBase58(), w.merchant))).transaction);
    expect(first.microLamports).toBe(7_000n);
    // From the simulation (headroom over what it used), not the fallback, and far below the 200k
    // a transaction asks for by default: the priority fee is paid per requested unit.
    expect(first.units).toBeGreaterThan(2_000);
    expect(first.units).toBeLessThan(FALLBACK_CU_LIMIT);
    w.sandbox.setPriorityFees([50_000_000]);
    expect(budgetOf((await fetched(w.port, request(w.sandbox, 'pay_spike', w.buyer.publicKey.toBase58(), w.merchant))).transaction).microLamports).toBe(1_000_000n);
    w.sandbox.setPriorityFees([]);
    expect(budgetOf((await fetched(w.port, request(w.sandbox, 'pay_quiet', w.buyer.publicKey.toBase58(), w.merchant))).transaction).microLamports).toBe(1_000n);
  });
});
