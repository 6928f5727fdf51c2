import { AppError } from '../../errors.ts';
import type { PaymentRecord } from './records.ts';
import { newId } from '../ids.ts';
import { assertOwnsMerchant } from './access.ts';
import type { PaymentDeps } from './transition.ts';
import { eventSnapshot } from './view.ts';
import { REFUNDED_EVENT_TYPE } from './state-machine.ts';

/**
 * Refunds are full and recorded on the payment: the merchant returns the funds from its own
 * wallet (the service never holds them), and the service marks the payment refunded once, with
 * its `payment.refunded` event. Only a succeeded payment can be refunded: a second refund answers
 * 409 `already_refunded`, any other status 400 `payment_not_succeeded`.
 */
export async function refundPayment(deps: PaymentDeps, partnerId: string, merchantId: string, paymentId: string): Promise<PaymentRecord> {
  const { storage, clock, assets } = deps;
  const merchant = await storage.merchants.get(partnerId, merchantId, { includeDeleted: true });
  if (!merchant) await assertOwnsMerchant(storage, partnerId, merchantId);
  const result = await storage.payments.markRefunded(partnerId, merchantId, paymentId, new Date(clock.now()), {
    id: newId('event', clock.now()),
    type: REFUNDED_EVENT_TYPE,
    snapshot: (p) => eventSnapshot(p, merchant ?? undefined, assets),
  });
  if (!result.ok) {
    const current = result.current;
    if (!current) throw new AppError('not_found', 'No payment with this id for this merchant');
    if (current.refundedAt) throw new AppError('already_refunded', 'This payment is already refunded');
    throw new AppError('payment_not_succeeded', `Only a succeeded payment can be refunded; this one is ${current.status}`, { details: { status: current.status } });
  }
  return result.payment;
}
