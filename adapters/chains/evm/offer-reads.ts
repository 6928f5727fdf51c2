// What building options reads from one EVM chain, shared by every options call of the process for a
// few seconds: a wallet's call quotes several assets per account, and calls come in bursts. Each
// read goes through the provider for offers (multi-provider.ts `offerReads()`: no head read per
// call, concurrent calls in one batch), concurrent asks of one key share one request, and a failed
// read is not kept (the next call asks again). Nothing read here ends a payment: the relayer's
// submission reads the buyer's code, the approvals and the relayer's funds again, guarded.
import type { FeeData, Provider, Wallet } from 'ethers';
import { checksummed } from './address.ts';
import type { RelayerFlowName } from './gas-policy.ts';
import { FLOW_GAS } from './gas-policy.ts';
import { l1DataFee } from './l1-fee.ts';
import { readErc20Allowance } from './permit2.ts';
import type { RelayerFunds } from './relayer-submit.ts';

/** How long a read is shared, ms: the head and fees move by the block; a buyer's allowance and code by their own transactions. */
export const OFFER_READ_TTL_MS = { head: 5_000, feeData: 5_000, balance: 15_000, l1Fee: 15_000, code: 10_000, allowance: 5_000 } as const;
/** The last fee data read stays usable this long while the node cannot be read (a gas budget weighed on a fee a minute old). */
const FEE_DATA_FALLBACK_MS = 60_000;
/** Entries kept per keyed cache: options quote at most 50 accounts a call, so this covers many calls' worth. */
const MAX_KEYED_ENTRIES = 10_000;

/** What the reads need of one chain. */
export interface OfferReadChain {
  caip2: string;
  /** Reads for offers (default: the chain's provider). */
  provider: Provider;
  relayer: Wallet;
  funds: RelayerFunds;
  permit2: string;
  l1DataFee?: 'op-stack' | 'none';
  maxFeePerGas: bigint;
}

/** Reads shared by all options of a chain for a few seconds. */
export interface ChainReads {
  head(): Promise<number>;
  /** The relayer's balance; when the node cannot be read, the last balance read (throws when none ever was). */
  balance(): Promise<bigint>;
  /** The node's fees; when it cannot be read, the last ones read within a minute. */
  feeData(): Promise<FeeData>;
  l1Fee(flow: RelayerFlowName): Promise<bigint>;
  /** The account's code (`0x`: none). */
  code(address: string): Promise<string>;
  /** The owner's ERC-20 allowance to Permit2. */
  permit2Allowance(token: string, owner: string): Promise<bigint>;
  /** Drops a shared allowance: the owner confirmed with approvals, so the next offer reads it again. */
  forgetAllowance(token: string, owner: string): void;
}

type Entry<T> = { at: number; value: Promise<T> };

/** One read shared for `ttlMs`; a failed one is dropped so the next call reads again. */
export function cached<T>(ttlMs: number, read: () => Promise<T>, now: () => number): () => Promise<T> {
  const keyed = cachedByKey(ttlMs, 1, read, now);
  return () => keyed('');
}

type Keyed<T> = ((key: string) => Promise<T>) & { forget(key: string): void };

/** Reads shared per key for `ttlMs` (at most `maxEntries` keys, the oldest dropped first). */
export function cachedByKey<T>(ttlMs: number, maxEntries: number, read: (key: string) => Promise<T>, now: () => number): Keyed<T> {
  const entries = new Map<string, Entry<T>>();
  const get = (key: string): Promise<T> => {
    const hit = entries.get(key);
    if (hit && now() - hit.at < ttlMs) return hit.value;
    entries.delete(key);
    const entry = { at: now(), value: read(key) };
    entries.set(key, entry);
    entry.value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    // Map order is insertion order: the first key is the oldest.
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    return entry.value;
  };
  return Object.assign(get, { forget: (key: string) => void entries.delete(key) });
}

/** `read`, or its last good answer (within `maxAgeMs`) when it fails. */
function withLastGood<T>(read: () => Promise<T>, maxAgeMs: number, now: () => number): () => Promise<T> {
  let last: { at: number; value: T } | null = null;
  return async () => {
    try {
      const value = await read();
      last = { at: now(), value };
      return value;
    } catch (err) {
      if (last && now() - last.at <= maxAgeMs) return last.value;
      throw err;
    }
  };
}

export function createChainReads(c: OfferReadChain, now: () => number = Date.now): ChainReads {
  const p = c.provider;
  // A read taken before the relayer's last refusal for lack of funds is stale: read again.
  let readAfter = -1;
  let balanceRead: () => Promise<{ value: bigint; after: number }> = () => Promise.reject(new Error('unread'));
  const fresh = () => {
    readAfter = c.funds.refusals();
    const after = readAfter;
    balanceRead = cached(OFFER_READ_TTL_MS.balance, async () => ({ value: await p.getBalance(c.relayer.address), after }), now);
  };
  let lastBalance: bigint | null = null;
  const balance = async () => {
    if (readAfter !== c.funds.refusals()) fresh();
    try {
      const b = await balanceRead();
      c.funds.observed(b.value, b.after);
      lastBalance = b.value;
      return b.value;
    } catch (err) {
      // A refusal for lack of funds since is still weighed by the caller (funds.shortOf()).
      if (lastBalance !== null) return lastBalance;
      throw err;
    }
  };
  const feeData = withLastGood(
    cached(OFFER_READ_TTL_MS.feeData, () => p.getFeeData(), now),
    FEE_DATA_FALLBACK_MS,
    now,
  );
  const l1 = {
    eip3009: cached(OFFER_READ_TTL_MS.l1Fee, () => sampleL1Fee(c, 'eip3009'), now),
    permit2: cached(OFFER_READ_TTL_MS.l1Fee, () => sampleL1Fee(c, 'permit2'), now),
  };
  const code = cachedByKey(OFFER_READ_TTL_MS.code, MAX_KEYED_ENTRIES, (address) => p.getCode(address), now);
  const allowance = cachedByKey(
    OFFER_READ_TTL_MS.allowance,
    MAX_KEYED_ENTRIES,
    (key) => {
      const [token, owner] = key.split('/') as [string, string];
      return readErc20Allowance(p, token, owner, c.permit2);
    },
    now,
  );
  return {
    head: cached(OFFER_READ_TTL_MS.head, () => p.getBlockNumber(), now),
    balance,
    feeData,
    l1Fee: (flow) => (c.l1DataFee === 'op-stack' ? l1[flow]() : Promise.resolve(0n)),
    code: (address) => code(checksummed(address)),
    permit2Allowance: (token, owner) => allowance(`${checksummed(token)}/${checksummed(owner)}`),
    forgetAllowance: (token, owner) => allowance.forget(`${checksummed(token)}/${checksummed(owner)}`),
  };
}

/**
 * Starts at once every read a gasless option may need, so they leave in one batch (one round trip
 * to a slow node) instead of one after another; the steps that need them find them shared in
 * `reads`. A failure here is the step's to weigh, not this one's.
 */
export function prefetchOfferReads(reads: ChainReads, want: { account: string; fresh: boolean; permit2Token?: string }): void {
  const started: Promise<unknown>[] = [reads.code(want.account), reads.balance()];
  if (want.fresh) started.push(reads.head());
  if (want.permit2Token) started.push(reads.permit2Allowance(want.permit2Token, want.account));
  for (const r of started) r.catch(() => undefined);
}

async function sampleL1Fee(c: OfferReadChain, flow: RelayerFlowName): Promise<bigint> {
  return l1DataFee(c.provider, flow, BigInt(c.caip2.split(':')[1]!), FLOW_GAS[flow].ceiling, c.maxFeePerGas);
}
