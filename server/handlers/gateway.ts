import { AppError } from '../errors.ts';
import type { OperationHandlers } from '../http/operations.ts';
import { cancelPayment, expireIfDue, type PaymentDeps } from '../domain/payments/transition.ts';
import { statusView } from '../domain/payments/view.ts';
import { cancelView } from './payments.ts';

/**
 * Wallet-side operations. A wallet knows a payment only by its id (from the buyer's link), so
 * lookups are by id alone; the key authenticates the wallet, not an owner.
 */
export function gatewayHandlers(deps: PaymentDeps): Pick<OperationHandlers, 'gatewayGetPaymentStatus' | 'gatewayCancelPayment'> {
  const { storage, clock, assets } = deps;

  async function payment(id: string) {
    const p = await storage.payments.get(id);
    if (!p) throw new AppError('payment_not_found', 'No payment with this id');
    return expireIfDue(deps, p);
  }

  return {
    async gatewayGetPaymentStatus({ path }) {
      return { status: 200, body: statusView(await payment(path.id), assets, clock.now()) };
    },
    async gatewayCancelPayment({ path }) {
      const p = await payment(path.id);
      if (p.status === 'expired') throw new AppError('payment_expired', 'This payment has expired');
      return { status: 200, body: cancelView(await cancelPayment(deps, p, 'cancelled_by_user')) };
    },
  };
}
