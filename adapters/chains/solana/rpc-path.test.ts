// The production path: web3.js `Connection` speaking JSON-RPC over HTTP. No solana-test-validator is
// installable here (not in Debian, not on npm), so the sandbox is served by its JSON-RPC facade.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '@solana/web3.js';
import { startRpcFacade, type RpcFacade } from '../../sandbox/solana/rpc-facade.ts';
import { build, setup, USDC, walletSignVersioned, type Fixture } from './test-fixtures.ts';
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
    const signed = walletSignVersioned(built.transactionBase64, f.buyer);
    expect(verifySignedTransaction(signed, { messageBase64: built.messageBase64, buyer: f.buyer.publicKey, feePayer: f.sandbox.feePayer.publicKey }).ok).toBe(true);

    expect(await submitTransaction(rpc, signed)).toEqual({ status: 'sent', signature: built.signature });
    expect(await checkTransaction(rpc, built.signature, { commitment: 'finalized', lastValidBlockHeight: built.lastValidBlockHeight })).toEqual({
      status: 'confirmed',
      slot: expect.any(Number),
    });
    expect(await getTokenBalance(rpc, f.merchant.publicKey, mint)).toBe(USDC(3.2));
    expect(await getTokenBalance(rpc, f.buyer.publicKey, mint)).toBe(USDC(6.8));
    expect(await rpc.getAccountInfo(f.buyer.publicKey)).toBeNull(); // the buyer never held SOL

    expect(await submitTransaction(rpc, signed)).toEqual({ status: 'already_processed', signature: built.signature });
    expect(await getTokenBalance(rpc, f.merchant.publicKey, mint)).toBe(USDC(3.2));

    const found = await findPaymentByReference(rpc, deriveReference('pay_rpc', 'opt_1'));
    expect(found.map((m) => m.signature)).toEqual([built.signature]);
  });

  it('carries a preflight refusal and an expired blockhash through the RPC error path', async () => {
    const tooMuch = await build(f, USDC(100), 'pay_rpc_2', rpc);
    const refused = await submitTransaction(rpc, walletSignVersioned(tooMuch.transactionBase64, f.buyer));
    expect(refused).toMatchObject({ status: 'rejected', reason: expect.stringContaining('simulation failed') });
    expect(await checkTransaction(rpc, tooMuch.signature)).toEqual({ status: 'pending' });

    f.sandbox.expireBlockhash();
    expect(await isBlockhashExpired(rpc, tooMuch.lastValidBlockHeight)).toBe(true);
    expect(await checkTransaction(rpc, tooMuch.signature, { lastValidBlockHeight: tooMuch.lastValidBlockHeight })).toEqual({ status: 'failed', reason: 'blockhash_expired' });
  });

  it('answers unknown (never failed) when the node cannot be reached', async () => {
    const built = await build(f, USDC(1), 'pay_rpc_3', rpc);
    const signed = walletSignVersioned(built.transactionBase64, f.buyer);
    const down = await startRpcFacade(f.sandbox.connection);
    await down.close();
    const offline = new Connection(down.url, 'confirmed');
    expect(await submitTransaction(offline, signed)).toMatchObject({ status: 'unknown', signature: built.signature });
    expect(await checkTransaction(offline, built.signature, { lastValidBlockHeight: 0 })).toMatchObject({ status: 'unknown' });
  });
});
