// The confirm path's round trips: the wallet's answer is checked in the process, then the
// blockhash height and the fee-payer-signed simulation are asked of the node at once, so a
// confirm waits one round trip of the node's latency for them, not two.
import { expect, it } from 'vitest';
import { createSolanaSandbox } from '../../sandbox/solana/index.ts';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import { expectOption, type OptionRequest, type WireAction } from '../../../server/ports/chains.ts';
import { createSolanaChainAdapter } from './gateway-adapter.ts';
import { walletSignVersioned } from './test-fixtures.ts';
import type { SolanaRpc } from './rpc.ts';

const sandbox = createSolanaSandbox();
const txOf = (actions: WireAction[]) => (actions[0] as { data: { params: Array<{ transaction: string }> } }).data.params[0]!.transaction;

/** The sandbox node answering the height and simulations after `ms`, tracking how many were out at once. */
function slowNode(ms: number) {
  const seen = { inFlight: 0, most: 0, heights: 0, simulations: 0 };
  const delayed =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>, count: () => void) =>
    async (...a: A): Promise<R> => {
      count();
      seen.most = Math.max(seen.most, ++seen.inFlight);
      await new Promise((r) => setTimeout(r, ms));
      seen.inFlight--;
      return f(...a);
    };
  const base = sandbox.connection;
  const connection: SolanaRpc = {
    ...base,
    getBlockHeight: delayed(base.getBlockHeight, () => seen.heights++),
    simulateTransaction: delayed(base.simulateTransaction, () => seen.simulations++),
  };
  return { connection, seen };
}

async function confirmWith(node: ReturnType<typeof slowNode>, paymentId: string, lastValidBlockHeight?: number) {
  const { connection, seen } = node;
  const port = createSolanaChainAdapter([{ caip2: sandbox.caip2, connection, feePayer: sandbox.feePayer }]);
  const buyer = sandbox.keypair(`${paymentId}-buyer`);
  const merchant = sandbox.keypair(`${paymentId}-merchant`).publicKey.toBase58();
  sandbox.openTokenAccount(merchant);
  sandbox.fund(buyer.publicKey.toBase58(), sandbox.mint.toBase58(), 5_000_000n);
  const a = sandbox.assets[0]!;
  const asset = createAssetRegistry([{ id: a.caip19, symbol: a.symbol, name: a.name, decimals: a.decimals, flows: ['spl'], networkName: 'Sandbox Solana' }]).get(a.caip19)!;
  const req: OptionRequest = {
    paymentId,
    optionId: `opt_${paymentId}`,
    account: `${sandbox.caip2}:${buyer.publicKey.toBase58()}`,
    asset,
    amount: 2_000_000n,
    destination: `${sandbox.caip2}:${merchant}`,
    deadline: new Date(Date.now() + 60_000),
    quotedAt: new Date(),
  };
  const fetched = await port.fetchActions!(req, expectOption(await port.prepareOption(req)).state, req.optionId);
  if (fetched.state.flow !== 'spl') throw new Error('expected an spl state');
  const state = lastValidBlockHeight === undefined ? fetched.state : { ...fetched.state, lastValidBlockHeight };
  // Only the confirm's own calls count (the build simulates too, for its compute units).
  Object.assign(seen, { most: 0, heights: 0, simulations: 0 });
  return port.verifyResults(req, state, [walletSignVersioned(txOf(fetched.actions), buyer)]);
}

it('asks the blockhash height and the simulation of a confirm at once, not one after the other', async () => {
  const node = slowNode(100);
  const { seen } = node;
  expect(await confirmWith(node, 'pay_parallel')).toMatchObject({ ok: true, txId: expect.any(String) });
  expect(seen, JSON.stringify(seen)).toMatchObject({ heights: 1, simulations: 1, most: 2 });
});

it('still refuses a transaction too close to its last valid height, whatever its simulation says', async () => {
  const node = slowNode(10);
  // The stored height leaves the blockhash 10 blocks: inside the 20-block margin, though the
  // blockhash itself is fresh and the simulation passes.
  const near = await confirmWith(node, 'pay_near', (await sandbox.connection.getBlockHeight('confirmed')) + 10);
  expect(near).toMatchObject({ ok: false, code: 'quote_expired' });
});
