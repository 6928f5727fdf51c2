import { isDeepStrictEqual } from 'node:util';
import { parseAccountId } from '../caip.ts';
import type { QuoteRecord } from '../payments/quote-records.ts';

/**
 * One buyer account however it is spelled: EVM addresses are case-insensitive (the case is only a
 * checksum), so `eip155:1:0xAB…` and `eip155:1:0xab…` are the same account; other namespaces'
 * addresses (base58) are case-sensitive and kept as given.
 */
export function accountKey(caip10: string): string {
  const a = parseAccountId(caip10);
  if (!a) return caip10;
  return a.chain.namespace === 'eip155' ? `${a.chain.namespace}:${a.chain.reference}:${a.address.toLowerCase()}` : caip10;
}

/** The accounts of one options call, each once (first spelling kept), in the order given. */
export function distinctAccounts(accounts: string[]): string[] {
  const seen = new Set<string>();
  return accounts.filter((a) => {
    const k = accountKey(a);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The deadline a live quote must still reach to be offered again: half a quote's life from now,
 * or the deadline a new quote would get when the payment's expiry caps it sooner. Options called
 * again and again (a wallet refreshing) then reuse one quote per (account, asset) instead of
 * writing a new one each time, and a quote about to lapse is replaced before the wallet is
 * handed a deadline it cannot meet.
 */
export function reuseThreshold(now: number, freshDeadline: number, quoteTtlS: number): number {
  return Math.min(freshDeadline, now + (quoteTtlS * 1000) / 2);
}

/**
 * The live quote to offer again for this account and asset, if one holds the same terms (amount,
 * destination, data collection) and reaches `threshold`; the latest such.
 */
export function reusableQuote(
  live: QuoteRecord[],
  want: { account: string; asset: string; amount: bigint; destination: string; collectData: boolean },
  threshold: number,
): QuoteRecord | undefined {
  const key = accountKey(want.account);
  return live
    .filter(
      (q) =>
        accountKey(q.account) === key &&
        q.asset === want.asset &&
        q.amount === want.amount &&
        q.destination === want.destination &&
        (q.collectData ?? false) === want.collectData &&
        q.deadline.getTime() >= threshold,
    )
    .sort((a, b) => b.deadline.getTime() - a.deadline.getTime())[0];
}

/**
 * Whether the stored state still says everything a fresh preparation says. The stored state may
 * carry more (a fetched Solana transaction), which must survive; a prepared field that changed
 * (a Permit2 approval no longer needed) means the stored state must follow the new actions.
 */
export function stateStillHolds(stored: Record<string, unknown>, prepared: Record<string, unknown>): boolean {
  const fresh = JSON.parse(JSON.stringify(prepared)) as Record<string, unknown>;
  return Object.entries(fresh).every(([k, v]) => isDeepStrictEqual(stored[k], v));
}
