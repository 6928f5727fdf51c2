import { AppError, validationError } from '../errors.ts';
import { partnerOf } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import { newPayment, type PaymentTimeLimits } from '../domain/payments/create-payment.ts';
import { cancelPayment, expireIfDue, type PaymentDeps } from '../domain/payments/transition.ts';
import { eventSnapshot, paymentDetailsView, statusView } from '../domain/payments/view.ts';
import { longPoll } from '../domain/payments/long-poll.ts';
import type { PaymentChangesPort } from '../ports/payment-changes.ts';
import { CREATED_EVENT_TYPE, pollInMs } from '../domain/payments/state-machine.ts';
import { newId } from '../domain/ids.ts';
import { paymentOfMerchant } from './payment-access.ts';

export interface PaymentHandlerDeps extends PaymentDeps {
  /** Base of buyer links: `gatewayUrl` is `{payBaseUrl}/<paymentId>`. */
  payBaseUrl: string;
  paymentTimes: PaymentTimeLimits;
  /** Wakes long-polling status requests when their payment changes. */
  paymentChanges: PaymentChangesPort;
  /** Sandbox mode accepts plain-http loopback `checkout` URLs; production only https (default sandbox). */
  mode?: 'sandbox' | 'production';
}

type Ops = 'createPayment' | 'getPaymentStatus' | 'getPayment' | 'cancelPayment';

export function paymentHandlers(deps: PaymentHandlerDeps): Pick<OperationHandlers, Ops> {
  const { storage, clock, assets } = deps;
  return {
    async createPayment({ body, ctx }) {
      const partner = partnerOf(ctx);
      const merchantId = ctx.merchantId!;
      const preview = ctx.apiVersion === '2026-02-19.preview';
      const payment = newPayment(
        { partnerId: partner.id, merchantId, amount: body.amount, expiresAt: body.expiresAt ?? null, referenceId: body.referenceId, checkout: preview ? (body.checkout ?? null) : null },
        clock.now(),
        deps.paymentTimes,
        { assets, loopbackCheckout: (deps.mode ?? 'sandbox') === 'sandbox' },
      );
      const response = {
        paymentId: payment.id,
        gatewayUrl: `${deps.payBaseUrl}/${payment.id}`,
        status: payment.status,
        isFinal: false,
        pollInMs: pollInMs(payment.status)!,
        expiresAt: Math.floor(payment.expiresAt.getTime() / 1000),
      };
      const result = await storage.payments.create(payment, {
        event: { id: newId('event', clock.now()), type: CREATED_EVENT_TYPE, snapshot: (p, merchant) => eventSnapshot(p, merchant, assets) },
        jobs: [{ id: newId('job', clock.now()), type: 'payment.expire', payload: { paymentId: payment.id }, runAt: payment.expiresAt }],
        ...(ctx.idempotency ? { idempotency: ctx.idempotency.completeWith(201, response) } : {}),
      });
      if (!result.ok) {
        if (result.reason === 'merchant_not_found') throw new AppError('forbidden', 'Merchant-Id does not name a merchant of this account');
        if (result.reason === 'merchant_deleted') throw new AppError('merchant_not_found', 'This merchant was deleted and cannot accept payments');
        if (payment.price.kind === 'token') {
          throw validationError([{ field: 'amount.unit', message: `this merchant has no settlement destination for ${payment.price.asset}: register one before pricing payments in it` }]);
        }
        throw new AppError('merchant_not_payable', 'This merchant has no crypto settlement configured: register one before creating payments');
      }
      deps.onJobsWritten?.();
      return { status: 201, body: response };
    },

    async getPaymentStatus({ path, query, ctx }) {
      const read = async () => expireIfDue(deps, await paymentOfMerchant(storage, partnerOf(ctx).id, ctx.merchantId!, path.id));
      const payment = await longPoll(deps.paymentChanges, { paymentId: path.id, maxPollMs: query.maxPollMs, first: read, reread: read });
      return { status: 200, body: statusView(payment, assets, clock.now(), ctx.apiVersion!) };
    },

    async getPayment({ path, ctx }) {
      const partner = partnerOf(ctx);
      const payment = await expireIfDue(deps, await paymentOfMerchant(storage, partner.id, ctx.merchantId!, path.id));
      const merchant = await storage.merchants.get(partner.id, payment.merchantId, { includeDeleted: true });
      return { status: 200, body: paymentDetailsView(payment, merchant ?? undefined, assets, clock.now(), ctx.apiVersion!) };
    },

    async cancelPayment({ path, ctx }) {
      const payment = await paymentOfMerchant(storage, partnerOf(ctx).id, ctx.merchantId!, path.id);
      const cancelled = await cancelPayment(deps, payment, 'cancelled_by_merchant');
      return { status: 200, body: cancelView(cancelled) };
    },
  };
}

export function cancelView(p: { id: string; status: string; cancelledReason: string | null; cancelledAt: Date | null }) {
  return { paymentId: p.id, status: p.status as 'cancelled', cancelledReason: p.cancelledReason ?? '', cancelledAt: (p.cancelledAt ?? new Date(0)).toISOString() };
}
