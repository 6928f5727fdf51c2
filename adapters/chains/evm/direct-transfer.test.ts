import { Wallet, type Provider, type TransactionResponse } from 'ethers';
import { describe, expect, it } from 'vitest';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import { createManualClock } from '../../../server/ports/clock.ts';
import type { OptionRequest } from '../../../server/ports/chains.ts';
import { NEVER_SEEN_GRACE_MS, advanceDirectTransfer, checkDirectTransferResult, directTransferCheck, prepareDirectTransfer } from './direct-transfer.ts';
import { buildTransferTransaction } from './transfer.ts';

/** The flow's decisions against a scripted node: when a hash is given up on, and what confirm refuses at once. */
const TOKEN = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const asset = createAssetRegistry([{ id: `eip155:8453/erc20:${TOKEN}`, symbol: 'USDC', name: 'USD Coin', decimals: 6, flows: ['transfer'], networkName: 'Base' }]).get(
  `eip155:8453/erc20:${TOKEN}`,
)!;
const buyer = Wallet.createRandom().address;
const merchant = Wallet.createRandom().address;
const quotedAt = new Date('2026-11-22T10:00:00.000Z');
const req: OptionRequest = {
  paymentId: 'pay_direct',
  optionId: 'opt_1',
  account: `eip155:8453:${buyer}`,
  asset,
  amount: 7_000_000n,
  destination: `eip155:8453:${merchant}`,
  deadline: new Date(quotedAt.getTime() + 300_000),
  quotedAt,
};
const HASH = `0x${'ab'.repeat(32)}`;
const giveUpAt = req.deadline.getTime() + NEVER_SEEN_GRACE_MS;

/** A node that knows `tx` (or nothing) and has mined nothing; `fail` makes every call an RPC error. */
function node(tx: Partial<TransactionResponse> | null, fail = false): Provider {
  const answer = <T>(value: T) => (fail ? Promise.reject(new Error('connection reset')) : Promise.resolve(value));
  return {
    getTransaction: () => answer(tx),
    getTransactionReceipt: () => answer(null),
    getBlockNumber: () => answer(100),
    getBlock: () => answer({ timestamp: Math.floor(quotedAt.getTime() / 1000) - 3600 }),
  } as unknown as Provider;
}
const chain = (provider: Provider, at: number) => ({ caip2: 'eip155:8453', provider, confirmations: 1, clock: createManualClock(at) });
const tagged = prepareDirectTransfer(chain(node(null), 0), req).actions[0]!;
const taggedData = (tagged as { data: { params: Array<{ data: string }> } }).data.params[0]!.data;

describe('direct transfer: following the hash', () => {
  it('waits for a hash the node has not seen until the quote deadline plus the grace, then gives it up', async () => {
    expect(await advanceDirectTransfer(chain(node(null), giveUpAt - 1), req, HASH)).toEqual({ state: 'pending', reason: 'not_found', txId: HASH });
    expect(await advanceDirectTransfer(chain(node(null), giveUpAt), req, HASH)).toEqual({ state: 'failed', reason: 'the node never saw the transaction', txId: HASH });
    expect(await advanceDirectTransfer(chain(node(null), giveUpAt - 1), req, null)).toMatchObject({ state: 'pending' });
    expect(await advanceDirectTransfer(chain(node(null), giveUpAt), req, null)).toMatchObject({ state: 'failed' });
  });

  it('never gives up on an RPC error or a transaction in the pool, however late', async () => {
    expect(await advanceDirectTransfer(chain(node(null, true), giveUpAt + 86_400_000), req, HASH)).toMatchObject({ state: 'pending', reason: 'rpc_error' });
    const inPool = { from: buyer, data: taggedData, blockHash: null };
    expect(await advanceDirectTransfer(chain(node(inPool), giveUpAt + 86_400_000), req, HASH)).toMatchObject({ state: 'pending', reason: 'not_mined' });
  });

  it('fails at once, mined or not, a transaction from another account or without this option’s tag', async () => {
    const untagged = buildTransferTransaction({ token: TOKEN, from: buyer, to: merchant, value: 7_000_000n }).data;
    expect(await advanceDirectTransfer(chain(node({ from: Wallet.createRandom().address, data: taggedData }), 0), req, HASH)).toMatchObject({
      state: 'failed',
      reason: 'sent by another account',
    });
    expect(await advanceDirectTransfer(chain(node({ from: buyer, data: untagged }), 0), req, HASH)).toMatchObject({ state: 'failed', reason: expect.stringMatching(/reference/) });
  });
});

describe('direct transfer: confirm', () => {
  it('refuses what the node already shows cannot pay this option, accepts what it does not know yet', async () => {
    const c = (tx: Partial<TransactionResponse> | null, fail = false) => chain(node(tx, fail), 0);
    expect(await checkDirectTransferResult(c(null), req, 'not-a-hash')).toMatchObject({ ok: false, code: 'invalid_results' });
    expect(await checkDirectTransferResult(c({ from: buyer, data: '0xa9059cbb' }), req, HASH)).toMatchObject({
      ok: false,
      code: 'invalid_results',
      message: expect.stringMatching(/reference/),
    });
    expect(await checkDirectTransferResult(c({ from: merchant, data: taggedData }), req, HASH)).toMatchObject({ ok: false, message: expect.stringMatching(/another account/) });
    // Mined an hour before the quote (the scripted block's time).
    expect(await checkDirectTransferResult(c({ from: buyer, data: taggedData, blockHash: HASH }), req, HASH)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/before the quote/),
    });
    const accepted = { ok: true, submission: { flow: 'transfer' }, txId: HASH };
    expect(await checkDirectTransferResult(c({ from: buyer, data: taggedData, blockHash: null }), req, HASH.toUpperCase().replace('0X', '0x'))).toEqual(accepted);
    expect(await checkDirectTransferResult(c(null), req, HASH)).toEqual(accepted);
    expect(await checkDirectTransferResult(c(null, true), req, HASH)).toEqual(accepted);
  });

  it('builds the option’s transaction with the tag the checks expect', () => {
    expect(taggedData.endsWith(directTransferCheck(req, 1).reference.slice(2))).toBe(true);
    expect(tagged).toMatchObject({ type: 'walletRpc', data: { chain_id: 'eip155:8453', method: 'eth_sendTransaction' } });
  });
});
