import { AppError } from '../errors.ts';
import { partnerOf } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import { newId } from '../domain/ids.ts';
import type { PaymentDeps } from '../domain/payments/transition.ts';
import { eventSnapshot } from '../domain/payments/view.ts';
import { assertOwnsMerchant } from './payment-access.ts';

/**
 * Refunds are full and recorded on the payment: the merchant returns the funds from its own
 * wallet (the service never holds them), and the service marks the payment refunded once.
 */
export function refundHandlers(deps: PaymentDeps): Pick<OperationHandlers, 'createRefund'> {
  const { storage, clock, assets } = deps;
  return {
    async createRefund({ body, ctx }) {
      const partner = partnerOf(ctx);
      const merchantId = ctx.merchantId!;
      const merchant = await storage.merchants.get(partner.id, merchantId, { includeDeleted: true });
      if (!merchant) await assertOwnsMerchant(storage, partner.id, merchantId);
      const result = await storage.payments.markRefunded(partner.id, merchantId, body.paymentId, new Date(clock.now()), {
        id: newId('event', clock.now()),
        snapshot: (p) => eventSnapshot(p, merchant ?? undefined, assets),
      });
      if (!result.ok) {
        const current = result.current;
        if (!current) throw new AppError('not_found', 'No payment with this id for this merchant');
        if (current.refundedAt) throw new AppError('already_refunded', 'This payment is already refunded');
        throw new AppError('payment_not_succeeded', `Only a succeeded payment can be refunded; this one is ${current.status}`, { details: { status: current.status } });
      }
      return { status: 200, body: { paymentId: result.payment.id, refunded: true, refundedAt: result.payment.refundedAt!.toISOString() } };
    },
  };
}
