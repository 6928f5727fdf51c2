import { AppError } from '../../errors.ts';
import type { PaymentRecord } from '../payments/records.ts';
import { cancelPayment } from '../payments/transition.ts';
import { chainOfQuote, optionRequestOf } from '../payments/settle-attempt.ts';
import type { GatewayDeps } from './gateway-deps.ts';

/** A payment the buyer can still act on: 410 once expired, 400 once settled either way. */
export function mustBeActionable(p: PaymentRecord): PaymentRecord {
  if (p.status === 'expired') throw new AppError('payment_expired', 'This payment has expired; ask the merchant for a new link');
  if (p.status !== 'requires_action') throw new AppError('invalid_state', `This payment is ${p.status}`, { details: { status: p.status } });
  return p;
}

/**
 * The actions of an option whose chain builds them on request (Solana's transaction): the quote
 * must still hold, and the chain's new state is stored with it so confirm checks what the wallet
 * signed against what was built.
 */
export async function fetchOptionActions(deps: GatewayDeps, payment: PaymentRecord, optionId: string, data: string) {
  const quote = await deps.storage.quotes.get(mustBeActionable(payment).id, optionId);
  if (!quote) throw new AppError('option_not_found', 'No option with this id for this payment');
  if (quote.deadline.getTime() <= deps.clock.now()) throw new AppError('quote_expired', 'This option’s quote has expired; ask for options again');
  const { chain } = chainOfQuote(deps, quote);
  if (!chain.fetchActions) throw new AppError('invalid_state', 'This option has no build action to fetch');
  const fetched = await chain.fetchActions(optionRequestOf(deps, quote), quote.state, data);
  await deps.storage.quotes.updateState(quote.optionId, fetched.state, quote.deadline);
  return fetched.actions;
}

/** The buyer walks away: only from `requires_action`; an expired payment answers 410. */
export async function cancelByBuyer(deps: GatewayDeps, payment: PaymentRecord): Promise<PaymentRecord> {
  if (payment.status === 'expired') throw new AppError('payment_expired', 'This payment has expired');
  return cancelPayment(deps, payment, 'cancelled_by_user');
}
