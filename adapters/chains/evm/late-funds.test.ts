import { Wallet, type Provider } from 'ethers';
import { describe, expect, it } from 'vitest';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import type { OptionRequest } from '../../../server/ports/chains.ts';
import { findLateDirectTransfer } from './late-funds.ts';

/** The search's RPC bounds against a scripted node of 100,000 blocks, one every 12 s, with no logs. */
const TOKEN = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const asset = createAssetRegistry([{ id: `eip155:8453/erc20:${TOKEN}`, symbol: 'USDC', name: 'USD Coin', decimals: 6, flows: ['transfer'], networkName: 'Base' }]).get(
  `eip155:8453/erc20:${TOKEN}`,
)!;
const HEAD = 100_000;
const GENESIS_S = 1_700_000_000;
const quoteBlock = 90_000;

function node() {
  const calls = { getBlock: 0, getLogs: [] as Array<{ fromBlock: number; toBlock: number }> };
  const provider = {
    getBlockNumber: () => Promise.resolve(HEAD),
    getBlock: (n: number) => (calls.getBlock++, Promise.resolve({ number: n, timestamp: GENESIS_S + n * 12, hash: `0x${n.toString(16).padStart(64, '0')}` })),
    getLogs: (f: { fromBlock: number; toBlock: number }) => (calls.getLogs.push({ fromBlock: f.fromBlock, toBlock: f.toBlock }), Promise.resolve([])),
  } as unknown as Provider;
  return { provider, calls };
}

const req = (optionId: string): OptionRequest => {
  const quotedAt = new Date((GENESIS_S + quoteBlock * 12) * 1000 + 60_000);
  return {
    paymentId: 'pay_late',
    optionId,
    account: `eip155:8453:${Wallet.createRandom().address}`,
    asset,
    amount: 1_000_000n,
    destination: `eip155:8453:${Wallet.createRandom().address}`,
    quotedAt,
    deadline: new Date(quotedAt.getTime() + 300_000),
  };
};

describe('late direct transfers: bounded reads', () => {
  it('reads only from the quote’s block to the final head, and finds the quote’s block once, not every run', async () => {
    const { provider, calls } = node();
    const chain = { provider, confirmations: 1, finality: { kind: 'depth', blocks: 10 } as const };
    const r = req('opt_a');
    expect(await findLateDirectTransfer(chain, r)).toEqual({ found: false });
    const first = calls.getBlock;
    expect(first).toBe(16);
    // One block before the first stamped at the quote less its clock allowance (as the relayer flows' scan window).
    expect(Math.min(...calls.getLogs.map((l) => l.fromBlock))).toBe(quoteBlock - 1);
    expect(Math.max(...calls.getLogs.map((l) => l.toBlock))).toBe(HEAD - 10 + 1);
    const firstReads = calls.getLogs.length;
    expect(await findLateDirectTransfer(chain, r)).toEqual({ found: false });
    // Before: the binary search for the quote's block ran again on every run (16 block reads each).
    expect(calls.getBlock - first).toBe(0);
    // Final blocks never change: a run reads only what became final since (nothing here), not the quote's range again
    // (before: every run read its ${HEAD - quoteBlock} blocks again, a page per 2,000; a week on Polygon is ~150 pages a quote a run).
    expect(calls.getLogs.slice(firstReads)).toEqual([]);
    // Another option is searched for on its own.
    await findLateDirectTransfer(chain, req('opt_b'));
    expect(calls.getBlock - first).toBe(first);
  });

  it('a quote whose blocks are not final yet is not scanned, and its start is searched again later', async () => {
    const { provider, calls } = node();
    const chain = { provider, confirmations: 1, finality: { kind: 'depth', blocks: HEAD - quoteBlock + 100 } as const };
    expect(await findLateDirectTransfer(chain, req('opt_c'))).toEqual({ found: false });
    expect(calls.getLogs).toEqual([]);
  });
});
