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

/** Rounds of reading what another request stored first before giving up (each needs a request to win). */
const MAX_ROUNDS = 4;

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
 * option recorded for that account and asset (while it is live or its last build can still land),
 * else a fresh quote, as the gateway's options quote it; and the chain's wallet-broadcast
 * transaction for it (the same one while it can still land). The option is watched on chain from then on (wallet-transfer-job.ts), so the
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

  const { quotes } = deps.storage;
  const key = accountKey(account);
  // One option per (payment, account, asset) across every API process (storage's wallet_requests),
  // and one build at a time on it (a compare-and-set of its state): scans racing in two processes
  // read what the first stored, so they answer the same transaction and two scans cannot pay twice.
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const claimed = await quotes.walletRequestOption(payment.id, key, asset.id);
    const quote = claimed ? await quotes.get(payment.id, claimed) : null;
    const answer = quote ? await handOut(quote) : null;
    if (answer) return answer;
    const fresh = await freshQuote();
    const winner = await quotes.claimWalletRequest(payment.id, key, asset.id, fresh.optionId, claimed);
    if (winner === fresh.optionId) {
      const mine = await handOut(fresh);
      if (mine) return mine;
    }
    // Another request set the option first: the next round answers with it.
  }
  throw new AppError('bad_gateway', 'Too many requests for this payment at once; scan again in a moment');

  /** A new option for this account and asset, as the gateway's options quote it. */
  async function freshQuote(): Promise<QuoteRecord> {
    await optionsWithinRate(deps, payment.id);
    const { options, reason } = await buildOptions(deps, payment, found!, [account]);
    const option = options.find((o) => o.amount.unit === `caip19/${asset!.id}`);
    if (!option) throw new AppError('invalid_state', `No way to pay this payment from this account now${reason ? `: ${reason}` : ''}`);
    if (option.collectData) throw new AppError('invalid_state', 'The merchant asks for your details for this payment: open the payment page to pay');
    const quote = await quotes.get(payment.id, option.id);
    if (!quote) throw new AppError('option_not_found', 'The option just quoted is gone; try again');
    return quote;
  }

  /**
   * The transaction of this option: its build while that can still land, else a new one stored
   * only if no other request stored one first (then that one is answered). Null when the option
   * is spent: its deadline passed and its last build can no longer land.
   */
  async function handOut(quote: QuoteRecord): Promise<TransactionRequestAnswer | null> {
    for (let read = quote; ;) {
      const answer = await chain!.walletTransaction!(optionRequestOf(deps, read), read.state);
      if ('refused' in answer) {
        // A spent option refusing a new build (its builds used up) is replaced by a fresh one; any other refusal is the buyer's to hear.
        if (read.deadline.getTime() <= deps.clock.now()) return null;
        throw new AppError('invalid_state', answer.refused);
      }
      const reply = { transaction: answer.transaction, message: `Pay ${found!.merchant?.name || 'the merchant'} ${formatUnits(read.amount, asset!.decimals)} ${asset!.symbol}` };
      if (buildsOf(answer.state) === buildsOf(read.state)) return reply;
      if (read.deadline.getTime() <= deps.clock.now()) return null;
      if (await quotes.updateStateIf(read.optionId, read.state, answer.state, read.deadline)) {
        await deps.storage.jobs.insert([
          {
            ...walletTransferJob({ paymentId: read.paymentId, optionId: read.optionId, chain: chainOfQuote(deps, read).caip2 }, deps.clock.now()),
            createdAt: new Date(deps.clock.now()),
          },
        ]);
        deps.onJobsWritten?.();
        return reply;
      }
      const again = await quotes.get(read.paymentId, read.optionId);
      if (!again) return null;
      read = again;
    }
  }
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
