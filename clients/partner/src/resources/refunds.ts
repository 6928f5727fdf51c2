import type { Refund } from '../contract.ts';
import { unwrap, type HelperContext } from '../unwrap.ts';

export interface RefundsApi {
  /**
   * Marks a succeeded payment fully refunded (the merchant sends the funds back itself). Once per
   * payment: again answers 409 `already_refunded`, before success 400 `payment_not_succeeded`.
   */
  create(merchantId: string, paymentId: string): Promise<Refund>;
}

/** Refund helpers; not retried, since the call carries no idempotency key. */
export function refundsApi({ raw }: HelperContext): RefundsApi {
  return {
    create: (merchantId, paymentId) => unwrap(raw.POST('/v1/refunds', { params: { header: { 'Merchant-Id': merchantId } }, body: { paymentId } })),
  };
}
