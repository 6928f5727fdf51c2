import { AppError, validationError, type ValidationIssue } from '../../errors.ts';
import { createAssetRegistry, type AssetRegistry } from '../assets.ts';
import { readPrice, type PaymentPrice } from './price.ts';
import type { PricePort } from '../prices.ts';
import { checkoutUrlIssues } from './checkout-urls.ts';
import { newId } from '../ids.ts';
import type { IdempotencyCompletion } from '../idempotency/records.ts';
import type { PaymentRecord } from './records.ts';
import { CREATED_EVENT_TYPE } from './state-machine.ts';
import { eventSnapshot } from './view.ts';
import type { PaymentDeps } from './transition.ts';

export interface PaymentTimeLimits {
  /** When the request gives no expiry. */
  defaultTtlS: number;
  /** The furthest an expiry may be. */
  maxTtlS: number;
}

export interface CreatePaymentInput {
  partnerId: string;
  merchantId: string;
  amount: { unit: string; value: string };
  expiresAt?: number | null;
  referenceId: string;
  checkout?: { successUrl: string; errorUrl: string } | null;
}

/** Rules that depend on the deployment, not on the request. */
export interface PaymentRules {
  /** What a token price may be in; absent: only fiat prices are accepted. */
  assets?: AssetRegistry;
  /** Sandbox mode: `checkout` URLs may be plain http to a loopback host. */
  loopbackCheckout?: boolean;
}

const NO_ASSETS = createAssetRegistry([]);

/**
 * A new payment from a validated request, or a 400 naming each field that breaks a rule the
 * schema cannot express (supported currency or listed asset, amount bounds, expiry window,
 * HTTPS checkout URLs).
 */
export function newPayment(input: CreatePaymentInput, now: number, limits: PaymentTimeLimits, rules: PaymentRules = {}): PaymentRecord {
  const issues: ValidationIssue[] = [];
  const read = readPrice(input.amount, rules.assets ?? NO_ASSETS);
  if ('issues' in read) issues.push(...read.issues);
  if (input.checkout) issues.push(...checkoutUrlIssues(input.checkout, rules.loopbackCheckout ?? false));
  const nowS = Math.floor(now / 1000);
  let expiresAtS = nowS + limits.defaultTtlS;
  if (input.expiresAt !== undefined && input.expiresAt !== null) {
    if (input.expiresAt <= nowS) issues.push({ field: 'expiresAt', message: 'must be in the future (Unix seconds)' });
    else if (input.expiresAt > nowS + limits.maxTtlS) issues.push({ field: 'expiresAt', message: `must be at most ${limits.maxTtlS} seconds from now` });
    expiresAtS = input.expiresAt;
  }
  if (issues.length || !('price' in read)) throw validationError(issues);
  const at = new Date(now);
  return {
    id: newId('payment', now),
    partnerId: input.partnerId,
    merchantId: input.merchantId,
    referenceId: input.referenceId,
    price: read.price,
    status: 'requires_action',
    stateVersion: 1,
    expiresAt: new Date(expiresAtS * 1000),
    createdAt: at,
    updatedAt: at,
    checkout: input.checkout ?? null,
    failureCode: null,
    cancelledReason: null,
    cancelledAt: null,
    refundedAt: null,
    optionId: null,
    buyerAccount: null,
    asset: null,
    tokenValue: null,
    network: null,
    txId: null,
    succeededAt: null,
  };
}

export interface CreatePaymentDeps extends PaymentDeps {
  paymentTimes: PaymentTimeLimits;
  /** Fiat → token rates; a fiat price no listed asset can be priced from is refused. Absent: not checked. */
  prices?: PricePort;
  /** Sandbox mode accepts plain-http loopback `checkout` URLs; production only https (default sandbox). */
  mode?: 'sandbox' | 'production';
}

/**
 * The create-payment unit of work: a payment checked against the deployment's rules, written
 * with its `payment.created` event in one storage unit (and the idempotency record, when the
 * caller keeps one: `idempotency` builds it from the new payment); no expiry job, the expiry sweep
 * reads the deadline from the payment's row. A merchant
 * that cannot take it answers the error the partner can act on: not theirs, deleted, or without
 * a settlement destination (for a token price, in that token).
 */
export async function createPayment(
  deps: CreatePaymentDeps,
  input: CreatePaymentInput,
  opts: { idempotency?: (payment: PaymentRecord) => IdempotencyCompletion } = {},
): Promise<PaymentRecord> {
  const { storage, clock, assets } = deps;
  const payment = newPayment(input, clock.now(), deps.paymentTimes, { assets, loopbackCheckout: (deps.mode ?? 'sandbox') === 'sandbox' });
  if (deps.prices) refuseUnpriceable(payment.price, assets, deps.prices);
  const result = await storage.payments.create(payment, {
    // The event's snapshot names the merchant as the unit reads it.
    event: { id: newId('event', clock.now()), type: CREATED_EVENT_TYPE, snapshot: (p, merchant) => eventSnapshot(p, merchant, assets) },
    // No expiry job: the expiry sweep (server/jobs/expiry-sweep.ts) reads the deadline from the row.
    jobs: [],
    ...(opts.idempotency ? { idempotency: opts.idempotency(payment) } : {}),
  });
  if (!result.ok) {
    if (result.reason === 'merchant_not_found') throw new AppError('forbidden', 'Merchant-Id does not name a merchant of this account');
    if (result.reason === 'merchant_deleted') throw new AppError('merchant_not_found', 'This merchant was deleted and cannot accept payments');
    if (payment.price.kind === 'token') {
      throw validationError([
        { field: 'amount.unit', message: `this merchant has no settlement destination for ${payment.price.asset}: register one before pricing payments in it` },
      ]);
    }
    throw new AppError('merchant_not_payable', 'This merchant has no crypto settlement configured: register one before creating payments');
  }
  (deps.onEventsWritten ?? deps.onJobsWritten)?.();
  return payment;
}

/**
 * A fiat price that no asset this deployment lists can be converted from (EUR with no `FX_RATES`
 * pair to the dollar all its stablecoins track) would be a payment no wallet is ever offered an
 * option for: the buyer would wait on a page that can never be paid. Refused at create instead,
 * naming the currency and what the operator can do.
 */
function refuseUnpriceable(price: PaymentPrice, assets: AssetRegistry, prices: PricePort): void {
  if (price.kind !== 'fiat') return;
  const all = assets.all();
  if (all.some((a) => prices.tokenAmount(price.currency, price.value, a) !== null)) return;
  const pegs = [...new Set(all.flatMap((a) => (a.pegCurrency ? [a.pegCurrency] : [])))];
  throw new AppError(
    'currency_not_priceable',
    `Payments in ${price.currency} cannot be priced here: no asset this service lists tracks ${price.currency}, and no exchange rate converts it` +
      (pegs.length ? ` to ${pegs.join(' or ')} (the operator adds a "${price.currency}/${pegs[0]}" rate to FX_RATES).` : '.') +
      ' Price the payment in a supported currency.',
    { details: { currency: price.currency } },
  );
}
