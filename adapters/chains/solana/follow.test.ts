// The follow loop (follow.ts) through the adapter's advance, on a sandbox cluster with a block
// clock (commitment follows depth, as on a real cluster): many payments followed together cost a
// bounded number of status calls, a dropped broadcast is re-sent (simulated first) until it lands,
// a lagging status node fails nothing, and a process that dies while following leaves nothing a
// fresh one cannot finish with the recorded bytes.
import { afterEach, expect, it } from 'vitest';
import type { Keypair } from '@solana/web3.js';
import { createSolanaSandbox, type SolanaSandbox } from '../../sandbox/solana/index.ts';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import type { OptionRequest } from '../../../server/ports/chains.ts';
import { createSolanaChainAdapter } from './gateway-adapter.ts';
import { build, serviceSigned, USDC, walletSignVersioned, type Fixture } from './test-fixtures.ts';
import type { SolanaRpc } from './rpc.ts';

let sandbox: SolanaSandbox | undefined;
afterEach(() => sandbox?.close());

/** A cluster making a block every `blockTimeMs`, a funded buyer and a payable merchant. */
function cluster(blockTimeMs: number): Fixture {
  sandbox = createSolanaSandbox({ blockTimeMs });
  const buyer = sandbox.keypair('follow-buyer');
  sandbox.fund(buyer.publicKey.toBase58(), sandbox.mint.toBase58(), USDC(100));
  const merchant = sandbox.keypair('follow-merchant');
  sandbox.openTokenAccount(merchant.publicKey.toBase58());
  return { sandbox, buyer, merchant, attacker: sandbox.keypair('follow-attacker') };
}

function request(f: Fixture, paymentId: string): OptionRequest {
  const a = f.sandbox.assets[0]!;
  const asset = createAssetRegistry([{ id: a.caip19, symbol: a.symbol, name: a.name, decimals: a.decimals, flows: ['spl'], networkName: 'Sandbox Solana' }]).get(a.caip19)!;
  const at = (k: Keypair) => `${f.sandbox.caip2}:${k.publicKey.toBase58()}`;
  return { paymentId, optionId: 'opt_1', account: at(f.buyer), asset, amount: USDC(1), destination: at(f.merchant), deadline: new Date(Date.now() + 60_000), quotedAt: new Date() };
}

/** What confirm hands the job: the buyer-signed, fee-payer-signed bytes of a fresh build. */
async function submissionFor(f: Fixture, paymentId: string) {
  const built = await build(f, USDC(1), paymentId);
  const { transaction, signature } = serviceSigned(f, built, walletSignVersioned(built.transactionBase64, f.buyer));
  return { flow: 'spl' as const, transaction, signature, lastValidBlockHeight: built.lastValidBlockHeight };
}

/** The sandbox node, counting calls by method; `drop` decides per send whether it is lost on the way. */
function counted(f: Fixture, drop: (n: number) => boolean = () => false) {
  const calls: Record<string, number> = {};
  const count = (m: string) => (calls[m] = (calls[m] ?? 0) + 1);
  const base = f.sandbox.connection;
  let sends = 0;
  const connection: SolanaRpc = {
    ...base,
    getSignatureStatuses: (...a) => (count('getSignatureStatuses'), base.getSignatureStatuses(...a)),
    getEpochInfo: (...a) => (count('getEpochInfo'), base.getEpochInfo(...a)),
    simulateTransaction: (...a) => (count('simulateTransaction'), base.simulateTransaction(...a)),
    sendRawTransaction: async (raw, o) => {
      count('sendRawTransaction');
      // A lost broadcast: the node answers the signature but never forwards the bytes.
      if (drop(++sends)) return '';
      return base.sendRawTransaction(raw, o);
    },
  };
  return { connection, calls };
}

const adapter = (f: Fixture, connection: SolanaRpc, followMs: number) => createSolanaChainAdapter([{ caip2: f.sandbox.caip2, connection, feePayer: f.sandbox.feePayer, followMs }]);

it('follows 40 payments sent at once to confirmed in one job run each, their statuses read together (calls bounded by windows, not payments)', async () => {
  const f = cluster(200);
  const subs = [];
  for (let i = 0; i < 40; i++) subs.push(await submissionFor(f, `pay_${i}`));
  const { connection, calls } = counted(f);
  const port = adapter(f, connection, 20_000);
  const steps = await Promise.all(subs.map((s, i) => port.advance(request(f, `pay_${i}`), s, s.signature)));
  expect(steps.map((s) => s.state)).toEqual(subs.map(() => 'confirmed'));
  expect(f.sandbox.balance(f.merchant.publicKey.toBase58(), f.sandbox.mint.toBase58())).toBe(USDC(40));
  // One simulation and one broadcast each: all landed at once, so nothing was re-sent.
  expect(calls.simulateTransaction).toBe(40);
  expect(calls.sendRawTransaction).toBe(40);
  // A checked transaction needs a slot or two to reach `confirmed` (a window each ~400 ms): 40 jobs
  // polling on their own would ask at least 40 times per look. Together: a handful of calls.
  expect(calls.getSignatureStatuses).toBeLessThanOrEqual(16);
});

it('re-sends a broadcast the node lost, simulated first, and confirms it in the same job run', async () => {
  const f = cluster(100);
  const sub = await submissionFor(f, 'pay_lost');
  // The first two broadcasts are lost on the way.
  const { connection, calls } = counted(f, (n) => n <= 2);
  const step = await adapter(f, connection, 20_000).advance(request(f, 'pay_lost'), sub, sub.signature);
  expect(step).toEqual({ state: 'confirmed', txId: sub.signature });
  expect(calls.sendRawTransaction).toBe(3);
  // Every broadcast after a simulation of the same bytes (issue 29 item 5).
  expect(calls.simulateTransaction).toBeGreaterThanOrEqual(calls.sendRawTransaction!);
  expect(f.sandbox.balance(f.merchant.publicKey.toBase58(), f.sandbox.mint.toBase58())).toBe(USDC(1));
});

it('never fails a payment whose status node lags behind the height that says its blockhash expired', async () => {
  const f = cluster(100);
  const sub = await submissionFor(f, 'pay_lag');
  const base = f.sandbox.connection;
  // Every send lost; the status node answers "not found" from a slot before the finalized one the
  // height came from (a replica behind the same URL), and the height is past the blockhash's window.
  const lagging: SolanaRpc = {
    ...base,
    sendRawTransaction: async () => '',
    getEpochInfo: async () => ({ absoluteSlot: 1_000_000, blockHeight: sub.lastValidBlockHeight + 1 }),
    getSignatureStatuses: async () => ({ context: { slot: 999_999 }, value: [null] }),
  };
  const step = await adapter(f, lagging, 1_500).advance(request(f, 'pay_lag'), sub, sub.signature);
  expect(step).toEqual({ state: 'submitted', txId: sub.signature });
});

it('a process that dies while following leaves the payment to the next run, which sends the recorded bytes and moves the funds once', async () => {
  const f = cluster(100);
  const sub = await submissionFor(f, 'pay_crash');
  // The first process: every broadcast lost, and it dies while its job waits on the loop.
  const dying = counted(f, () => true);
  void adapter(f, dying.connection, 3_000).advance(request(f, 'pay_crash'), sub, sub.signature);
  await new Promise((r) => setTimeout(r, 300));
  expect(dying.calls.sendRawTransaction).toBeGreaterThanOrEqual(1);
  expect(f.sandbox.balance(f.merchant.publicKey.toBase58(), f.sandbox.mint.toBase58())).toBe(0n);
  // The job runs again in a fresh process (a new connection, a new loop) with what confirm recorded.
  const fresh = counted(f);
  expect(await adapter(f, fresh.connection, 20_000).advance(request(f, 'pay_crash'), sub, sub.signature)).toEqual({ state: 'confirmed', txId: sub.signature });
  expect(await adapter(f, fresh.connection, 20_000).advance(request(f, 'pay_crash'), sub, sub.signature)).toEqual({ state: 'confirmed', txId: sub.signature });
  expect(f.sandbox.balance(f.merchant.publicKey.toBase58(), f.sandbox.mint.toBase58())).toBe(USDC(1));
});
