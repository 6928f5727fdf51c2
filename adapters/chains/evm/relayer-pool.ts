// A chain's relayer keys (EVM_RELAYER_KEYS): each key has its own nonce order (its own exclusive
// section), its own funds, and a count of the payments it is working on, so several workers send
// through different keys at once instead of queueing on one account's nonces. A key whose balance
// is below its minimum leaves the pool (no new payment is given to it) and returns once a balance
// read covers the minimum again; a payment already sent with it stays with it (its replacements
// must use its nonce).
import { Transaction, type Provider, type Wallet } from 'ethers';
import { LRUCache } from 'lru-cache';
import type { ExclusiveSections } from '../../../server/ports/exclusive-sections.ts';
import { relayerQueue, type SerialQueue } from './relayer.ts';
import { createRelayerFunds, type RelayerFunds } from './relayer-submit.ts';

export interface RelayerKey {
  wallet: Wallet;
  /** Serializes this key's nonce, sign and record (relayer.ts). */
  queue: SerialQueue;
  funds: RelayerFunds;
  /** Payments leased to this key and not yet handed back. */
  inFlight: number;
  /** The last balance read, wei, and when (ms); null before the first read. */
  balance: { wei: bigint; at: number } | null;
}

export interface RelayerPool {
  keys: readonly RelayerKey[];
  /** The key with this address (a recorded transaction's sender, a permit's spender); undefined when it is not one of the pool's. */
  byAddress(address: string): RelayerKey | undefined;
  /** The key that signed these recorded bytes; undefined when none of the pool's did. */
  bySigned(rawTx: string): RelayerKey | undefined;
  /** Whether the key may take new payments: its last balance covers its minimum and any refused cost. */
  inPool(key: RelayerKey): boolean;
  /** The key for a new payment: the least busy in the pool; when none is, the best funded (its refusal says why). */
  pick(): RelayerKey;
  /** Runs `work` counting it on `key`, so picks spread the load. */
  lease<T>(key: RelayerKey, work: () => Promise<T>): Promise<T>;
  /** Records a balance read after `refusalsBefore` refusals (a read older than a refusal says nothing about it). */
  observe(key: RelayerKey, wei: bigint, refusalsBefore: number): void;
  /** Reads every key's balance now (readiness, metrics, doctor, and before a pick when stale). */
  refresh(): Promise<void>;
}

export interface RelayerPoolOptions {
  caip2: string;
  provider: Provider;
  minBalance: bigint;
  sections?: ExclusiveSections;
  /** A key's balance older than this is read again, in the background, when a payment picks (default 10 s). */
  balanceTtlMs?: number;
  now?: () => number;
}

export function createRelayerPool(wallets: readonly Wallet[], o: RelayerPoolOptions): RelayerPool {
  if (!wallets.length) throw new Error(`no relayer key for ${o.caip2}`);
  const now = o.now ?? Date.now;
  const ttl = o.balanceTtlMs ?? 10_000;
  const keys: RelayerKey[] = wallets.map((wallet) => ({
    wallet,
    queue: relayerQueue(o.sections, o.caip2, wallet.address),
    funds: createRelayerFunds(),
    inFlight: 0,
    balance: null,
  }));
  const byLower = new Map(keys.map((k) => [k.wallet.address.toLowerCase(), k]));
  let refreshing: Promise<void> | null = null;
  let turn = 0;
  // Every step of every payment in a batch asks who signed the batch's bytes, and recovering the
  // sender is a JavaScript ecrecover over the whole transaction (~5 ms for 16 payments' bytes):
  // the settle bench's workers spent a quarter of their CPU there (issue 32). The recorded bytes
  // are the service's own, so their sender never changes; a few hundred recent ones are kept.
  const signers = new LRUCache<string, string>({ max: 256 });
  const senderOf = (rawTx: string): string | null => {
    const known = signers.get(rawTx);
    if (known !== undefined) return known;
    const sender = Transaction.from(rawTx).from;
    if (sender) signers.set(rawTx, sender);
    return sender;
  };

  const inPool = (k: RelayerKey): boolean => {
    // Unread yet: given a chance; its first refusal or balance read decides.
    if (k.balance === null) return k.funds.shortOf() === null;
    const short = k.funds.shortOf() ?? 0n;
    return k.balance.wei >= o.minBalance && k.balance.wei >= short;
  };
  const observe = (k: RelayerKey, wei: bigint, refusalsBefore: number) => {
    k.balance = { wei, at: now() };
    k.funds.observed(wei, refusalsBefore);
  };
  const refresh = (): Promise<void> => {
    refreshing ??= Promise.all(
      keys.map(async (k) => {
        const before = k.funds.refusals();
        const wei = await o.provider.getBalance(k.wallet.address).catch(() => null);
        if (wei !== null) observe(k, wei, before);
      }),
    ).then(
      () => {
        refreshing = null;
      },
      () => {
        refreshing = null;
      },
    );
    return refreshing;
  };

  return {
    keys,
    byAddress: (address) => byLower.get(address.toLowerCase()),
    bySigned(rawTx) {
      const sender = senderOf(rawTx);
      return sender ? byLower.get(sender.toLowerCase()) : undefined;
    },
    inPool,
    pick() {
      if (keys.some((k) => k.balance === null || now() - k.balance.at > ttl)) void refresh();
      const eligible = keys.filter(inPool);
      if (!eligible.length) return keys.reduce((best, k) => ((k.balance?.wei ?? 0n) > (best.balance?.wei ?? 0n) ? k : best));
      // Least busy first; among equals, turn by turn, so idle keys share the work.
      turn = (turn + 1) % keys.length;
      const rotated = [...eligible.slice(turn % eligible.length), ...eligible.slice(0, turn % eligible.length)];
      return rotated.reduce((best, k) => (k.inFlight < best.inFlight ? k : best));
    },
    async lease(key, work) {
      key.inFlight++;
      try {
        return await work();
      } finally {
        key.inFlight--;
      }
    },
    observe,
    refresh,
  };
}
