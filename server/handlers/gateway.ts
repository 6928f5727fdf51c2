import { AppError } from '../errors.ts';
import { partnerOf } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import { expireIfDue } from '../domain/payments/transition.ts';
import { gatewayBuyer, priceAmount, statusView } from '../domain/payments/view.ts';
import { longPoll } from '../domain/payments/long-poll.ts';
import { buildOptions, optionsWithinRate } from '../domain/gateway/options.ts';
import { confirmPayment } from '../domain/gateway/confirm.ts';
import { cancelByBuyer, fetchOptionActions, mustBeActionable } from '../domain/gateway/actions.ts';
import { resolvePaymentRef } from '../domain/gateway/payment-links.ts';
import type { GatewayDeps } from '../domain/gateway/gateway-deps.ts';
import type { MerchantRecord } from '../domain/merchants/records.ts';
import type { PaymentRecord } from '../domain/payments/records.ts';
import type { PaymentChangesPort } from '../ports/payment-changes.ts';
import { cancelView } from './payments.ts';

type Ops = 'gatewayGetPayment' | 'gatewayGetPaymentOptions' | 'gatewayFetchAction' | 'gatewayConfirmPayment' | 'gatewayGetPaymentStatus' | 'gatewayCancelPayment';

/**
 * Wallet-side operations. A wallet knows a payment only from the buyer's link, so lookups are by
 * id alone (the `{id}` may be the link itself); the key authenticates the wallet, not an owner.
 */
export function gatewayHandlers(deps: GatewayDeps & { paymentChanges: PaymentChangesPort }): Pick<OperationHandlers, Ops> {
  const { storage, clock, assets } = deps;

  /** What `load` finds for the payment `ref` names (an id or one of our links), or 404. */
  async function lookUp<T>(ref: string, load: (id: string) => Promise<T | null>): Promise<T> {
    const id = resolvePaymentRef(ref, deps.payHost);
    const found = id ? await load(id) : null;
    if (!found) throw new AppError('payment_not_found', 'No payment with this id');
    return found;
  }

  async function payment(ref: string): Promise<PaymentRecord> {
    return expireIfDue(deps, await lookUp(ref, (id) => storage.payments.get(id)));
  }

  /** The payment as stored now (expired if its time is up): what a woken long-poll answers. */
  async function current(known: PaymentRecord): Promise<PaymentRecord> {
    return expireIfDue(deps, (await storage.payments.get(known.id)) ?? known);
  }

  async function info(p: PaymentRecord, known?: { merchant: MerchantRecord | null }) {
    const merchant = known ? known.merchant : await storage.merchants.get(p.partnerId, p.merchantId, { includeDeleted: true });
    return {
      status: p.status,
      amount: priceAmount(p, assets),
      expiresAt: Math.floor(p.expiresAt.getTime() / 1000),
      merchant: { name: merchant?.name ?? '', iconUrl: merchant?.iconUrl ?? null },
      ...gatewayBuyer(p),
    };
  }

  return {
    async gatewayGetPayment({ path }) {
      return { status: 200, body: await info(await payment(path.id)) };
    },

    async gatewayGetPaymentOptions({ path, query, body }) {
      // One read for the payment, its merchant and settlements: options is the wallet's hot call.
      const found = await lookUp(path.id, (id) => storage.payments.getForGateway(id));
      const p = mustBeActionable(await expireIfDue(deps, found.payment));
      await optionsWithinRate(deps, p.id);
      const { options, reason } = await buildOptions(deps, p, found, body.accounts);
      // Present when any option needs data (the first such option's form), per the interface.
      const collectData = options.find((o) => o.collectData)?.collectData ?? null;
      return {
        status: 200,
        body: { options, collectData, ...(query.includePaymentInfo ? { info: await info(p, found) } : {}), ...(reason ? { details: { reason } } : {}) },
      };
    },

    async gatewayFetchAction({ path, body }) {
      return { status: 200, body: { actions: await fetchOptionActions(deps, await payment(path.id), body.optionId, body.data) } };
    },

    async gatewayConfirmPayment({ path, query, body, ctx }) {
      // The wallet app paying is the account its key belongs to (the key's auth is the only
      // thing that says which wallet this is; Sdk-Name names a library, not the app).
      const walletApp = { name: partnerOf(ctx).name, iconUrl: partnerOf(ctx).iconUrl ?? null };
      // Waits from the confirm's own answer (usually processing) for the next status: final, or
      // requires_action again when the chain shows the attempt cannot pay.
      const p = await longPoll(deps.paymentChanges, {
        paymentId: resolvePaymentRef(path.id, deps.payHost),
        maxPollMs: query.maxPollMs,
        first: async () =>
          confirmPayment(
            deps,
            await payment(path.id),
            body.optionId,
            body.results.map((r) => r.data[0]!),
            body.collectedData,
            walletApp,
          ),
        reread: current,
      });
      return { status: 200, body: statusView(p, assets, clock.now(), ctx.apiVersion!) };
    },

    async gatewayGetPaymentStatus({ path, query, ctx }) {
      const p = await longPoll(deps.paymentChanges, {
        paymentId: resolvePaymentRef(path.id, deps.payHost),
        maxPollMs: query.maxPollMs,
        first: () => payment(path.id),
        reread: current,
      });
      return { status: 200, body: statusView(p, assets, clock.now(), ctx.apiVersion!) };
    },

    async gatewayCancelPayment({ path }) {
      return { status: 200, body: cancelView(await cancelByBuyer(deps, await payment(path.id))) };
    },
  };
}
