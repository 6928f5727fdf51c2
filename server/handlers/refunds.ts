import { partnerOf } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import type { PaymentDeps } from '../domain/payments/transition.ts';
import { refundPayment } from '../domain/payments/refund.ts';
import { auditApiAction } from './api-audit.ts';

/** HTTP ↔ the refund use case (server/domain/payments/refund.ts). */
export function refundHandlers(deps: PaymentDeps): Pick<OperationHandlers, 'createRefund'> {
  return {
    async createRefund({ body, ctx }) {
      const payment = await refundPayment(deps, partnerOf(ctx).id, ctx.merchantId!, body.paymentId);
      await auditApiAction(deps, ctx, 'payment.refund', { type: 'payment', id: payment.id }, { merchantId: ctx.merchantId! });
      return { status: 200, body: { paymentId: payment.id, refunded: true, refundedAt: payment.refundedAt!.toISOString() } };
    },
  };
}
