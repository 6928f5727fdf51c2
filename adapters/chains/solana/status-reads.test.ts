// Many transfers checked at once share their status reads (status-reads.ts): on the sandbox
// cluster, with the connection's calls counted, 60 concurrent checks cost a few
// `getSignatureStatuses` and `getEpochInfo` calls instead of 60 of each, and every check still
// gets its own transaction's answer.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SolanaRpc } from './rpc.ts';
import { build, serviceSigned, setup, USDC, walletSignVersioned, type Fixture } from './test-fixtures.ts';
import { submitTransaction } from './submit.ts';
import { checkTransaction } from './status.ts';
import { MAX_SIGNATURES_PER_CALL, statusReadsOf } from './status-reads.ts';

let f: Fixture;
beforeEach(() => {
  f = setup();
});
afterEach(() => f.sandbox.close());

/** The sandbox's connection with its status and epoch calls counted (and the signatures each status call carried). */
function counted(): { rpc: SolanaRpc; statusCalls: string[][]; epochCalls: number } {
  const c = f.sandbox.connection;
  const counts = { statusCalls: [] as string[][], epochCalls: 0 };
  const rpc: SolanaRpc = Object.create(c) as SolanaRpc;
  rpc.getSignatureStatuses = (signatures, config) => {
    counts.statusCalls.push([...signatures]);
    return c.getSignatureStatuses(signatures, config);
  };
  rpc.getEpochInfo = (commitment) => {
    counts.epochCalls++;
    return c.getEpochInfo(commitment);
  };
  return Object.assign(counts, { rpc });
}

it('60 concurrent checks share a few calls, and each gets its own answer (landed, or never sent)', async () => {
  const landed = await build(f, USDC(1), 'pay_landed');
  const sent = serviceSigned(f, landed, walletSignVersioned(landed.transactionBase64, f.buyer));
  expect((await submitTransaction(f.sandbox.connection, sent.transaction)).status).toBe('sent');
  const unsent = await build(f, USDC(2), 'pay_unsent');
  const never = serviceSigned(f, unsent, walletSignVersioned(unsent.transactionBase64, f.buyer));
  const c = counted();
  const checks = Array.from({ length: 60 }, (_, i) =>
    checkTransaction(c.rpc, i % 2 ? sent.signature : never.signature, { lastValidBlockHeight: i % 2 ? landed.lastValidBlockHeight : unsent.lastValidBlockHeight }),
  );
  const answers = await Promise.all(checks);
  answers.forEach((a, i) => expect(a).toEqual(i % 2 ? { status: 'confirmed', slot: expect.any(Number) } : { status: 'pending' }));
  // One epoch read shared by all; statuses in at most two calls (a second may start while the first is out).
  expect(c.epochCalls).toBe(1);
  expect(c.statusCalls.length).toBeLessThanOrEqual(2);
  expect(new Set(c.statusCalls.flat())).toEqual(new Set([sent.signature, never.signature]));
});

it('a check asked while status calls are out waits for a call of its own (read after its epoch), and a call carries at most 256 signatures', async () => {
  const c = counted();
  // The node holds its answers until the test lets them go, so "while a call is out" is certain.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const answer = c.rpc.getSignatureStatuses;
  c.rpc.getSignatureStatuses = async (signatures, config) => {
    const result = answer(signatures, config);
    await held;
    return result;
  };
  const reads = statusReadsOf(c.rpc);
  const many = Array.from({ length: MAX_SIGNATURES_PER_CALL + 10 }, (_, i) => `sig${i}x`.padEnd(88, '1'));
  const first = Promise.all(many.map((s) => reads.status(s)));
  await new Promise((r) => setTimeout(r, 10));
  // 266 signatures: two calls (256 and 10), both out now.
  expect(c.statusCalls.map((call) => call.length)).toEqual([MAX_SIGNATURES_PER_CALL, 10]);
  const late = reads.status('late'.padEnd(88, '1'));
  await new Promise((r) => setTimeout(r, 10));
  expect(c.statusCalls).toHaveLength(2);
  release();
  await Promise.all([first, late]);
  expect(c.statusCalls).toHaveLength(3);
  expect(c.statusCalls[2]).toEqual(['late'.padEnd(88, '1')]);
  expect((await late).status).toBeNull();
});

it('a failed status call fails every check that shared it as unknown, never as not found', async () => {
  const c = counted();
  c.rpc.getSignatureStatuses = () => Promise.reject(new Error('node down'));
  const answers = await Promise.all([checkTransaction(c.rpc, 'a'.padEnd(88, '1')), checkTransaction(c.rpc, 'b'.padEnd(88, '1'))]);
  expect(answers).toEqual([
    { status: 'unknown', reason: 'node down' },
    { status: 'unknown', reason: 'node down' },
  ]);
});
