// The chain-port adapter on its own: the production wiring (web3.js `Connection` over HTTP JSON-RPC, the
// fee payer parsed from configuration) against the sandbox's facade, and the advance rules for answers
// the sandbox cannot produce (a landed failure, an unreachable node).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignatureStatus } from '@solana/web3.js';
import { createSolanaSandbox, startRpcFacade, type RpcFacade, type SolanaSandbox } from '../../sandbox/solana/index.ts';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import { expectOption, type OptionRequest, type WireAction } from '../../../server/ports/chains.ts';
import { createSolanaChainAdapter } from './gateway-adapter.ts';
import { parseSolanaSecretKey, solanaChainFromConfig } from './config.ts';
import { base58Encode } from './base58.ts';
import { walletSignVersioned } from './test-fixtures.ts';
import type { SolanaRpc } from './rpc.ts';

let sandbox: SolanaSandbox;
let facade: RpcFacade;
beforeAll(async () => {
  sandbox = createSolanaSandbox();
  facade = await startRpcFacade(sandbox.connection);
});
afterAll(() => facade?.close());

function request(paymentId: string, buyer: string, merchant: string, amount = 2_000_000n): OptionRequest {
  const a = sandbox.assets[0]!;
  const asset = createAssetRegistry([{ id: a.caip19, symbol: a.symbol, name: a.name, decimals: a.decimals, flows: ['spl'], networkName: 'Sandbox Solana' }]).get(a.caip19)!;
  return {
    paymentId,
    optionId: `opt_${paymentId}`,
    account: `${sandbox.caip2}:${buyer}`,
    asset,
    amount,
    destination: `${sandbox.caip2}:${merchant}`,
    deadline: new Date(Date.now() + 60_000),
    quotedAt: new Date(),
  };
}

const txOf = (actions: WireAction[]) => (actions[0] as { data: { params: Array<{ transaction: string }> } }).data.params[0]!.transaction;

describe('the production wiring over HTTP JSON-RPC', () => {
  it('builds, verifies, submits and confirms through web3.js Connection with a fee payer key from configuration', async () => {
    const chain = solanaChainFromConfig(facade.url, base58Encode(sandbox.feePayer.secretKey), sandbox.caip2);
    const port = createSolanaChainAdapter([chain]);
    const buyer = sandbox.keypair('adapter-buyer');
    const merchant = sandbox.keypair('adapter-merchant').publicKey.toBase58();
    sandbox.openTokenAccount(merchant);
    sandbox.fund(buyer.publicKey.toBase58(), sandbox.mint.toBase58(), 5_000_000n);
    const req = request('pay_http', buyer.publicKey.toBase58(), merchant);
    const prepared = expectOption(await port.prepareOption(req));
    expect(prepared.actions).toEqual([{ type: 'build', data: { data: req.optionId } }]);
    expect(await port.verifyResults(req, prepared.state, ['AAAA'])).toMatchObject({ ok: false, code: 'invalid_results' });
    const fetched = await port.fetchActions!(req, prepared.state, req.optionId);
    if (fetched.state.flow !== 'spl') throw new Error('expected an spl state');
    const signed = walletSignVersioned(txOf(fetched.actions), buyer);
    const verdict = await port.verifyResults(req, fetched.state, [signed]);
    expect(verdict).toMatchObject({ ok: true, txId: expect.any(String) });
    if (!verdict.ok) return;
    expect(await port.advance(req, verdict.submission, verdict.txId!)).toEqual({ state: 'confirmed', txId: verdict.txId });
    expect(await port.advance(req, verdict.submission, verdict.txId!)).toEqual({ state: 'confirmed', txId: verdict.txId });
    expect(sandbox.balance(merchant, sandbox.mint.toBase58())).toBe(2_000_000n);
  });

  it('stays pending, never failed, when the node cannot be reached', async () => {
    const buyer = sandbox.keypair('adapter-buyer-2');
    sandbox.fund(buyer.publicKey.toBase58(), sandbox.mint.toBase58(), 5_000_000n);
    const req = request('pay_down', buyer.publicKey.toBase58(), sandbox.keypair('adapter-merchant').publicKey.toBase58());
    const up = createSolanaChainAdapter([{ caip2: sandbox.caip2, connection: sandbox.connection, feePayer: sandbox.feePayer }]);
    const fetched = await up.fetchActions!(req, expectOption(await up.prepareOption(req)).state, req.optionId);
    const verdict = await up.verifyResults(req, fetched.state, [walletSignVersioned(txOf(fetched.actions), buyer)]);
    if (!verdict.ok) throw new Error(verdict.message);
    const down = await startRpcFacade(sandbox.connection);
    await down.close();
    const offline = createSolanaChainAdapter([solanaChainFromConfig(down.url, JSON.stringify([...sandbox.feePayer.secretKey]), sandbox.caip2)]);
    expect(await offline.advance(req, verdict.submission, verdict.txId!)).toMatchObject({ state: 'pending', txId: verdict.txId });
  });
});

describe('advance on answers the sandbox does not give', () => {
  /** A node that knows the signature with this status (or not at all) and refuses every send. */
  const scripted = (status: SignatureStatus | null, statusSlot = 1): SolanaRpc => ({
    ...sandbox.connection,
    getBlockHeight: async () => 10,
    getEpochInfo: async () => ({ absoluteSlot: 1, blockHeight: 10 }),
    getSignatureStatuses: async () => ({ context: { slot: statusSlot }, value: [status] }),
    sendRawTransaction: async () => {
      throw new Error('connection reset');
    },
  });
  // Wire-shaped bytes (one signature slot, a message): the scripted node never looks inside.
  const transaction = Buffer.concat([Buffer.from([1]), Buffer.alloc(64), Buffer.from([1, 2, 3])]).toString('base64');
  const submission = (lastValidBlockHeight: number) => ({ flow: 'spl' as const, transaction, signature: 'sig', lastValidBlockHeight });
  const port = (status: SignatureStatus | null, statusSlot = 1) =>
    createSolanaChainAdapter([{ caip2: sandbox.caip2, connection: scripted(status, statusSlot), feePayer: sandbox.feePayer }]);
  const req = () => request('pay_x', sandbox.keypair('b').publicKey.toBase58(), sandbox.keypair('m').publicKey.toBase58());

  it('fails a transaction that landed with an error (atomic: nothing moved)', async () => {
    const landed = { slot: 5, confirmations: null, err: { InstructionError: [1, 'Custom'] }, confirmationStatus: 'finalized' } as unknown as SignatureStatus;
    expect(await port(landed).advance(req(), submission(100), 'sig')).toMatchObject({ state: 'failed', txId: 'sig', reason: expect.stringContaining('transaction_error') });
  });

  it('fails a transaction on its error only once the error is at confirmed commitment', async () => {
    // Before: an error seen at processed (a fork that may be dropped) failed the payment at once.
    const processed = { slot: 5, confirmations: 0, err: { InstructionError: [1, 'Custom'] }, confirmationStatus: 'processed' } as unknown as SignatureStatus;
    expect((await port(processed).advance(req(), submission(100), 'sig')).state).toBe('pending');
    const confirmed = { ...processed, confirmations: 1, confirmationStatus: 'confirmed' } as unknown as SignatureStatus;
    expect(await port(confirmed).advance(req(), submission(100), 'sig')).toMatchObject({ state: 'failed', reason: expect.stringContaining('transaction_error') });
  });

  it('waits for the configured commitment before confirming', async () => {
    const processed = { slot: 5, confirmations: 0, err: null, confirmationStatus: 'processed' } as SignatureStatus;
    expect((await port(processed).advance(req(), submission(100), 'sig')).state).toBe('pending');
  });

  it('keeps an unseen transaction pending while its blockhash is valid, failed once it expired', async () => {
    expect((await port(null).advance(req(), submission(100), 'sig')).state).toBe('pending');
    expect(await port(null).advance(req(), submission(9), 'sig')).toMatchObject({ state: 'failed', reason: 'blockhash_expired' });
  });

  it('never calls a blockhash expired from a status node behind the node that read the height', async () => {
    // Before: a status replica at slot 0 (behind the height's slot 1) that had not seen the landing failed the payment.
    expect((await port(null, 0).advance(req(), submission(9), 'sig')).state).toBe('pending');
  });
});

describe('fee payer key from configuration', () => {
  it('reads base58 and solana-keygen JSON, and refuses anything else', () => {
    const k = sandbox.feePayer;
    expect(parseSolanaSecretKey(base58Encode(k.secretKey)).publicKey.equals(k.publicKey)).toBe(true);
    expect(parseSolanaSecretKey(JSON.stringify([...k.secretKey])).publicKey.equals(k.publicKey)).toBe(true);
    expect(() => parseSolanaSecretKey(base58Encode(k.secretKey.slice(0, 32)))).toThrow(/64 bytes/);
    expect(() => parseSolanaSecretKey('[1,2,300]')).toThrow();
  });
});
