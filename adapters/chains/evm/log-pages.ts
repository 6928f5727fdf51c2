// `eth_getLogs` over a block range, in pages that shrink when a provider refuses the range:
// Alchemy (-32600, "up to a N block range"), Infura (-32602, "limited to a N blocks range"),
// QuickNode and reth (-32602, "exceeds ... range"), nodes answering 413, "response size exceeded"
// (-32005). The page is halved until accepted (or the provider's own number is taken when its
// message names one), and the working size is remembered per provider, so the next search starts
// at it instead of re-learning it. A refusal at one block is a real error and is thrown.
import type { Filter, Log, Provider } from 'ethers';

/** The widest range asked in one call before any refusal (Alchemy's 2,000, which all public RPCs accept). */
export const MAX_LOG_RANGE = 2_000;

const RANGE_REFUSAL =
  /block range|blocks range|range .*exceeds|exceeds .*range|range (is )?too (wide|large)|too many blocks|response size|more than \d+ results|query timeout|413|payload too large/i;

/** What a provider accepted last: the page size of each provider (the endpoints behind it). */
const learned = new WeakMap<Provider, number>();

/** The page size a provider is known to accept (MAX_LOG_RANGE until it refused one). */
export const logPageSize = (provider: Provider): number => learned.get(provider) ?? MAX_LOG_RANGE;

function messageOf(err: unknown): string {
  const e = err as { error?: { message?: string; code?: number }; info?: { error?: { message?: string } }; message?: string; code?: unknown };
  return [e.error?.message, e.info?.error?.message, e.message, e.error?.code, String(e.code)].filter(Boolean).join(' ');
}

/** True when the error is a provider refusing the range (not a node failing). */
export function isRangeRefusal(err: unknown): boolean {
  return RANGE_REFUSAL.test(messageOf(err));
}

/** The page size the refusal names, if any ("up to a 10 block range", "limited to a 10 blocks range", "limit of 10"). */
function namedLimit(err: unknown): number | null {
  const m = /(?:up to an? |limited to an? |limit of |max block range |maximum block range (?:of )?)(\d{1,7})/i.exec(messageOf(err));
  return m ? Number(m[1]) : null;
}

/**
 * Each page's logs in [fromBlock, toBlock], oldest page first, handed to `page` as read with the
 * page's last block; stops when `page` answers true (found). Answers whether it stopped early.
 */
export async function forEachLogPage(
  provider: Provider,
  filter: Omit<Filter, 'fromBlock' | 'toBlock'>,
  fromBlock: number,
  toBlock: number,
  page: (logs: Log[], pageTo: number) => Promise<boolean>,
): Promise<boolean> {
  let from = fromBlock;
  while (from <= toBlock) {
    const size = logPageSize(provider);
    const to = Math.min(toBlock, from + size - 1);
    let logs: Log[];
    try {
      logs = await provider.getLogs({ ...filter, fromBlock: from, toBlock: to });
    } catch (err) {
      const span = to - from + 1;
      if (!isRangeRefusal(err) || span <= 1) throw err;
      const named = namedLimit(err);
      learned.set(provider, Math.max(1, named !== null && named < span ? named : Math.floor(span / 2)));
      continue;
    }
    if (await page(logs, to)) return true;
    from = to + 1;
  }
  return false;
}
