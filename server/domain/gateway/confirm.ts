import { AppError } from '../../errors.ts';
import { expireIfDue, transitionPayment } from '../payments/transition.ts';
import { advanceJob, chainOfQuote, optionRequestOf } from '../payments/settle-attempt.ts';
import type { PaymentRecord } from '../payments/records.ts';
import type { GatewayDeps } from './gateway-deps.ts';
import { requireCollected } from '../collect-data/collect.ts';

/**
 * Checks the wallet's results against the option and, when they prove the payment, moves it to
 * processing with a job that submits and follows the transfer. Nothing about the payment changes
 * when the results are wrong (count, order, signature, expired quote). Confirming again with the
 * same option answers the payment's current state: one submission, the same answer.
 */
export async function confirmPayment(
  deps: GatewayDeps,
  payment: PaymentRecord,
  optionId: string,
  results: string[],
  collectedData?: { fields: Array<{ id: string; value: string }> } | null,
  /** The wallet app confirming (its gateway key's account): recorded as who paid, beside the account. */
  walletApp?: { name: string; iconUrl?: string | null },
): Promise<PaymentRecord> {
  const current = await expireIfDue(deps, payment);
  if (current.status === 'expired') throw new AppError('payment_expired', 'This payment has expired; ask the merchant for a new link');
  if (current.status !== 'requires_action') {
    if (current.optionId === optionId) return current;
    throw new AppError('invalid_state', `This payment is ${current.status}`, { details: { status: current.status } });
  }
  const quote = await deps.storage.quotes.get(current.id, optionId);
  if (!quote) throw new AppError('option_not_found', 'No option with this id for this payment; ask for options again');
  if (quote.deadline.getTime() <= deps.clock.now()) throw new AppError('quote_expired', 'This option’s quote has expired; ask for options again');
  // Buyer data first: a missing form answers 400 before any signature is checked or submitted.
  await requireCollected(deps, quote, collectedData);
  const { caip2, chain } = chainOfQuote(deps, quote);
  const expected = chain.expectedResults(quote.state);
  if (results.length !== expected) {
    throw new AppError('invalid_results', `This option has ${expected} action(s); send exactly one result per action, in order`, {
      details: { expected, received: results.length },
    });
  }
  const req = optionRequestOf(deps, quote);
  const outcome = await chain.verifyResults(req, quote.state, results);
  if (!outcome.ok) throw new AppError(outcome.code, outcome.message);
  const now = deps.clock.now();
  const moved = await transitionPayment(
    deps,
    current,
    'processing',
    {
      optionId,
      buyerAccount: quote.account,
      buyerProviderName: walletApp?.name ?? null,
      buyerProviderIcon: walletApp?.iconUrl ?? null,
      asset: quote.asset,
      tokenValue: quote.amount,
      network: caip2,
      ...(outcome.txId ? { txId: outcome.txId } : {}),
    },
    [advanceJob({ paymentId: current.id, optionId, stateVersion: current.stateVersion + 1, submission: outcome.submission, chain: caip2 }, now)],
  );
  if (moved.ok) return moved.payment;
  if (moved.duplicateTxId) throw new AppError('transaction_already_used', 'This transaction already paid another payment');
  if (moved.current?.optionId === optionId) return moved.current;
  throw new AppError('invalid_state', 'The payment changed while confirming it', { status: 409, details: { status: moved.current?.status ?? null } });
}
