import { AppError } from '../../errors.ts';
import { formatChainId } from '../caip.ts';
import { formatMinor } from '../currencies.ts';
import { expireIfDue } from '../payments/transition.ts';
import { chainOfQuote, optionRequestOf } from '../payments/settle-attempt.ts';
import { walletTransferJob } from '../payments/wallet-transfer-job.ts';
import type { QuoteRecord } from '../payments/quote-records.ts';
import type { PaymentRecord } from '../payments/records.ts';
import type { CollectDeps } from '../collect-data/collect.ts';
import type { GatewayDeps } from './gateway-deps.ts';
import { buildOptions, optionsWithinRate } from './options.ts';
import { accountKey } from './quote-reuse.ts';

/**
 * Quotes whose deadline passed less than this long ago are still looked at for a transaction
 * handed out and able to land: a build made just before a quote's deadline lives ~60–90 s more.
 */
const RECENT_QUOTES_MS = 10 * 60_000;

/**
 * Requests for one (payment, account) run one after the other in this process: two scans at once
 * must read what the first stored, or each would build its own transaction and both could pay.
 * (Across API processes two requests in the same instant can still build twice; the second build
 * then overwrites the first in the quote, see docs/hosted-checkout.md "Solana Pay".)
 */
const inFlight = new Map<string, Promise<unknown>>();
function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = inFlight.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const tail = run.catch(() => undefined);
  inFlight.set(key, tail);
  void tail.then(() => {
    if (inFlight.get(key) === tail) inFlight.delete(key);
  });
  return run;
}

/** Why a payment in this state answers no transaction: the wallet shows the message (4xx). */
function mustBePayable(p: PaymentRecord): void {
  if (p.status === 'requires_action') return;
  if (p.status === 'expired') throw new AppError('payment_expired', 'This payment has expired; ask the merchant for a new link');
  const why: Record<string, string> = {
    succeeded: 'This payment is already paid',
    processing: 'This payment is being paid already',
    cancelled: 'This payment was cancelled',
    failed: 'This payment failed; ask the merchant for a new link',
  };
  throw new AppError('invalid_state', why[p.status] ?? `This payment is ${p.status}`, { details: { status: p.status } });
}

export interface TransactionRequestAnswer {
  /** Base64 wire transaction: the account signs it and broadcasts it. */
  transaction: string;
  /** What the wallet shows about it. */
  message: string;
}

/**
 * A Solana Pay transaction request (POST `{account}`) for one accepted asset of a payment: the
 * option for that account and asset (an existing live one, else a fresh quote, as the gateway's
 * options quote it), and the chain's wallet-broadcast transaction for it (the same one while it
 * can still land). The option is watched on chain from then on (wallet-transfer-job.ts), so the
 * payment succeeds with no confirm call.
 */
export async function answerTransactionRequest(
  deps: GatewayDeps & { collect?: CollectDeps },
  paymentId: string,
  input: { account: string; asset: string },
): Promise<TransactionRequestAnswer> {
  const found = await deps.storage.payments.getForGateway(paymentId);
  if (!found) throw new AppError('payment_not_found', 'No payment with this id');
  const payment = await expireIfDue(deps, found.payment);
  mustBePayable(payment);
  const asset = deps.assets.get(input.asset);
  const settlement = found.settlements.find((s) => s.asset === input.asset);
  const caip2 = asset ? formatChainId(asset.parsed.chain) : undefined;
  const chain = caip2 ? deps.chains.forChain(caip2) : undefined;
  if (!asset || !settlement || !caip2 || !chain?.walletTransaction) throw new AppError('invalid_params', 'This payment cannot be paid in this asset by a Solana Pay wallet');
  if (!chain.isValidAddress(input.account)) throw new AppError('invalid_params', 'The account is not a valid address on this network');
  const account = `${caip2}:${input.account}`;

  return oneAtATime(`${payment.id}/${accountKey(account)}`, async () => {
    const now = deps.clock.now();
    // A transaction already handed out for this account and asset, if it can still land.
    const recent = (await deps.storage.quotes.live(payment.id, new Date(now - RECENT_QUOTES_MS)))
      .filter((q) => accountKey(q.account) === accountKey(account) && q.asset === asset.id && hasWalletBuilds(q))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    for (const quote of recent) {
      const answer = await walletTransactionOf(deps, quote);
      // A new build on a quote past its deadline is not given out: a fresh quote is, below.
      if (answer.reused || quote.deadline.getTime() > now) return answer.reply;
    }
    await optionsWithinRate(deps, payment.id);
    const { options, reason } = await buildOptions(deps, payment, found, [account]);
    const option = options.find((o) => o.amount.unit === `caip19/${asset.id}`);
    if (!option) throw new AppError('invalid_state', `No way to pay this payment from this account now${reason ? `: ${reason}` : ''}`);
    if (option.collectData) throw new AppError('invalid_state', 'The merchant asks for your details for this payment: open the payment page to pay');
    const quote = await deps.storage.quotes.get(payment.id, option.id);
    if (!quote) throw new AppError('option_not_found', 'The option just quoted is gone; try again');
    return (await walletTransactionOf(deps, quote)).reply;
  });

  /** The chain's transaction for a quote, stored with it and watched; `reused` when it is the one already handed out. */
  async function walletTransactionOf(deps: GatewayDeps, quote: QuoteRecord): Promise<{ reused: boolean; reply: TransactionRequestAnswer }> {
    const answer = await chain!.walletTransaction!(optionRequestOf(deps, quote), quote.state);
    if ('refused' in answer) throw new AppError('invalid_state', `No transaction for this payment now: ${answer.refused}`);
    const reused = buildsOf(answer.state) === buildsOf(quote.state);
    if (!reused) {
      await deps.storage.quotes.updateState(quote.optionId, answer.state, quote.deadline);
      await deps.storage.jobs.insert([
        {
          ...walletTransferJob({ paymentId: quote.paymentId, optionId: quote.optionId, chain: chainOfQuote(deps, quote).caip2 }, deps.clock.now()),
          createdAt: new Date(deps.clock.now()),
        },
      ]);
      deps.onJobsWritten?.();
    }
    const symbol = asset!.symbol;
    const value = formatUnits(quote.amount, asset!.decimals);
    return { reused, reply: { transaction: answer.transaction, message: `Pay ${found!.merchant?.name || 'the merchant'} ${value} ${symbol}` } };
  }
}

function hasWalletBuilds(q: QuoteRecord): boolean {
  return buildsOf(q.state) > 0;
}

function buildsOf(state: unknown): number {
  const builds = (state as { walletBuilds?: unknown }).walletBuilds;
  return Array.isArray(builds) ? builds.length : 0;
}

/** Base units → "10.5" (string arithmetic, no trailing zeros). */
function formatUnits(value: bigint, decimals: number): string {
  return formatMinor(value, decimals)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}
