import { AppError } from '../../errors.ts';
import type { PaymentRecord } from './records.ts';
import type { StoragePort } from '../../ports/storage/index.ts';

/**
 * A payment as seen through the `Merchant-Id` header: the partner's payment of that merchant,
 * 403 when the partner has no such merchant, 404 `payment_not_found` otherwise. The fast path
 * is one primary-key read; the merchant is looked up only to explain a miss.
 */
export async function paymentOfMerchant(storage: StoragePort, partnerId: string, merchantId: string, paymentId: string): Promise<PaymentRecord> {
  const payment = await storage.payments.getForPartner(partnerId, paymentId, merchantId);
  if (payment) return payment;
  await assertOwnsMerchant(storage, partnerId, merchantId);
  throw new AppError('payment_not_found', 'No payment with this id for this merchant');
}

export async function assertOwnsMerchant(storage: StoragePort, partnerId: string, merchantId: string): Promise<void> {
  if (!(await storage.merchants.get(partnerId, merchantId, { includeDeleted: true }))) {
    throw new AppError('forbidden', 'Merchant-Id does not name a merchant of this account');
  }
}
