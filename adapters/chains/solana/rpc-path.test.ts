// The production path: web3.js `Connection` speaking JSON-RPC over HTTP. No solana-test-validator is
// installable here (not in Debian, not on npm), so the sandbox is served by its JSON-RPC facade.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '@solana/web3.js';
import { startRpcFacade, type RpcFacade } from '../../sandbox/solana/rpc-facade.ts';
import { build, serviceSigned, setup, USDC, walletSignVersioned, type Fixture } from './test-fixtures.ts';
import type { SolanaRpc } from './rpc.ts';
import { verifySignedTransaction } from './verify.ts';
import { submitTransaction } from './submit.ts';
import { checkTransaction, isBlockhashExpired } from './status.ts';
import { findPaymentByReference } from './find.ts';
import { getTokenBalance } from './balance.ts';
import { deriveReference } from './reference.ts';

describe('chain functions through web3.js Connection over HTTP JSON-RPC', () => {
  let f: Fixture;
  let facade: RpcFacade;
  let rpc: SolanaRpc; // assigning a Connection here is the compile-time proof it fits the port

  beforeAll(async () => {
    f = setup();
    facade = await startRpcFacade(f.sandbox.connection);
    rpc = new Connection(facade.url, 'confirmed');
  });
  afterAll(() => facade.close());

  it('pays, confirms, deduplicates a replay and finds the payment by reference', async () => {
    const mint = f.sandbox.mint;
    const built = await build(f, USDC(3.2), 'pay_rpc', rpc);
    expect(await isBlockhashExpired(rpc, built.lastValidBlockHeight)).toBe(false);
    const buyerSigned = walletSignVersioned(built.transactionBase64, f.buyer);
    expect(verifySignedTransaction(buyerSigned, { messageBase64: built.messageBase64, buyer: f.buyer.publicKey, feePayer: f.sandbox.feePayer.publicKey }).ok).toBe(true);
    const { transaction: signed, signature } = serviceSigned(f, built, buyerSigned);

    expect(await submitTransaction(rpc, signed)).toEqual({ status: 'sent', signature });
    expect(await checkTransaction(rpc, signature, { commitment: 'finalized', lastValidBlockHeight: built.lastValidBlockHeight })).toEqual({
      status: 'confirmed',
      slot: expect.any(Number),
    });
    expect(await getTokenBalance(rpc, f.merchant.publicKey, mint)).toBe(USDC(3.2));
    expect(await getTokenBalance(rpc, f.buyer.publicKey, mint)).toBe(USDC(6.8));
    expect(await rpc.getAccountInfo(f.buyer.publicKey)).toBeNull(); // the buyer never held SOL

    expect(await submitTransaction(rpc, signed)).toEqual({ status: 'sent', signature });
    expect(await getTokenBalance(rpc, f.merchant.publicKey, mint)).toBe(USDC(3.2));

    const found = await findPaymentByReference(rpc, deriveReference('pay_rpc', 'opt_1'));
    expect(found.map((m) => m.signature)).toEqual([signature]);
  });

  it('carries a refusal and an expired blockhash through the RPC error path', async () => {
    const tooMuch = await build(f, USDC(100), 'pay_rpc_2', rpc);
    const { transaction, signature } = serviceSigned(f, tooMuch, walletSignVersioned(tooMuch.transactionBase64, f.buyer));
    f.sandbox.expireBlockhash();
    const refused = await submitTransaction(rpc, transaction);
    expect(refused).toMatchObject({ status: 'rejected', reason: expect.stringContaining('BlockhashNotFound') });
    expect(await checkTransaction(rpc, signature)).toEqual({ status: 'pending' });
    expect(await isBlockhashExpired(rpc, tooMuch.lastValidBlockHeight)).toBe(true);
    expect(await checkTransaction(rpc, signature, { lastValidBlockHeight: tooMuch.lastValidBlockHeight })).toEqual({ status: 'failed', reason: 'blockhash_expired' });
  });

  it('answers unknown (never failed) when the node cannot be reached', async () => {
    const built = await build(f, USDC(1), 'pay_rpc_3', rpc);
    const { transaction: signed, signature } = serviceSigned(f, built, walletSignVersioned(built.transactionBase64, f.buyer));
    const down = await startRpcFacade(f.sandbox.connection);
    await down.close();
    const offline = new Connection(down.url, 'confirmed');
    expect(await submitTransaction(offline, signed)).toMatchObject({ status: 'unknown', signature });
    expect(await checkTransaction(offline, signature, { lastValidBlockHeight: 0 })).toMatchObject({ status: 'unknown' });
  });
});
