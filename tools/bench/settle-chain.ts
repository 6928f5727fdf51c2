// What the settle bench reads from the chains themselves (never through the latency proxy): when
// each block arrived, and what the service's fee accounts sent in a run (transactions, gas, lamports).
import { Keypair } from '@solana/web3.js';
import { Wallet } from 'ethers';
import { httpUpstream } from '../chain-faults/index.ts';

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const answer = await httpUpstream(url)(method, params);
  if ('error' in answer) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

/** Arrival times of new EVM blocks and Solana slots, seen every 50 ms. */
export interface BlockClock {
  /** Blocks (slots on Solana) that arrived after `from` and at or before `to`, ms since the epoch. */
  between(chain: 'evm' | 'solana', from: number, to: number): number;
  evmHead(): number;
  /** Round trips of the clock's own reads straight to the chains process since `since`, ms: how loaded it is. */
  roundTrips(since: number): { p50: number; p99: number };
  stop(): void;
}

export function startBlockClock(chainsUrl: string): BlockClock {
  const arrivals = { evm: [] as number[], solana: [] as number[] };
  const last = { evm: -1, solana: -1 };
  let stopped = false;
  const trips: { at: number; ms: number }[] = [];
  const look = async (chain: 'evm' | 'solana') => {
    const asked = Date.now();
    const n = chain === 'evm' ? Number(await rpc(`${chainsUrl}/evm`, 'eth_blockNumber', [])) : Number(await rpc(`${chainsUrl}/solana`, 'getSlot', [{ commitment: 'processed' }]));
    if (last[chain] >= 0 && n > last[chain]) for (let i = last[chain]; i < n; i++) arrivals[chain].push(Date.now());
    last[chain] = Math.max(last[chain], n);
    trips.push({ at: asked, ms: Date.now() - asked });
    if (trips.length > 20_000) trips.splice(0, 10_000);
  };
  void (async () => {
    while (!stopped) {
      await Promise.all([look('evm'), look('solana')]).catch(() => {});
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    between: (chain, from, to) => arrivals[chain].filter((t) => t > from && t <= to).length,
    evmHead: () => last.evm,
    roundTrips(since) {
      const ms = trips.filter((t) => t.at >= since).map((t) => t.ms);
      ms.sort((a, b) => a - b);
      const at = (p: number) => ms[Math.min(ms.length - 1, Math.ceil(p * ms.length) - 1)] ?? NaN;
      return { p50: at(0.5), p99: at(0.99) };
    },
    stop: () => void (stopped = true),
  };
}

export async function evmHead(chainsUrl: string): Promise<number> {
  return Number(await rpc(`${chainsUrl}/evm`, 'eth_blockNumber', []));
}

/** Transactions sent by any of `relayerKeys` in blocks `from`..`to`, and the gas they used. */
export async function relayerSpend(chainsUrl: string, relayerKeys: string[], from: number, to: number): Promise<{ txs: number; gas: bigint }> {
  const url = `${chainsUrl}/evm`;
  const relayers = new Set(relayerKeys.map((k) => new Wallet(k).address.toLowerCase()));
  let txs = 0;
  let gas = 0n;
  for (let n = from; n <= to; n++) {
    const block = (await rpc(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, true])) as { transactions: { hash: string; from: string }[] } | null;
    for (const tx of block?.transactions ?? []) {
      if (!relayers.has(tx.from.toLowerCase())) continue;
      const receipt = (await rpc(url, 'eth_getTransactionReceipt', [tx.hash])) as { gasUsed: string };
      txs++;
      gas += BigInt(receipt.gasUsed);
    }
  }
  return { txs, gas };
}

/** The Solana fee payer's balance in lamports, read from the chain. */
export async function feePayerLamports(chainsUrl: string, feePayerKeyJson: string): Promise<bigint> {
  const key = Keypair.fromSecretKey(Uint8Array.from(JSON.parse(feePayerKeyJson) as number[])).publicKey.toBase58();
  const answer = (await rpc(`${chainsUrl}/solana`, 'getAccountInfo', [key, { encoding: 'base64' }])) as { value: { lamports: number } | null };
  return BigInt(answer.value?.lamports ?? 0);
}
