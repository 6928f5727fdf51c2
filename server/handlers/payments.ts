import { partnerOf } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import { createPayment, type CreatePaymentDeps } from '../domain/payments/create-payment.ts';
import { cancelPayment, expireIfDue } from '../domain/payments/transition.ts';
import { auditApiAction } from './api-audit.ts';
import { paymentDetailsView, statusView } from '../domain/payments/view.ts';
import { longPoll } from '../domain/payments/long-poll.ts';
import type { PaymentChangesPort } from '../ports/payment-changes.ts';
import type { PaymentRecord } from '../domain/payments/records.ts';
import { pollInMs } from '../domain/payments/state-machine.ts';
import { paymentOfMerchant } from '../domain/payments/access.ts';

export interface PaymentHandlerDeps extends CreatePaymentDeps {
  /** Base of buyer links: `gatewayUrl` is `{payBaseUrl}/<paymentId>`. */
  payBaseUrl: string;
  /** Wakes long-polling status requests when their payment changes. */
  paymentChanges: PaymentChangesPort;
}

/** The create answer: where the buyer pays, and when to look again. */
function createdView(payment: PaymentRecord, payBaseUrl: string) {
  return {
    paymentId: payment.id,
    gatewayUrl: `${payBaseUrl}/${payment.id}`,
    status: payment.status,
    isFinal: false,
    pollInMs: pollInMs(payment.status)!,
    expiresAt: Math.floor(payment.expiresAt.getTime() / 1000),
  };
}

type Ops = 'createPayment' | 'getPaymentStatus' | 'getPayment' | 'cancelPayment';

export function paymentHandlers(deps: PaymentHandlerDeps): Pick<OperationHandlers, Ops> {
  const { storage, clock, assets } = deps;
  return {
    async createPayment({ body, ctx }) {
      const preview = ctx.apiVersion === '2026-02-19.preview';
      const input = {
        partnerId: partnerOf(ctx).id,
        merchantId: ctx.merchantId!,
        amount: body.amount,
        expiresAt: body.expiresAt ?? null,
        referenceId: body.referenceId,
        checkout: preview ? (body.checkout ?? null) : null,
      };
      const idempotency = ctx.idempotency;
      const payment = await createPayment(deps, input, idempotency ? { idempotency: (p) => idempotency.completeWith(201, createdView(p, deps.payBaseUrl)) } : {});
      ctx.trace.paymentId = payment.id;
      return { status: 201, body: createdView(payment, deps.payBaseUrl) };
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
      await auditApiAction(deps, ctx, 'payment.cancel', { type: 'payment', id: cancelled.id }, { merchantId: ctx.merchantId! });
      return { status: 200, body: cancelView(cancelled) };
    },
  };
}

export function cancelView(p: { id: string; status: string; cancelledReason: string | null; cancelledAt: Date | null }) {
  return { paymentId: p.id, status: p.status as 'cancelled', cancelledReason: p.cancelledReason ?? '', cancelledAt: (p.cancelledAt ?? new Date(0)).toISOString() };
}
