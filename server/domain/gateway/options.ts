import { AppError } from '../../errors.ts';
import type { RateLimit } from '../../ports/rate-limiter.ts';
import { newId } from '../ids.ts';
import { parseAccountId, formatChainId } from '../caip.ts';
import { maxTransferAmount, type AssetInfo } from '../assets.ts';
import { assetAmount } from '../payments/view.ts';
import { amountOwed, priceUnit } from '../payments/price.ts';
import type { CryptoSettlementRecord, MerchantRecord } from '../merchants/records.ts';
import type { PaymentRecord } from '../payments/records.ts';
import type { QuoteRecord } from '../payments/quote-records.ts';
import type { WireAction } from '../../ports/chains.ts';
import type { GatewayDeps } from './gateway-deps.ts';
import { collectDataOf, type CollectDeps } from '../collect-data/collect.ts';
import { needsCollection } from '../collect-data/schema.ts';
import { distinctAccounts, reusableQuote, reuseThreshold, stateStillHolds } from './quote-reuse.ts';
import { feesRefusedFor, valueUsdMicros } from '../fees/fee-budget.ts';

export interface BuiltOption {
  id: string;
  account: string;
  amount: ReturnType<typeof assetAmount>;
  etaS: number;
  expiresAt: number;
  actions: WireAction[];
  collectData: ReturnType<typeof collectDataOf> | null;
}

/**
 * Wallets send every account they hold, on every chain (the interface asks them to), so the
 * request takes any number; quoting is bounded instead: at most this many accounts that can pay
 * on a chain we serve are quoted, each costing chain reads and a stored quote per asset.
 */
export const MAX_QUOTED_ACCOUNTS = 50;

/**
 * Options calls per payment: 10 in a row, then one a second. Each call reads the chains for every
 * account it names and may store a quote per account and asset; a wallet refreshing its offer
 * needs far less, and a caller holding a public App-Id must not make one payment cost more.
 */
export const OPTIONS_PER_PAYMENT_LIMIT: RateLimit = { perSecond: 1, burst: 10 };

/** 429 `rate_limited` with its Retry-After once this payment's options calls are over their rate. */
export async function optionsWithinRate(deps: Pick<GatewayDeps, 'optionsPerPayment'>, paymentId: string): Promise<void> {
  const decision = await deps.optionsPerPayment?.take(paymentId);
  if (!decision || decision.allowed) return;
  const retryAfterS = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  throw new AppError('rate_limited', `Too many options calls for this payment: retry after ${retryAfterS} s`, { details: { retryAfterS } });
}

/**
 * Live unchosen quotes one payment keeps (LIVE_QUOTES_PER_PAYMENT) when nothing is configured:
 * room for several full options calls (50 accounts × a few assets each), so a real wallet's
 * quotes survive any call of its own, while a caller naming new accounts on every call cannot
 * grow a payment's live quotes past it: the oldest are evicted (their buyer hears `quote_expired`
 * and asks again) rather than new ones refused, which would lock the buyer out.
 */
export const DEFAULT_LIVE_QUOTES_PER_PAYMENT = 200;

/**
 * How many (account, asset) pairs of one chain are prepared at once: their reads go out together
 * (the adapter batches them into one exchange with the node), so a slow node costs one round
 * trip per call instead of one per pair, without letting 50 accounts open 150 requests.
 */
const PREPARE_CONCURRENCY = 8;

/** One chain's share of an options call when none is configured (OPTIONS_CHAIN_BOUND_MS). */
const DEFAULT_CHAIN_BOUND_MS = 4_000;

type Pair = { raw: string; order: number; s: CryptoSettlementRecord; asset: AssetInfo };

interface ChainOptions {
  quotes: QuoteRecord[];
  refreshed: Array<{ optionId: string; state: Record<string, unknown>; deadline: Date }>;
  options: Array<{ order: number; option: BuiltOption }>;
  tooLarge: boolean;
  unavailable?: string;
}

/**
 * A chain's options within its bound (OPTIONS_CHAIN_BOUND_MS): a chain whose node fails or is slow
 * is left out, said why to the log and metric (onChainDropped), and the other chains answer. Its
 * quotes, should they come late, are not kept (no option was offered for them).
 */
async function boundedChain(deps: GatewayDeps, caip2: string, run: () => Promise<ChainOptions>): Promise<ChainOptions | { dropped: string }> {
  const boundMs = deps.optionsChainBoundMs ?? DEFAULT_CHAIN_BOUND_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<{ dropped: string }>((resolve) => {
    timer = setTimeout(() => resolve({ dropped: `${caip2} did not answer within ${boundMs} ms: its options are left out for now` }), boundMs);
  });
  const failed = (err: unknown) => ({ dropped: `${caip2} is unavailable (${err instanceof Error ? err.message : String(err)}): its options are left out for now` });
  const outcome = await Promise.race([run().catch(failed), late]).finally(() => clearTimeout(timer));
  if ('dropped' in outcome) deps.onChainDropped?.(caip2, outcome.dropped);
  return outcome;
}

/**
 * One option per (buyer account × merchant settlement asset on the account's chain), priced
 * as amountOwed decides (a fiat price converted to each asset; a token price exactly, in its own
 * asset only) and quoted until a deadline. Each quote is stored with what its
 * confirmation must match. A live quote with the same terms for the same account and asset is
 * offered again (same option id, same deadline) rather than stored anew, so calling options
 * repeatedly does not grow storage; accounts given twice (EVM in any letter case) count once; and
 * an amount the asset's chain cannot carry gets no option.
 */
export async function buildOptions(
  deps: GatewayDeps & { collect?: CollectDeps },
  payment: PaymentRecord,
  seller: { merchant: MerchantRecord | null; settlements: CryptoSettlementRecord[] },
  accounts: string[],
): Promise<{ options: BuiltOption[]; reason?: string }> {
  const { merchant, settlements } = seller;
  // Buyer data is asked per the merchant's setting, for every option of the payment alike.
  const collect = deps.collect && needsCollection(merchant?.dataCollection, priceUnit(payment.price), payment.price.value) ? deps.collect : null;
  const now = deps.clock.now();
  const fresh = Math.min(payment.expiresAt.getTime(), now + deps.quoteTtlS * 1000);
  const threshold = reuseThreshold(now, fresh, deps.quoteTtlS);
  const live = await deps.storage.quotes.live(payment.id, new Date(threshold - 1));
  /** Per chain, in the order its first account came: the (account, settlement) pairs to quote. */
  const work = new Map<string, Pair[]>();
  let quoted = 0;
  let order = 0;
  const payableChains = new Set(
    settlements.flatMap((s) => {
      const asset = deps.assets.get(s.asset);
      return asset ? [formatChainId(asset.parsed.chain)] : [];
    }),
  );
  for (const raw of distinctAccounts(accounts)) {
    const account = parseAccountId(raw);
    if (!account) continue;
    const caip2 = formatChainId(account.chain);
    const chain = deps.chains.forChain(caip2);
    if (!chain || !chain.isValidAddress(account.address)) continue;
    if (!payableChains.has(caip2)) continue;
    if (++quoted > MAX_QUOTED_ACCOUNTS) break;
    for (const s of settlements) {
      const asset = deps.assets.get(s.asset);
      if (!asset || formatChainId(asset.parsed.chain) !== caip2) continue;
      if (!work.has(caip2)) work.set(caip2, []);
      work.get(caip2)!.push({ raw, order: order++, s, asset });
    }
  }
  /** One (account, asset) pair's option, or why it has none. */
  type Prepared = { skip: true } | { tooLarge: true } | { unavailable: string } | { option: BuiltOption; quote?: QuoteRecord; refreshed?: ChainOptions['refreshed'][number] };
  const quotePair = async (chain: NonNullable<ReturnType<typeof deps.chains.forChain>>, { raw, s, asset }: Pair, refused: string | null): Promise<Prepared> => {
    const amount = amountOwed(payment.price, asset, deps.prices);
    if (amount === null || amount <= 0n) return { skip: true };
    if (amount > maxTransferAmount(asset)) return { tooLarge: true };
    const reused = reusableQuote(live, { account: raw, asset: asset.id, amount, destination: s.destination, collectData: collect !== null }, threshold);
    const optionId = reused?.optionId ?? newId('option', now);
    const deadline = reused?.deadline ?? new Date(fresh);
    const account10 = reused?.account ?? raw;
    const prepared = await chain.prepareOption({
      paymentId: payment.id,
      optionId,
      account: account10,
      asset,
      amount,
      destination: s.destination,
      deadline,
      quotedAt: reused?.createdAt ?? new Date(now),
      ...(reused ? { previous: reused.state } : {}),
      ...(refused ? { feesRefused: refused } : {}),
      valueUsdMicros: valueUsdMicros(asset, amount, deps.prices),
    });
    if ('unavailable' in prepared) return { unavailable: prepared.unavailable };
    const option: BuiltOption = {
      id: optionId,
      account: account10,
      amount: assetAmount(asset.id, amount, deps.assets),
      etaS: prepared.etaS,
      expiresAt: Math.floor(deadline.getTime() / 1000),
      actions: prepared.actions,
      collectData: collect ? collectDataOf(collect, { paymentId: payment.id, optionId, deadline }) : null,
    };
    if (!reused) {
      const quote = {
        optionId,
        paymentId: payment.id,
        account: raw,
        asset: asset.id,
        amount,
        destination: s.destination,
        deadline,
        state: prepared.state,
        createdAt: new Date(now),
        collectData: collect !== null,
      };
      return { option, quote };
    }
    return stateStillHolds(reused.state, prepared.state) ? { option } : { option, refreshed: { optionId, state: prepared.state, deadline } };
  };
  /** One chain's options, PREPARE_CONCURRENCY pairs at a time (chains run side by side: boundedChain). */
  const quoteChain = async (caip2: string, pairs: Pair[]): Promise<ChainOptions> => {
    const out: ChainOptions = { quotes: [], refreshed: [], options: [], tooLarge: false };
    const chain = deps.chains.forChain(caip2)!;
    // Why the service may not pay this partner's fees on this chain (its budget is spent).
    const refused = pairs.length ? ((await feesRefusedFor(deps, payment.partnerId, caip2, now)) ?? null) : null;
    const results: Prepared[] = new Array<Prepared>(pairs.length);
    let next = 0;
    const worker = async () => {
      while (next < pairs.length) {
        const i = next++;
        results[i] = await quotePair(chain, pairs[i]!, refused);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PREPARE_CONCURRENCY, pairs.length) }, worker));
    for (const [i, r] of results.entries()) {
      if ('tooLarge' in r) out.tooLarge = true;
      else if ('unavailable' in r) out.unavailable ??= r.unavailable;
      else if ('option' in r) {
        if (r.quote) out.quotes.push(r.quote);
        if (r.refreshed) out.refreshed.push(r.refreshed);
        out.options.push({ order: pairs[i]!.order, option: r.option });
      }
    }
    return out;
  };
  const results = await Promise.all([...work].map(([caip2, pairs]) => boundedChain(deps, caip2, () => quoteChain(caip2, pairs))));
  const kept = results.filter((r): r is ChainOptions => 'options' in r);
  const quotes = kept.flatMap((r) => r.quotes);
  const refreshed = kept.flatMap((r) => r.refreshed);
  const reoffered = kept.flatMap((r) => r.options.map((o) => o.option.id));
  const options = kept
    .flatMap((r) => r.options)
    .sort((a, b) => a.order - b.order)
    .map((o) => o.option);
  const tooLarge = kept.some((r) => r.tooLarge);
  // An adapter's own reason first; else why a chain was left out (down or slow).
  const unavailable = kept.find((r) => r.unavailable)?.unavailable ?? results.find((r): r is { dropped: string } => 'dropped' in r)?.dropped;
  await deps.storage.quotes.save(quotes, { perPayment: deps.liveQuotesPerPayment ?? DEFAULT_LIVE_QUOTES_PER_PAYMENT, now: new Date(now), reoffered });
  for (const r of refreshed) await deps.storage.quotes.updateState(r.optionId, r.state, r.deadline);
  if (options.length) return { options };
  const chains = [...new Set(settlements.map((s) => s.asset.split('/')[0]))].join(', ');
  if (tooLarge) return { options, reason: 'the amount is more than the merchant’s assets can carry in one transfer' };
  if (unavailable) return { options, reason: unavailable };
  // Every account counted was on a chain the merchant accepts.
  if (quoted === 0) return { options, reason: `no account on a chain this merchant accepts (${chains})` };
  const price = payment.price;
  return {
    options,
    reason:
      price.kind === 'token'
        ? `this payment is priced in ${price.asset}: it is paid in that asset only, from an account on its chain`
        : `no price for ${price.currency} in the merchant's assets`,
  };
}
